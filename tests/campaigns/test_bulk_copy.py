"""The fleet phase's big writes go through COPY / one ``jsonb_to_recordset`` update
on PostgreSQL (``campaigns.bulk``) and store exactly what ``bulk_create``/``bulk_update``
stored; SQLite keeps the ORM path."""

import pytest
from django.db import connection

from campaigns import bulk
from campaigns.models import DiceRoll
from fleets.models import NavalBattle, Ship
from tests.factories import AreaFactory, FleetFactory, ShipFactory
from tests.worlds import make_league

pytestmark = pytest.mark.django_db
postgresql_only = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                     reason="COPY is PostgreSQL's")

# What a naive COPY or JSON path would mangle: COPY's own escapes, quotes, unicode, numbers.
AWKWARD = {"tab": "a\tb", "newline": "a\nb\r\n", "backslash": "C:\\N \\. \\\\", "null": None,
           "quote": "\"'", "unicode": "Kampf ⚔ Öl ß \u2028", "float": 0.1, "big": 2 ** 53,
           "neg": -7, "empty": [], "nested": [{"a": [1, {"b": None}]}], "bool": False}


def _battles(rnd, area, names):
    return [NavalBattle(round=rnd, area=area, sequence=i + 1, engine="dark_force",
                        sides=[{"name": name, **AWKWARD}], outcome={"winner": name},
                        events=[AWKWARD, {"step": i, "text": name}] * 3,
                        first_counter=i, dice_count=i * 2)
            for i, name in enumerate(names)]


def _rolls(rnd):
    return [DiceRoll(round=rnd, counter=i, purpose=f"gunfire\t{i}\\N", sides=6,
                     faces=[i % 6 + 1, AWKWARD["float"]], object="Ship \"A\"\nB")
            for i in range(1, 40)]


def _stored(model, rnd, *drop):
    rows = model.objects.filter(round=rnd).order_by("pk").values()
    return [{k: v for k, v in row.items() if k not in {"id", "round_id", *drop}}
            for row in rows]


def _stored_by_bulk_create():
    """Round 1's naval battles and dice stored by ``bulk_create``; round 2 empty, to store
    the same rows another way and compare."""
    lg = make_league()
    first = lg.start()
    second = first.__class__.objects.create(campaign=lg.campaign, number=2)
    area = AreaFactory(campaign=lg.campaign)
    names = ["Vengeance", "tab\there", "back\\slash", "Zerstörer"]
    NavalBattle.objects.bulk_create(_battles(first, area, names))
    DiceRoll.objects.bulk_create(_rolls(first))
    return first, second, area, names


@postgresql_only
def test_copy_stores_exactly_what_bulk_create_stored():
    first, second, area, names = _stored_by_bulk_create()
    assert bulk.insert_rows(NavalBattle, _battles(second, area, names), copy=True) == 4
    assert bulk.insert_rows(DiceRoll, _rolls(second), copy=True) == 39
    assert _stored(NavalBattle, second, "created_at") == _stored(NavalBattle, first,
                                                                   "created_at")
    assert _stored(DiceRoll, second, "created_at") == _stored(DiceRoll, first, "created_at")
    copied = NavalBattle.objects.filter(round=second).order_by("pk")
    assert [b.sequence for b in copied] == [1, 2, 3, 4]  # ids in insertion order
    assert all(b.created_at is not None for b in copied)  # auto_now_add is filled in
    assert copied[0].events[0] == AWKWARD  # the JSON round-trips


@postgresql_only
def test_copy_is_one_logged_statement(django_assert_num_queries):
    rolls = _rolls(make_league().start())
    with django_assert_num_queries(1):
        bulk.insert_rows(DiceRoll, rolls)


def _ships(lg):
    fleet = FleetFactory(campaign=lg.campaign, owner=lg.a)
    other = FleetFactory(campaign=lg.campaign, owner=lg.b)
    ships = [ShipFactory(fleet=fleet, position=i, datasheet={"captain": "x"})
             for i in range(1, 6)]
    return other, ships


def _change(other, ships):
    for i, ship in enumerate(ships):
        ship.fleet_id = other.pk if i % 2 else ship.fleet_id
        ship.position = 10 + i
        ship.crew = [{"name": f"Mate\t{i}", "cp": i}, AWKWARD]
        ship.cargo = [] if i % 2 else [{"name": "Troops \\N", "points": 500}]
        ship.datasheet = None if i == 0 else {"code": "ß", "n": i}
    return ships


def _ship_rows(ships):
    return list(Ship.objects.filter(pk__in=[s.pk for s in ships]).order_by("pk").values(
        "fleet_id", "position", "crew", "cargo", "datasheet", "name", "attack"))


FIELDS = ["fleet", "position", "crew", "cargo", "datasheet"]


@postgresql_only
def test_update_rows_stores_exactly_what_bulk_update_stored():
    lg = make_league()
    other, ships = _ships(lg)
    Ship.objects.bulk_update(_change(other, ships), FIELDS)
    expected = _ship_rows(ships)
    Ship.objects.filter(pk__in=[s.pk for s in ships]).update(position=1, crew=[], datasheet={})
    assert bulk.update_rows(Ship, _change(other, ships), FIELDS) == 5
    assert _ship_rows(ships) == expected
    assert Ship.objects.get(pk=ships[0].pk).datasheet is None  # SQL NULL, not JSON null


def test_orm_fallback_stores_the_rows(monkeypatch):
    """SQLite (and ``FAST`` off) use bulk_create/bulk_update with the same results."""
    monkeypatch.setattr(bulk, "FAST", connection.vendor == "sqlite")  # ORM path either way
    lg = make_league()
    rnd = lg.start()
    area = AreaFactory(campaign=lg.campaign)
    assert bulk.insert_rows(NavalBattle, _battles(rnd, area, ["A", "B"])) == 2
    assert bulk.insert_rows(DiceRoll, []) == 0
    assert _stored(NavalBattle, rnd, "created_at")[1]["sides"][0]["name"] == "B"
    other, ships = _ships(lg)
    bulk.update_rows(Ship, _change(other, ships), FIELDS)
    assert [r["position"] for r in _ship_rows(ships)] == [10, 11, 12, 13, 14]
    assert _ship_rows(ships)[1]["crew"][1] == AWKWARD


def _values(rows, fields):
    return [tuple(getattr(row, name) for name in fields) for row in rows]


BATTLE_FIELDS = ["round_id", "area_id", "sequence", "engine", "sides", "outcome", "events",
                 "first_counter", "dice_count"]
ROLL_FIELDS = ["round_id", "counter", "purpose", "sides", "faces", "object"]


@pytest.mark.parametrize("copy", [True, False])
def test_insert_values_stores_exactly_what_bulk_create_stored(copy):
    """Rows given as tuples (no model instance per row), by COPY and by the ORM fallback;
    the fields not named take their defaults, ``created_at`` the time of the call."""
    if copy and connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's")
    first, second, area, names = _stored_by_bulk_create()
    battles = _values(_battles(second, area, names), BATTLE_FIELDS)
    assert bulk.insert_values(NavalBattle, BATTLE_FIELDS, battles, copy=copy) == 4
    assert bulk.insert_values(DiceRoll, ROLL_FIELDS, _values(_rolls(second), ROLL_FIELDS),
                              copy=copy) == 39
    assert bulk.insert_values(DiceRoll, ROLL_FIELDS, [], copy=copy) == 0
    assert _stored(NavalBattle, second, "created_at") == _stored(NavalBattle, first,
                                                                   "created_at")
    assert _stored(DiceRoll, second, "created_at") == _stored(DiceRoll, first, "created_at")
    copied = NavalBattle.objects.filter(round=second).order_by("pk")
    assert [(b.sequence, b.attacker_id, b.attacker_vp) for b in copied] == [
        (1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0)]  # defaults
    assert all(b.created_at is not None for b in copied)


def test_delete_rows_sends_no_signal_per_row(django_assert_num_queries):
    """One DELETE, no post_delete per ship (each bumped the campaign's revision)."""
    lg = make_league()
    _, ships = _ships(lg)
    with django_assert_num_queries(1):
        assert bulk.delete_rows(Ship.objects.filter(pk__in=[s.pk for s in ships[1:]])) == 4
    assert list(Ship.objects.values_list("pk", flat=True)) == [ships[0].pk]
