"""Issue 21: ``Campaign.revision`` follows every write the cached views depend on
(campaigns/revision.py), and ``campaigns.cache.cached`` keys on it."""

import pytest

from battles.models import Battle
from campaigns.cache import cached
from campaigns.models import Campaign, Round
from campaigns.services.accounts import profile_of
from fleets.models import Fleet
from league.selectors.map import map_document
from league.selectors.standings import live_standings
from tests.factories import AreaFactory, ShipFactory
from tests.worlds import build_history_world, play_history_rounds

pytestmark = pytest.mark.django_db


def revision(campaign: Campaign) -> int:
    return Campaign.objects.values_list("revision", flat=True).get(pk=campaign.pk)


def test_a_saved_tile_bumps_and_a_full_save_of_a_stale_campaign_does_not_undo_it():
    world = build_history_world()
    campaign = Campaign.objects.get(pk=world.campaign.pk)  # loaded before the bump
    start = revision(campaign)
    tile = world.tiles["free"]
    tile.owner = world.lg.a
    tile.save()
    assert revision(campaign) == start + 1
    campaign.name = "Renamed"
    campaign.save()  # its own save bumps; the stale value it holds is not written back
    assert revision(campaign) == start + 2
    assert Campaign.objects.get(pk=campaign.pk).name == "Renamed"


def test_ships_area_links_battles_and_names_bump_their_campaign_only():
    world = build_history_world()
    other = build_history_world()  # the same users, another campaign
    campaign, before, untouched = world.campaign, revision(world.campaign), revision(
        other.campaign)
    ShipFactory(fleet=world.fleet)  # through the fleet
    assert revision(campaign) == before + 1
    extra = AreaFactory(campaign=campaign, name="Far Reaches")
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
