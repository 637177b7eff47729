"""R-CON-1..7: conquest thresholds, modifiers, multi-conquest, chains, odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.board import Board, Marker, Planet, Tile
from rules.conquest import (
    ChainCapture,
    WonAttack,
    chain_roll,
    chain_roll_preview,
    conquest_modifiers,
    conquest_order,
    conquest_preview,
    conquest_threshold,
    resolve_conquest_phase,
    success_probability,
)
from rules.dice import DiceExhausted, RoundStream, ScriptedDice
from rules.ruleset import Ruleset
from rules.violation import RuleViolation

A, B, C = 1, 2, 3
RULES = Ruleset()
PLANETS = (Planet(1, "Ikolbar"), Planet(2, "Tarsis"))


def row(owners, features=None, markers=(), planet2=()) -> Board:
    """Planet 1: tiles 100.. at q=0.. in a row; planet 2: tiles 200.. likewise."""
    features = features or {}
    tiles = [Tile(100 + i, 1, i, 0, o, frozenset(features.get(100 + i, ())))
             for i, o in enumerate(owners)]
    tiles += [Tile(200 + i, 2, i, 0, o) for i, o in enumerate(planet2)]
    return Board(PLANETS, tiles, markers=markers)


def mods(roll_or_assessment):
    return {m.name: m.value for m in roll_or_assessment.modifiers}


def test_r_con_1_threshold_adjacent_3_otherwise_7():
    board = row([A, None, None, B])
    assert conquest_threshold(board, 101, A, "adjacent").value == 3
    far = conquest_threshold(board, 102, A, "structure")
    assert (far.value, far.rule) == (7, "R-CON-1")


def test_r_con_1_success_at_threshold_moves_tile_and_markers():
    board = row([A, B, B], markers=[Marker(1, "manufactorum", 101)])
    won = [WonAttack(1, A, 101, "adjacent")]
    ok = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([1, 2]))
    assert ok.rolls[0].total == 3 and ok.rolls[0].success
    assert ok.transfers == {101: A}
    assert ok.board.marker_owner(ok.board.markers_on(101)[0]) == A
    fail = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([1, 1]))
    assert not fail.rolls[0].success and fail.transfers == {}
    assert fail.owners()[101] == B


def test_r_con_1_territory_frozen_at_phase_start():
    # A takes 101 first; 102 is adjacent only to 101, so it still needs 7.
    board = row([A, B, B, B])
    won = [WonAttack(1, A, 101, "adjacent"), WonAttack(2, A, 102, "adjacent")]
    result = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([6, 6, 4, 4]))
    first, second = result.rolls
    assert first.success and first.threshold == 3
    assert second.threshold == 7
    assert second.total == 8 - 1 and second.success  # multi-conquest k=2: -1
    assert result.transfers == {101: A, 102: A}


def test_r_con_1_markers_and_protection_frozen_at_phase_start():
    # B's shield generator on 102 protects 101 for the whole phase, even after C takes 102.
    board = row([A, B, B, B, C], markers=[Marker(1, "shield_generator", 102)])
    won = [WonAttack(1, C, 102, "adjacent"), WonAttack(2, A, 101, "adjacent")]
    result = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([6, 6, 2, 1]))
    assert [mods(r) for r in result.rolls] == [{"shield": -1}, {"shield": -1}]
    assert [(r.threshold, r.total, r.success) for r in result.rolls] == [
        (7, 11, True), (3, 2, False)]
    assert result.board.marker_owner(result.board.markers_on(102)[0]) == C


def test_r_con_2_structure_rule():
    board = row([A, None, None, B], features={103: {"spaceport"}, 102: {"macropole"}})
    spaceport = conquest_threshold(board, 103, A, "structure")
    assert (spaceport.value, spaceport.rule) == (3, "R-CON-2")
    assert conquest_threshold(board, 102, A, "orbit").value == 3
    assert conquest_threshold(board, 103, A, "adjacent").value == 7  # source adjacent: no
    plain = conquest_threshold(row([None, None, B]), 101, A, "orbit")
    assert (plain.value, plain.rule) == (7, "R-CON-2")
    near = conquest_threshold(row([A, B]), 101, A, "orbit")
    assert near.value == 3


def test_r_con_3_modifiers_each_with_rule_and_api_name():
    board = row([A, B, B, B],
                features={101: {"defence", "mountain", "spaceport"}, 102: {"macropole"}},
                markers=[Marker(1, "shield_generator", 102)])
    got = conquest_modifiers(board, 101, "moral_victory", k=3)
    assert [(m.rule, m.name, m.value) for m in got] == [
        ("R-CON-3", "moral_victory", -2), ("R-CON-3", "defence", -1),
        ("R-CON-3", "terrain", -2), ("R-MRK-3", "shield", -1),
        ("R-CON-4", "multi_conquest", -2)]
    shield_only = conquest_modifiers(board, 103, "victory", k=1)
    assert [(m.name, m.value) for m in shield_only] == [("shield", -1)]
    assert conquest_modifiers(board, 103, "victory") == shield_only  # k None: chain roll
    assert conquest_modifiers(row([A, B]), 101, "victory", k=1) == ()
    assert [m.as_dict() for m in conquest_modifiers(board, 102, "victory")] == [
        {"rule": "R-CON-3", "name": "terrain", "value": -2},
        {"rule": "R-MRK-3", "name": "shield", "value": -1}]


def test_r_con_3_totals_add_dice_and_modifiers():
    board = row([A, B], features={101: {"defence"}})
    won = [WonAttack(4, A, 101, "adjacent", "moral_victory")]
    result = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([5, 2]))
    r = result.rolls[0]
    assert (r.dice, r.total, r.threshold, r.success) == ((5, 2), 4, 3, True)
    assert r.as_dict() == {"attack": 4, "tile": 101, "dice": [5, 2],
                           "modifiers": [{"rule": "R-CON-3", "name": "moral_victory",
                                          "value": -2},
                                         {"rule": "R-CON-3", "name": "defence", "value": -1}],
                           "total": 4, "threshold": 3, "threshold_rule": "R-CON-1", "k": 1,
                           "chance": 26 / 36, "success": True}  # 2d6 - 3 >= 3: 26 of 36


def test_r_con_4_source_example_three_attacks_minus_2_two_chosen_minus_1():
    board = row([A, B, B, None, C, C], planet2=[A, B])
    won = [WonAttack(1, A, 101, "adjacent"), WonAttack(2, A, 103, "structure"),
           WonAttack(3, A, 105, "structure"), WonAttack(4, A, 201, "adjacent")]
    all_three = resolve_conquest_phase(board, RULES, won, {A: [1, 2, 3, 4]},
                                       ScriptedDice([3] * 8))
    assert [mods(r).get("multi_conquest") for r in all_three.rolls] == [-2, -2, -2, None]
    two = resolve_conquest_phase(board, RULES, won, {A: [1, 3, 4]}, ScriptedDice([3] * 6))
    assert [(r.attack, mods(r).get("multi_conquest")) for r in two.rolls] == [
        (1, -1), (3, -1), (4, None)]
    assert two.waived == (2,)
    assert [r.k for r in two.rolls] == [2, 2, 1]


def test_r_con_4_choice_must_be_own_won_attacks():
    board = row([A, B, C])
    won = [WonAttack(1, A, 101, "adjacent"), WonAttack(2, C, 101, "adjacent")]
    with pytest.raises(ValueError):  # two conquest-phase rolls on one tile
        resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([]))
    won = [WonAttack(1, A, 101, "adjacent")]
    with pytest.raises(RuleViolation) as info:
        resolve_conquest_phase(board, RULES, won, {A: [7]}, ScriptedDice([]))
    assert info.value.rule == "R-CON-4"
    with pytest.raises(RuleViolation):
        resolve_conquest_phase(board, RULES, won, {B: [1]}, ScriptedDice([]))


def test_r_con_5_waiving_leaves_the_tile_with_its_holder():
    board = row([A, B])
    won = [WonAttack(1, A, 101, "adjacent")]
    result = resolve_conquest_phase(board, RULES, won, {A: []}, ScriptedDice([]))
    assert result.rolls == () and result.waived == (1,) and result.owners()[101] == B


def test_r_rnd_3_conquest_default_when_no_choice():
    board = row([A, B, C])
    won = [WonAttack(1, A, 101, "adjacent"), WonAttack(2, C, 100, "structure")]
    rolled = resolve_conquest_phase(board, RULES, won, {A: None}, ScriptedDice([6, 6, 6, 6]))
    assert [r.attack for r in rolled.rolls] == [1, 2]
    waive = Ruleset.from_dict({"conquest_default": "waive_all"})
    result = resolve_conquest_phase(board, waive, won, {A: [1]}, ScriptedDice([6, 6]))
    assert [r.attack for r in result.rolls] == [1] and result.waived == (2,)


def test_r_con_6_order_last_links_first_then_by_declaration_id():
    won = [WonAttack(5, A, 101, "adjacent"), WonAttack(3, B, 102, "adjacent"),
           WonAttack(9, C, 103, "adjacent", last_link=True),
           WonAttack(7, A, 104, "adjacent", last_link=True)]
    assert [a.id for a in conquest_order(won)] == [7, 9, 3, 5]
    board = row([A, B, A, B, C, B, A])
    stream = RoundStream(bytes(range(32)), 1, 1)
    result = resolve_conquest_phase(board, RULES, won, {}, stream)
    assert [d.purpose for d in stream.log] == [
        "conquest:attack=7", "conquest:attack=9", "conquest:attack=3", "conquest:attack=5"]
    assert [d.counter for d in stream.log] == [0, 1, 2, 3]
    assert [tuple(d.faces) for d in stream.log] == [r.dice for r in result.rolls]


def test_r_con_6_immediate_chain_roll_has_no_multi_conquest_and_uses_current_board():
    board = row([A, B, B], features={102: {"defence"}})
    link = WonAttack(1, A, 102, "adjacent", "moral_victory")
    # A took 101 earlier in the battles phase: 102 is now adjacent to A's territory.
    now = board.with_owners({101: A})
    result = chain_roll(now, link, ScriptedDice([2, 4]), purpose="conquest:battle=8")
    assert result.roll.threshold == 3 and result.roll.k is None
    assert mods(result.roll) == {"moral_victory": -2, "defence": -1}
    assert result.roll.total == 3 and result.roll.success
    assert result.board.tile(102).owner == A
    assert result.capture == ChainCapture(102, A, 1)
    missed = chain_roll(board, link, ScriptedDice([2, 4]))
    assert missed.roll.threshold == 7 and not missed.roll.success and missed.capture is None
    assert missed.board is board
    with pytest.raises(ValueError):
        chain_roll(board, WonAttack(2, A, 102, "adjacent", last_link=True), ScriptedDice([]))


def test_r_con_6_kept_chain_capture_counts_toward_k():
    # A took 102 in a chain (board at phase start shows it); the last link (C) lost.
    board = row([A, B, A, B, C])
    capture = ChainCapture(102, A, 4)
    won = [WonAttack(6, A, 103, "adjacent")]
    result = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([2, 2]),
                                    captures=[capture])
    assert mods(result.rolls[0]) == {"multi_conquest": -1} and result.rolls[0].k == 2


def test_r_con_6_capture_lost_to_the_last_link_does_not_count():
    board = row([A, B, A, B, C])
    capture = ChainCapture(102, A, 4)
    won = [WonAttack(6, A, 101, "adjacent"), WonAttack(5, C, 102, "structure", last_link=True)]
    # C's last-link roll comes first and takes 102 back from A: A's roll then has k=1.
    taken = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([6, 6, 1, 2]),
                                   captures=[capture])
    assert [r.attack for r in taken.rolls] == [5, 6]
    assert taken.rolls[0].success and taken.rolls[1].k == 1 and mods(taken.rolls[1]) == {}
    # C fails: A kept 102, so its roll on 101 gets -1.
    kept = resolve_conquest_phase(board, RULES, won, {}, ScriptedDice([1, 1, 2, 2]),
                                  captures=[capture])
    assert not kept.rolls[0].success and kept.rolls[1].k == 2
    assert kept.rolls[1].total == 3 and kept.rolls[1].success
    assert kept.transfers == {101: A}


def test_r_con_6_chain_capture_on_another_planet_does_not_count():
    board = row([A, B], planet2=[A, A])
    result = resolve_conquest_phase(board, RULES, [WonAttack(1, A, 101, "adjacent")], {},
                                    ScriptedDice([1, 2]), captures=[ChainCapture(201, A)])
    assert result.rolls[0].k == 1


def test_r_con_7_chain_roll_preview_is_the_roll_chain_roll_makes():
    # R-CON-6/7: the odds shown before a chain decision are those of the roll then made.
    board = row([A, B, B], features={101: {"defence"}}, markers=[Marker(1, "shield_generator",
                                                                      102)])
    link = WonAttack(1, A, 101, "adjacent", "moral_victory")
    odds = chain_roll_preview(board, link)
    assert (odds.threshold.value, odds.threshold.rule, odds.k) == (3, "R-CON-1", None)
    assert mods(odds) == {"moral_victory": -2, "defence": -1, "shield": -1}
    assert odds.chance == success_probability(3, -4) == Fraction(21, 36)
    made = chain_roll(board, link, ScriptedDice([3, 4])).roll
    assert (made.threshold, made.modifiers, made.k) == (3, odds.modifiers, None)
    assert made.chance == odds.chance and made.total == 3 and made.success
    with pytest.raises(ValueError):
        chain_roll_preview(board, WonAttack(2, A, 101, "adjacent", last_link=True))


def test_r_con_7_exact_success_probability():
    assert success_probability(3, 0) == Fraction(35, 36)
    assert success_probability(7, 0) == Fraction(21, 36)
    assert success_probability(7, -2) == Fraction(10, 36)
    assert success_probability(3, -10) == 0
    assert success_probability(3, 1) == 1
    assert success_probability(7, -5) == Fraction(1, 36)


def test_r_con_7_preview_for_a_choice():
    board = row([A, B, B, None], features={101: {"mountain"}})
    won = [WonAttack(1, A, 101, "adjacent"), WonAttack(2, A, 103, "structure")]
    both = conquest_preview(board, won, None)
    assert [(p.threshold.value, mods(p), p.chance) for p in both] == [
        (3, {"terrain": -2, "multi_conquest": -1}, Fraction(26, 36)),
        (7, {"multi_conquest": -1}, Fraction(15, 36))]
    one = conquest_preview(board, won, [1])
    assert one[0].chance == success_probability(3, -2) and one[0].k == 1
    assert one[1].k == 2  # not chosen: assessed as if added to the choice
    assert both[0].as_dict()["chance"] == pytest.approx(26 / 36)


def test_r_con_1_rolls_draw_two_faces_from_given_dice():
    board = row([A, B])
    with pytest.raises(DiceExhausted):
        resolve_conquest_phase(board, RULES, [WonAttack(1, A, 101, "adjacent")], {},
                               ScriptedDice([4]))
