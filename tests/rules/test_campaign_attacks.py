"""R-ATK-1..6: attack declarations; R-ECO-1: requisition and attack armies."""

from __future__ import annotations

import pytest

from rules.attacks import (
    OrbitInfo,
    check_attack,
    holder_needs_battle,
    needs_battle,
    orbital_cancellations,
    tile_chains,
)
from rules.board import Board, Planet, Tile
from rules.economy import affordable_armies, buy_armies, income, round_income
from rules.ruleset import Ruleset
from rules.violation import RuleViolation

A, B, C = 1, 2, 3
RULES = Ruleset()


def world() -> Board:
    """Planet 1 (a row): t1 A, t2 B, t3 -, t4 B spaceport, t5 C, t6 -, t7 - (linked to t1).
    Planet 2: t11 B macropole, t12 C, t13 - (linked to t1 across planets), t14 -.
    Planet 3: t21 C."""
    tiles = [
        Tile(1, 1, 0, 0, A), Tile(2, 1, 1, 0, B), Tile(3, 1, 2, 0),
        Tile(4, 1, 3, 0, B, frozenset({"spaceport"})), Tile(5, 1, 4, 0, C), Tile(6, 1, 5, 0),
        Tile(7, 1, 9, 9),
        Tile(11, 2, 0, 0, B, frozenset({"macropole"})), Tile(12, 2, 1, 0, C), Tile(13, 2, 2, 0),
        Tile(14, 2, 6, 6),
        Tile(21, 3, 0, 0, C),
    ]
    planets = (Planet(1, "Ikolbar"), Planet(2, "Tarsis"), Planet(3, "Vigil"))
    return Board(planets, tiles, links=[(1, 7), (1, 13)])


def legal(check, source):
    return check.legal and check.source == source and check.rule is None


def test_r_atk_1_no_more_attacks_than_armies_bought():
    board = world()
    assert legal(check_attack(board, RULES, A, 2, armies_bought=1), "adjacent")
    check = check_attack(board, RULES, A, 2, armies_bought=1, declared_tiles=[7])
    assert not check.legal and check.rule == "R-ATK-1" and "1 bought" in check.message
    assert check_attack(board, RULES, A, 2, armies_bought=0).rule == "R-ATK-1"


def test_r_atk_1_withdrawn_declarations_spend_their_army():
    board = world()
    assert check_attack(board, RULES, A, 2, 2, [7], withdrawn=1).rule == "R-ATK-1"
    assert legal(check_attack(board, RULES, A, 2, 3, [7], withdrawn=1), "adjacent")


def test_r_atk_1_not_own_tile_nor_twice():
    board = world()
    own = check_attack(board, RULES, A, 1, armies_bought=3)
    assert own.rule == "R-ATK-1" and "own" in own.message
    again = check_attack(board, RULES, A, 2, armies_bought=3, declared_tiles=[2])
    assert again.rule == "R-ATK-1" and "already" in again.message


def test_r_atk_2_adjacent_structure_and_rejection():
    board = world()
    assert legal(check_attack(board, RULES, B, 3, 1), "adjacent")
    assert legal(check_attack(board, RULES, B, 6, 1), "structure")  # spaceport t4 on planet 1
    assert legal(check_attack(board, RULES, B, 14, 1), "structure")  # macropole t11 on planet 2
    assert legal(check_attack(board, RULES, C, 6, 1), "adjacent")
    far = check_attack(board, RULES, A, 4, 1)
    assert far.rule == "R-ATK-2" and "Ikolbar" in far.message


def test_r_atk_2_links_count_on_the_same_planet_only():
    board = world()
    assert legal(check_attack(board, RULES, A, 7, 1), "adjacent")  # same-planet link
    across = check_attack(board, RULES, A, 13, 1)  # link to planet 2 does not count for (a)
    assert across.rule == "R-ATK-2"
    orbit = OrbitInfo(embarked_points=1500, has_fleet=True)
    assert legal(check_attack(board, RULES, A, 13, 1, orbit=orbit), "orbit")


def test_r_atk_2_adjacent_is_preferred_to_structure():
    board = world()
    assert legal(check_attack(board, RULES, B, 5, 1), "adjacent")  # t4 borders t5


def test_r_atk_3_orbital_attack_needs_embarked_points_per_declaration():
    board = world()
    fleet = OrbitInfo(embarked_points=3000, has_fleet=True)
    assert legal(check_attack(board, RULES, A, 21, 2, orbit=fleet), "orbit")
    second = OrbitInfo(embarked_points=3000, has_fleet=True, declarations=1)
    assert legal(check_attack(board, RULES, A, 21, 2, [12], orbit=second), "orbit")
    third = OrbitInfo(embarked_points=3000, has_fleet=True, declarations=2)
    check = check_attack(board, RULES, A, 21, 3, [12, 13], orbit=third)
    assert check.rule == "R-ATK-3" and "4500" in check.message and "3000" in check.message


def test_r_atk_3_ruleset_orbital_assault_points():
    board = world()
    rules = Ruleset.from_dict({"orbital_assault_points": 500})
    fleet = OrbitInfo(embarked_points=500, has_fleet=True)
    assert legal(check_attack(board, rules, A, 21, 1, orbit=fleet), "orbit")
    assert check_attack(board, RULES, A, 21, 1, orbit=fleet).rule == "R-ATK-3"


def test_r_atk_3_recheck_cancels_latest_first():
    assert orbital_cancellations([5, 8, 9], 3000, RULES) == (9,)
    assert orbital_cancellations([5, 8, 9], 2999, RULES) == (9, 8)
    assert orbital_cancellations([5, 8, 9], 4500, RULES) == ()
    assert orbital_cancellations([5, 8, 9], 0, RULES) == (9, 8, 5)
    assert orbital_cancellations([5], 1500, RULES, has_fleet=False) == (5,)
    free = Ruleset.from_dict({"orbital_assault_points": 0})
    assert orbital_cancellations([5, 8], 0, free, has_fleet=True) == ()


def test_r_atk_4_neutral_tile_needs_battle_only_with_ruleset_key():
    board = world()
    assert not needs_battle(board, RULES, 3)
    assert needs_battle(board, RULES, 2)
    assert needs_battle(board, Ruleset.from_dict({"neutral_needs_battle": True}), 3)
    # a later chain link's tile, by its holder then (R-ATK-5)
    assert holder_needs_battle(7, RULES) and not holder_needs_battle(None, RULES)
    assert holder_needs_battle(None, Ruleset.from_dict({"neutral_needs_battle": True}))


def test_r_atk_5_chains_in_declaration_order():
    chains = tile_chains([(9, 5), (3, 5), (4, 6), (12, 5)])
    assert chains == {5: (3, 9, 12), 6: (4,)}


def test_r_atk_6_rule_named_by_what_stops_the_declaration():
    board = world()
    short = OrbitInfo(embarked_points=1000, has_fleet=True)
    no_fleet = OrbitInfo(embarked_points=0, has_fleet=False)
    # only missing points stop it and the declarer has a fleet there: R-ATK-3
    assert check_attack(board, RULES, A, 21, 1, orbit=short).rule == "R-ATK-3"
    # no fleet in that orbit: R-ATK-2
    assert check_attack(board, RULES, A, 21, 1, orbit=no_fleet).rule == "R-ATK-2"
    assert check_attack(board, RULES, A, 21, 1).rule == "R-ATK-2"
    # count comes first: R-ATK-1 even if the tile is also out of reach
    assert check_attack(board, RULES, A, 21, 0, orbit=short).rule == "R-ATK-1"
    assert check_attack(board, RULES, A, 4, 1, [4]).rule == "R-ATK-1"
    assert check_attack(board, RULES, A, 4, 1).as_dict()["rule"] == "R-ATK-2"


def test_r_eco_1_income_at_round_close():
    assert income(RULES, 10) == 1
    rules = Ruleset.from_dict({"income_base": 2, "income_per_tile": 3})
    assert income(rules, 4) == 14
    assert round_income(world(), rules, [A, B, C, 4]) == {A: 5, B: 11, C: 11, 4: 2}


def test_r_eco_1_purchase_and_shortfall():
    assert buy_armies(RULES, 3, 2).balance_after == 1
    with pytest.raises(RuleViolation) as info:
        buy_armies(RULES, 1, 2)
    assert info.value.rule == "R-ECO-1" and "short by 1" in info.value.message
    with pytest.raises(RuleViolation):
        buy_armies(RULES, 5, 0)
    rules = Ruleset.from_dict({"attack_army_cost": 3})
    assert affordable_armies(rules, 10) == 3
    assert affordable_armies(Ruleset.from_dict({"attack_army_cost": 0}), 0) is None
    assert buy_armies(Ruleset.from_dict({"attack_army_cost": 0}), 0, 4).cost == 0
    assert Ruleset().starting_requisition == 1
