"""R-BON-1..3 army limits, R-MRK-2 marker bonus, R-MRK-3 marker protection."""

from __future__ import annotations

from itertools import count

import pytest

from rules.board import Board, Marker, MarkerType, Planet, Tile
from rules.bonus import army_limits
from rules.markers import marker_bonus, protection
from rules.ruleset import Ruleset

A, B, C, D = 1, 2, 3, 4
RULES = Ruleset()
PLANETS = (Planet(1, "Ikolbar"), Planet(2, "Tarsis"), Planet(3, "Vigil"))


def rows(layout: dict[int, list[int | None]], markers=(), types=None) -> Board:
    """One row of tiles per planet, owners left to right; tile id = planet * 100 + position."""
    tiles = [Tile(p * 100 + i, p, i, 0, owner)
             for p, owners in layout.items() for i, owner in enumerate(owners)]
    extra = {} if types is None else {"marker_types": types}
    return Board(PLANETS, tiles, markers=markers, **extra)


def totals(limits):
    return {p: lim.total for p, lim in limits.items()}


def test_r_bon_2_source_example_two_players():
    # A 6 tiles, B 4 tiles -> A 1500, B 1500 + 2 x 50 = 1600.
    board = rows({1: [A] * 6 + [B] * 4})
    assert totals(army_limits(board, RULES, tile=106, attacker=A, defender=B)) == \
        {A: 1500, B: 1600}
    assert totals(army_limits(board, RULES, tile=105, attacker=B, defender=A)) == \
        {A: 1500, B: 1600}


def test_r_bon_2_source_example_three_players():
    # A 6, B 4, C 5 -> A 1500, B 1650, C 1550, in every pairing.
    board = rows({1: [A] * 6 + [B] * 4 + [C] * 5})
    expected = {A: 1500, B: 1650, C: 1550}
    for attacker, defender, tile in [(A, B, 106), (B, C, 110), (C, A, 105), (B, A, 105)]:
        limits = army_limits(board, RULES, tile=tile, attacker=attacker, defender=defender)
        assert totals(limits) == {p: expected[p] for p in (attacker, defender)}


def test_r_bon_1_breakdown_names_its_rules():
    board = rows({1: [A] * 6 + [B] * 4}, markers=[Marker(1, "manufactorum", 107)])
    limit = army_limits(board, RULES, tile=106, attacker=A, defender=B)[B]
    assert [(i.rule, i.name, i.value) for i in limit.items] == [
        ("R-BON-1", "base", 1500), ("R-BON-2", "tiles", 100), ("R-MRK-2", "markers", 50)]
    assert limit.total == 1650 and limit.tiles == 4 and limit.planet == 1
    assert limit.compared == ((A, 6),)
    assert limit.as_dict()["total"] == 1650


def test_r_bon_1_ruleset_base_and_per_tile():
    rules = Ruleset.from_dict({"base_army_points": 2000, "bonus_per_tile": 25})
    board = rows({1: [A] * 6 + [B] * 4})
    assert totals(army_limits(board, rules, tile=106, attacker=A, defender=B)) == \
        {A: 2000, B: 2050}


def test_r_bon_2_scope_battle_counts_only_participants():
    board = rows({1: [A] * 6 + [B] * 4 + [C] * 5})
    rules = Ruleset.from_dict({"bonus_scope": "battle"})
    assert totals(army_limits(board, rules, tile=110, attacker=B, defender=C)) == \
        {B: 1550, C: 1500}


def test_r_bon_2_non_participant_counts_contested_planet_only():
    # D has 9 tiles on planet 2 but none on planet 1: it adds nothing to a planet-1 battle.
    board = rows({1: [A] * 3 + [B] * 2, 2: [D] * 9})
    assert totals(army_limits(board, RULES, tile=103, attacker=A, defender=B)) == \
        {A: 1500, B: 1550}
    # explicit player list: a player without tiles anywhere changes nothing
    limits = army_limits(board, RULES, tile=103, attacker=A, defender=B, players=[A, B, C, D])
    assert totals(limits) == {A: 1500, B: 1550}


def test_r_bon_3_orbital_attacker_counts_home_planet_tiles_and_markers():
    # A owns nothing on planet 2; its home planet is 1 (5 tiles, a manufactorum there).
    board = rows({1: [A] * 5 + [C], 2: [B, B, None], 3: [A, A]},
                 markers=[Marker(1, "manufactorum", 100), Marker(2, "manufactorum", 300),
                          Marker(3, "manufactorum", 201)])
    limits = army_limits(board, RULES, tile=200, attacker=A, defender=B)
    assert limits[A].planet == 1 and limits[A].tiles == 5
    assert limits[A].marker_bonus == 50  # planet 1's manufactorum, not planet 3's
    assert limits[A].total == 1550
    # B (2 tiles on planet 2, manufactorum on 201) vs A's 5 home tiles: +150, +50 marker
    assert limits[B].tile_bonus == 150 and limits[B].marker_bonus == 50
    assert limits[B].total == 1700


def test_r_bon_3_player_without_any_tile():
    board = rows({1: [B, B, None]})
    limits = army_limits(board, RULES, tile=100, attacker=D, defender=B)
    assert limits[D].planet is None and limits[D].tiles == 0
    assert totals(limits) == {D: 1600, B: 1500}


def test_r_bon_1_neutral_garrison_only_attacker_gets_a_limit():
    board = rows({1: [A, None, B, B]})
    limits = army_limits(board, RULES, tile=101, attacker=A, defender=None)
    assert totals(limits) == {A: 1550}  # campaign scope: B has one tile more
    battle = Ruleset.from_dict({"bonus_scope": "battle"})
    assert totals(army_limits(board, battle, tile=101, attacker=A, defender=None)) == {A: 1500}
    with pytest.raises(ValueError):
        army_limits(board, RULES, tile=101, attacker=A, defender=A)


def test_r_mrk_2_marker_bonus_only_own_markers_on_counted_planet():
    board = rows({1: [A, A, B], 2: [A]},
                 markers=[Marker(1, "manufactorum", 100), Marker(2, "manufactorum", 101),
                          Marker(3, "manufactorum", 102), Marker(4, "manufactorum", 200),
                          Marker(5, "shield_generator", 100)])
    assert marker_bonus(board, A, 1) == 100
    assert marker_bonus(board, B, 1) == 50
    assert marker_bonus(board, A, 2) == 50
    assert marker_bonus(board, A, None) == 0
    limits = army_limits(board, RULES, tile=102, attacker=A, defender=B)
    assert (limits[A].marker_bonus, limits[B].marker_bonus) == (100, 50)
    assert totals(limits) == {A: 1600, B: 1600}


def test_r_mrk_2_marker_follows_conquest():
    board = rows({1: [A, A, B]}, markers=[Marker(1, "manufactorum", 102)])
    after = board.with_owners({102: A})
    assert marker_bonus(after, A, 1) == 50 and marker_bonus(after, B, 1) == 0


def shield_board(markers, owners=None, types=None) -> Board:
    """Planet 1: a row of 5 tiles q=0..4 (ids 100..104), by default all B's; planet 2 one tile."""
    owners = owners or [B] * 5
    return rows({1: owners, 2: [B]}, markers=markers, types=types)


def test_r_mrk_3_shield_generator_protects_within_radius():
    board = shield_board([Marker(1, "shield_generator", 102)])
    assert protection(board, 102).modifier == -1  # radius 0 includes its own tile
    assert protection(board, 101).modifier == -1
    assert protection(board, 103).marker == 1
    assert protection(board, 100) is None  # two steps away
    assert protection(board, 200) is None  # other planet
    assert protection(board, 101).rule == "R-MRK-3"


def test_r_mrk_3_only_tiles_of_the_marker_owner():
    board = shield_board([Marker(1, "shield_generator", 102)], owners=[B, A, B, None, B])
    assert protection(board, 101) is None  # A's tile next to B's generator
    assert protection(board, 103) is None  # neutral tile
    assert protection(board, 102).modifier == -1
    neutral = shield_board([Marker(1, "shield_generator", 103)], owners=[B, A, B, None, B])
    assert protection(neutral, 103) is None  # [reading] a neutral marker protects nothing
    assert protection(neutral, 102) is None


def test_r_mrk_3_strongest_applies_without_stacking():
    types = (MarkerType("shield_generator", "", 0, -1, 1), MarkerType("void_shield", "", 0, -2, 2),
             MarkerType("manufactorum", "", 50, 0, 0))
    ids = count(1)
    board = shield_board([Marker(next(ids), "shield_generator", 101),
                          Marker(next(ids), "shield_generator", 102),
                          Marker(next(ids), "void_shield", 104),
                          Marker(next(ids), "manufactorum", 101)], types=types)
    assert protection(board, 101).modifier == -1  # two generators: still -1
    assert protection(board, 102).modifier == -2  # void shield two steps away is stronger
    assert protection(board, 102).code == "void_shield"
    assert protection(board, 100).modifier == -1
