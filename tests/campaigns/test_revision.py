"""``Campaign.revision`` follows every write the cached views depend on
(campaigns/revision.py), and ``campaigns.cache.cached`` keys on it."""

from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaigns import revision as revisions
from campaigns.cache import cached
from campaigns.models import Campaign, Round, Tile
from campaigns.services.accounts import profile_of
from fleets.models import Fleet, Ship
from league.selectors.map import map_document
from league.selectors.standings import live_standings
from tests.factories import AreaFactory, ShipFactory
from tests.worlds import build_history_world, play_history_rounds

pytestmark = pytest.mark.django_db


def revision(campaign: Campaign) -> int:
    return Campaign.objects.values_list("revision", flat=True).get(pk=campaign.pk)


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """``with commits():`` - the block as a transaction of its own: its commit callbacks run
    at its end, as at a commit (a test's writes all share the test's transaction, and one
    bump per campaign and transaction is enough: campaigns/revision.py)."""

    @contextmanager
    def commit():
        with django_capture_on_commit_callbacks(execute=True):
            yield

    return commit


def test_a_saved_tile_bumps_and_a_full_save_of_a_stale_campaign_does_not_undo_it(commits):
    with commits():
        world = build_history_world()
    campaign = Campaign.objects.get(pk=world.campaign.pk)  # loaded before the bump
    start = revision(campaign)
    tile = world.tiles["free"]
    tile.owner = world.lg.a
    with commits():
        tile.save()
    assert revision(campaign) == start + 1
    campaign.name = "Renamed"
    campaign.save()  # its own save bumps; the stale value it holds is not written back
    assert revision(campaign) == start + 2
    assert Campaign.objects.get(pk=campaign.pk).name == "Renamed"


def test_ships_area_links_battles_and_names_bump_their_campaign_only(commits):
    with commits():
        world = build_history_world()
        other = build_history_world()  # the same users, another campaign
    campaign, before, untouched = world.campaign, revision(world.campaign), revision(
        other.campaign)
    with commits():
        ShipFactory(fleet=world.fleet)  # through the fleet
    assert revision(campaign) == before + 1
    with commits():
        extra = AreaFactory(campaign=campaign, name="Far Reaches")
    with commits():
        world.areas["ocean"].adjacent.add(extra)  # many-to-many
    assert revision(campaign) == before + 3
    assert revision(other.campaign) == untouched
    profile = profile_of(world.lg.a.user)
    profile.display_name = "Anna the Bold"
    profile.save()  # the standings show the name: every campaign of the user
    assert revision(campaign) > before + 3
    assert revision(other.campaign) > untouched


def test_a_login_does_not_bump():
    world = build_history_world()
    before = revision(world.campaign)
    from django.contrib.auth.models import update_last_login

    update_last_login(None, world.lg.a.user)  # what every login does
    assert revision(world.campaign) == before


def test_whenever_the_map_or_the_standings_change_the_revision_changes():
    """The property the caches rely on, over two played rounds (declarations, results,
    conquest through bulk updates, a marker added, a fleet moved, income paid)."""
    world = build_history_world()
    seen = {}

    def check(step: str) -> None:
        revisions.read(world.campaign.pk)  # a reader after the step (as its commit would)
        campaign = Campaign.objects.get(pk=world.campaign.pk)
        state = (map_document(campaign), live_standings(campaign))
        for earlier, (rev, earlier_state) in seen.items():
            if rev == campaign.revision:
                assert earlier_state == state, f"changed between {earlier} and {step} " \
                                                f"at revision {rev}"
        seen[step] = (campaign.revision, state)

    import tests.worlds as worlds

    real_advance = worlds.advance_to

    def advance_and_check(rnd: Round, phase: str) -> Round:
        result = real_advance(rnd, phase)
        check(f"round {rnd.number} {phase}")
        return result

    check("start")
    worlds.advance_to = advance_and_check
    try:
        play_history_rounds(world)
    finally:
        worlds.advance_to = real_advance
    # the helper moves the fleet with a bare update (no service): a real move bumps
    fleet = Fleet.objects.get(pk=world.fleet.pk)
    fleet.area = world.areas["ocean"]
    fleet.save()
    check("fleet moved back")
    battle = Battle.objects.filter(campaign=world.campaign).first()
    battle.attacker_vp += 5
    battle.save()
    check("result corrected")
    assert len({rev for rev, _ in seen.values()}) >= 5


def test_cached_values_follow_the_revision():
    world = build_history_world()
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    def read():
        return cached("test", Campaign.objects.get(pk=world.campaign.pk), compute, "en")

    assert read() == 1
    assert read() == 1  # from memory
    tile = world.tiles["free"]
    tile.name = "Ridge"
    tile.save()
    assert read() == 2


def bumps(action) -> int:
    """How many revision bumps (UPDATEs of the campaign's revision) ``action()`` sends."""
    with CaptureQueriesContext(connection) as queries:
        action()
    return sum('"revision"' in q["sql"] and q["sql"].startswith("UPDATE") for q in queries)


def test_one_bump_per_campaign_and_transaction(commits):
    with commits():
        world = build_history_world()
    tiles, start = list(world.tiles.values()), revision(world.campaign)

    def write_all():
        for tile in tiles:
            tile.name = f"{tile.name}!"
            tile.save()

    with commits():
        assert bumps(write_all) == 1 and len(tiles) > 2
    assert revision(world.campaign) == start + 1
    with commits():  # the next transaction bumps again
        assert bumps(write_all) == 1
    assert revision(world.campaign) == start + 2


def test_a_bump_rolled_back_with_its_savepoint_is_sent_again(commits):
    with commits():
        world = build_history_world()
    tile, start = world.tiles["free"], revision(world.campaign)
    with transaction.atomic():
        tile.save()
        assert revision(world.campaign) == start + 1
        transaction.set_rollback(True)
    assert revision(world.campaign) == start
    assert bumps(tile.save) == 1  # not skipped: the earlier bump is gone
    assert revision(world.campaign) == start + 1


def test_a_value_cached_between_two_writes_is_not_served_after_the_second():
    world = build_history_world()
    campaign_id, tile = world.campaign.pk, world.tiles["free"]

    def read():
        campaign = Campaign.objects.get(pk=campaign_id)
        return cached("test-name", campaign, lambda: Tile.objects.get(pk=tile.pk).name)

    tile.name = "Ridge"
    tile.save()
    assert read() == "Ridge"
    tile.name = "Crest"
    assert bumps(tile.save) == 1  # a value was cached since the last bump
    assert read() == "Crest"


def test_rows_saved_with_their_parent_loaded_bump_once_and_without_it_still_bump(commits):
    with commits():
        world = build_history_world()
    start = revision(world.campaign)
    with commits():  # the fleet is loaded with each ship: its campaign id is known
        assert bumps(lambda: [ShipFactory(fleet=world.fleet) for _ in range(3)]) == 1
    assert revision(world.campaign) == start + 1
    ship = Ship.objects.filter(fleet=world.fleet).first()  # without its fleet
    with commits():
        assert bumps(ship.save) == 1
    assert revision(world.campaign) == start + 2
