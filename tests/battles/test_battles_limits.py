"""Point limits and bonus breakdown when ``lists`` opens (R-BON-1..3, R-MRK-2)."""

import pytest

from battles.models import Battle
from tests.factories import TileMarkerFactory
from tests.worlds import advance_to, declare, row, tile, transport

pytestmark = pytest.mark.django_db


def _limits(battle_of_attack):
    battle = Battle.objects.get(attack=battle_of_attack.pk)
    return battle.point_limits, battle.bonus


def test_r_bon_2_source_example_with_three_players(lg):
    """A 6, B 4, C 5 tiles -> A 1500, B 1650, C 1550 (dora has no tile on the planet)."""
    alpha = lg.planet("Alpha")
    a_tiles = row(alpha, lg.a, range(0, 6))
    row(alpha, lg.b, range(6, 10))
    row(alpha, lg.c, range(0, 4), r=3)
    tile(alpha, 4, 3, lg.c, ("spaceport",))
    tile(lg.planet("Elsewhere"), 0, 0, lg.d)
    rnd = lg.start()
    ben = declare(lg.b, rnd, a_tiles[5])  # adjacent
    carl = declare(lg.c, rnd, a_tiles[0])  # from his spaceport
    assert carl.source == "structure"
    advance_to(rnd, "lists")
    a, b, c = str(lg.a.pk), str(lg.b.pk), str(lg.c.pk)
    assert _limits(ben) == ({a: 1500, b: 1650},
                            {a: {"tiles": 0, "markers": 0}, b: {"tiles": 150, "markers": 0}})
    assert _limits(carl)[0] == {a: 1500, c: 1550}


def test_r_bon_2_source_example_with_two_players(lg):
    alpha = lg.planet()
    a_tiles = row(alpha, lg.a, range(0, 6))
    row(alpha, lg.b, range(6, 10))
    rnd = lg.start()
    ben = declare(lg.b, rnd, a_tiles[5])
    advance_to(rnd, "lists")
    assert _limits(ben)[0] == {str(lg.a.pk): 1500, str(lg.b.pk): 1600}


def test_r_bon_2_battle_scope_compares_the_participants_only(lg):
    lg.set_rules(bonus_scope="battle")
    alpha = lg.planet()
    a_tiles = row(alpha, lg.a, range(0, 6))
    row(alpha, lg.b, range(6, 10))
    row(alpha, lg.c, range(0, 5), r=3)
    rnd = lg.start()
    ben = declare(lg.b, rnd, a_tiles[5])
    advance_to(rnd, "lists")
    assert _limits(ben)[0] == {str(lg.a.pk): 1500, str(lg.b.pk): 1600}


def test_r_mrk_2_manufactorum_adds_to_its_owners_limit(lg):
    alpha = lg.planet()
    a_tiles = row(alpha, lg.a, range(0, 3))
    b_tiles = row(alpha, lg.b, range(3, 6))
    TileMarkerFactory(tile=b_tiles[2])  # ben's manufactorum: +50 (R-MRK-1 default)
    rnd = lg.start()
    anna = declare(lg.a, rnd, b_tiles[0])
    advance_to(rnd, "lists")
    limits, bonus = _limits(anna)
    assert limits == {str(lg.a.pk): 1500, str(lg.b.pk): 1550}
    assert bonus[str(lg.b.pk)] == {"tiles": 0, "markers": 50}
    assert a_tiles  # anna's three tiles equal ben's: no tile bonus either way


def test_r_bon_3_orbital_attacker_counts_its_home_planet(lg):
    home, gamma = lg.planet("Home"), lg.planet("Gamma")
    home_tiles = row(home, lg.a, range(0, 2))
    TileMarkerFactory(tile=home_tiles[0])
    g_tiles = row(gamma, lg.b, range(0, 3))
    transport(gamma, lg.a, (1500,))
    rnd = lg.start()
    anna = declare(lg.a, rnd, g_tiles[1])
    assert anna.source == "orbit"
    advance_to(rnd, "lists")
    limits, bonus = _limits(anna)
    assert limits == {str(lg.a.pk): 1600, str(lg.b.pk): 1500}
    assert bonus[str(lg.a.pk)] == {"tiles": 50, "markers": 50}


def test_r_bon_3_pending_chain_links_get_limits_later(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0, lg.d)
    tile(alpha, 1, 0, lg.a)
    tile(alpha, -1, 0, lg.b)
    rnd = lg.start()
    first, second = declare(lg.a, rnd, target), declare(lg.b, rnd, target)
    advance_to(rnd, "lists")
    assert _limits(first)[0] == {str(lg.a.pk): 1500, str(lg.d.pk): 1500}
    assert _limits(second) == ({}, {})
