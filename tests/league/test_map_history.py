"""Map history: the map is recorded once when a round closes, in the closing
step, with public facts only (R-FLT-7), and a round's changes are read against the round
before."""

import json
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import RoundMap, Tile
from league.selectors.map_history import (
    PREVIOUS,
    START,
    UNRECORDED,
    closed_rounds,
    round_map_history,
)
from league.services.closing import round_close
from league.services.map_history import round_map_record
from tests.factories import FleetFactory, ShipFactory, TileMarkerFactory
from tests.module_world import module_world
from tests.worlds import (
    HISTORY_SECRETS,
    advance_to,
    build_history_world,
    play_history_rounds,
    row,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_history_world()


def _played():
    world = build_history_world()
    play_history_rounds(world)
    return world


played = module_world(_played)  # two rounds played once per module


def _ids(world, *names):
    return [world.tiles[name].pk for name in names]


def test_closing_a_round_records_its_map_once(world):
    play_history_rounds(world, rounds=1)
    lg, tiles = world.lg, world.tiles
    snapshot = RoundMap.objects.get(round=world.rnd)
    assert snapshot.tiles == {
        str(tiles["a-home"].pk): {"owner": lg.a.pk, "markers": []},
        str(tiles["free"].pk): {"owner": lg.a.pk, "markers": []},  # conquered in round 1
        str(tiles["b-edge"].pk): {"owner": lg.b.pk, "markers": ["manufactorum"]},
        str(tiles["b-home"].pk): {"owner": lg.b.pk, "markers": []}}
    assert sorted(snapshot.fleets, key=lambda f: f["area"]) == [
        {"area": world.areas["ocean"].pk, "owner": lg.b.pk, "ships": 1},
        {"area": world.areas["reaches"].pk, "owner": None, "ships": 1}]
    assert not RoundMap.objects.filter(round__number=2).exists()  # round 2 is open


def test_a_retried_close_keeps_the_snapshot_it_wrote(world):
    """R-RND-2: the closing step is idempotent; the map changing afterwards (round 2) does not
    rewrite round 1's snapshot, whether the whole step or the recorder runs again."""
    play_history_rounds(world, rounds=1)
    first = RoundMap.objects.get(round=world.rnd)
    Tile.objects.filter(pk=world.tiles["b-home"].pk).update(owner=world.lg.c)
    round_close(round=world.rnd, now=datetime.now(UTC))
    again = round_map_record(round=world.rnd)
    assert again.pk == first.pk and RoundMap.objects.filter(round=world.rnd).count() == 1
    assert again.tiles == first.tiles
    assert RoundMap.objects.get(round=world.rnd).tiles[str(world.tiles["b-home"].pk)] == {
        "owner": world.lg.b.pk, "markers": []}


def test_r_flt_7_the_snapshot_holds_public_facts_only(played):
    for snapshot in RoundMap.objects.filter(round__campaign=played.campaign):
        text = json.dumps([snapshot.tiles, snapshot.fleets])
        assert not [word for word in HISTORY_SECRETS if word in text]
        assert all(set(f) == {"area", "owner", "ships"} for f in snapshot.fleets)
        assert all(set(t) == {"owner", "markers"} for t in snapshot.tiles.values())


def test_round_1_lists_what_it_starts_from(played):
    """The set-up map is not recorded [decision]: round 1 is read against an empty map, so it
    lists every held tile, every marker and every fleet."""
    lg, ocean, reaches = played.lg, played.areas["ocean"], played.areas["reaches"]
    history = round_map_history(played.campaign, 1)
    assert history.recorded and history.basis == START
    changes = history.changes
    assert [(c["tile"]["id"], c["from"], c["to"]) for c in changes["owners"]] == [
        (played.tiles["a-home"].pk, None, lg.a.pk), (played.tiles["free"].pk, None, lg.a.pk),
        (played.tiles["b-edge"].pk, None, lg.b.pk), (played.tiles["b-home"].pk, None, lg.b.pk)]
    assert [(c["tile"]["name"], c["added"], c["removed"]) for c in changes["markers"]] == [
        ("Hill 12", ["manufactorum"], [])]
    assert [(c["area"], c["owner"], c["fleets_before"], c["fleets_after"], c["ships_after"])
            for c in changes["fleets"]] == [(ocean.pk, lg.b.pk, 0, 1, 1),
                                            (reaches.pk, None, 0, 1, 1)]
    assert changes["tiles_added"] == changes["tiles_removed"] == []


def test_round_2_lists_the_conquest_marker_and_fleet_moves(played):
    """R-CON-1: anna took Hill 12 from ben, its manufactorum went along (R-MRK-4: no marker
    change there); a shield generator was added on anna's home; ben's fleet moved."""
    lg, tiles = played.lg, played.tiles
    history = round_map_history(played.campaign, 2)
    assert history.recorded and history.basis == PREVIOUS
    changes = history.changes
    (owner_change,) = changes["owners"]
    assert owner_change["from"] == lg.b.pk and owner_change["to"] == lg.a.pk
    assert owner_change["tile"] == {"id": tiles["b-edge"].pk, "planet": played.alpha.pk,
                                    "planet_name": "Alpha", "q": 2, "r": 0, "name": "Hill 12"}
    assert [(c["tile"]["id"], c["added"], c["removed"]) for c in changes["markers"]] == [
        (tiles["a-home"].pk, ["shield_generator"], [])]
    assert [(c["area_name"], c["owner"], c["fleets_before"], c["fleets_after"],
             c["ships_before"], c["ships_after"]) for c in changes["fleets"]] == [
        ("Deep Ocean", lg.b.pk, 1, 0, 1, 0), ("Alpha Coast", lg.b.pk, 0, 1, 0, 1)]
    held = {t["id"]: t["owner"] for t in history.tiles}
    assert held[tiles["b-edge"].pk] == lg.a.pk and held[tiles["b-home"].pk] == lg.b.pk


def test_map_corrections_show_as_tiles_added_and_removed(world):
    play_history_rounds(world, rounds=1)
    added = row(world.alpha, world.lg.c, (5,))[0]
    removed = world.tiles["b-home"].pk
    Tile.objects.filter(pk=removed).delete()
    advance_to(world.campaign.rounds.get(number=2), "closed")
    changes = round_map_history(world.campaign, 2).changes
    assert [t["id"] for t in changes["tiles_added"]] == [added.pk]
    assert changes["tiles_removed"] == [{"id": removed, "planet": None, "planet_name": None,
                                         "q": None, "r": None, "name": ""}]
    assert changes["owners"] == []  # a new tile did not change hands
    assert round_map_history(world.campaign, 1).tiles[-1]["planet"] is None  # drawn nowhere


def test_rounds_closed_before_map_history_are_not_recorded(played):
    RoundMap.objects.filter(round__campaign=played.campaign, round__number=1).delete()
    old = round_map_history(played.campaign, 1)
    assert not old.recorded and old.tiles is None and old.changes is None
    later = round_map_history(played.campaign, 2)
    assert later.recorded and later.basis == UNRECORDED and later.changes is None
    assert [(r.number, r.recorded) for r in closed_rounds(played.campaign)] == [(1, False),
                                                                                 (2, True)]


def test_open_and_missing_rounds_have_no_history(played):
    assert round_map_history(played.campaign, 3) is None  # open, in declare
    assert round_map_history(played.campaign, 4) is None


def _count(call) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def _grow(world) -> None:
    """More tiles, markers, fleets and ships."""
    beta = world.lg.planet("Beta")
    for tile in row(beta, world.lg.d, range(8)) + row(beta, None, range(8), r=1):
        TileMarkerFactory(tile=tile)
    for _ in range(3):
        fleet = FleetFactory(area=world.areas["coast"], owner=world.lg.c)
        ShipFactory(fleet=fleet)
        ShipFactory(fleet=fleet)


def test_recording_and_reading_take_constant_queries(played):
    rnd = played.campaign.rounds.get(number=2)

    def record():
        RoundMap.objects.filter(round=rnd).delete()
        return _count(lambda: round_map_record(round=rnd))

    def read():
        return _count(lambda: round_map_history(played.campaign, 2))

    before = (record(), read())
    _grow(played)
    assert (record(), read()) == before
    assert len(RoundMap.objects.get(round=rnd).tiles) == 4 + 16
