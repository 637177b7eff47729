"""Boarding duel (R-BRD-1..5) and boarding victory points (R-VP-1) with scripted d8 faces.

Red d8: 1-3 hit, 4 crit, 5-6 focus, 7-8 blank. Green d8: 1-3 evade, 4-5 focus, 6-8 blank.
"""

import pytest

from rules.boarding import (
    Character,
    boarding_vp,
    captured_ship_vp,
    duel,
    is_single_seat,
)
from rules.dice import ScriptedDice

QUIET = [8, 8]  # one exchange of two one-die characters: both roll a blank, no defence roll


def run(faces, boarders, defenders):
    dice = ScriptedDice(faces)
    result = duel(dice, boarders, defenders)
    assert dice.remaining == 0, "the script has faces the duel did not read"
    return result, dice


def attacks(result):
    return [e for e in result.events if e["step"] == "duel_attack"]


@pytest.mark.parametrize(("cp", "dice"), [(0, 0), (5, 0), (6, 1), (11, 1), (12, 2), (35, 5)])
def test_r_brd_1_dice_are_floor_of_cp_over_6(cp, dice):
    assert Character("x", cp).dice == dice


def test_r_brd_1_attack_and_defence_roll_floor_cp_over_6_dice():
    # 12 cp: two red dice; the 6 cp defender: one green die, and one red die back
    result, dice = run([1, 4, 2, 8, 1, 1, 8], [Character("B", 12)], [Character("D", 6)])
    assert [len(r.faces) for r in dice.log] == [2, 1, 1, 2, 1]
    assert [r.sides for r in dice.log] == [8] * len(dice.log)
    assert result.captured


def test_r_brd_1_bottom_character_fights_first():
    result, _ = run([1, 1, 8, 1, 1, 8],
                    [Character("B", 12)], [Character("first", 6), Character("second", 6)])
    assert [c.name for c in result.defenders_lost] == ["first", "second"]
    assert attacks(result)[0]["defender"] == "first"


def test_r_brd_1_negative_cp_rejected():
    with pytest.raises(ValueError):
        Character("x", -1)


def test_r_brd_2_crit_is_a_hit_focus_and_blank_count_nothing():
    faces = [4, 4, 5,  # crit vs focus: hit; focus attack: nothing
             3, 3, 7,  # hit vs evade: fails; blank
             1, 6]  # hit vs blank: second body hit
    result, _ = run(faces, [Character("B", 6)], [Character("D", 6)])
    assert [a["body_hit"] for a in attacks(result)] == [True, False, False, False, True]
    assert [(a["hits"], a["evades"]) for a in attacks(result)] == [
        (1, 0), (0, 0), (1, 1), (0, 0), (1, 0)]
    assert result.captured


def test_r_brd_3_order_body_hits_and_overwhelming():
    boarder = Character("B", 12)
    d1, d2 = Character("D1", 6), Character("D2", 18)
    faces = [
        1, 7, 8, 7,  # x1: B first (more cp): 1 hit vs 0 evades, body hit on D1; D1 blanks
        1, 7, 1, 1, 8, 8,  # x2: B 1 hit vs 1 evade fails; D1 hits, B blanks: body hit on B
        2, 3, 2,  # x3: B 2 hits vs 1 evade: a second body hit, D1 overwhelmed and does not
        # strike back
        1, 1, 1, 1, 2,  # x4: D2 (18 cp) strikes first: 3 hits vs 2 evades: B's second body
        # hit, overwhelmed
    ]
    result, dice = run(faces, [boarder], [d1, d2])
    assert not result.captured and not result.stalemate
    assert result.exchanges == 4
    assert result.boarders_lost == (boarder,)
    assert result.defenders_lost == (d1,)
    assert result.defenders_left == (d2,) and result.boarders_left == ()
    assert dice.log[0].purpose == "brd:exchange:1:boarders:red"
    assert dice.log[-2].purpose == "brd:exchange:4:defenders:red"
    assert [a["side"] for a in attacks(result)] == [
        "boarders", "defenders", "boarders", "defenders", "boarders", "defenders"]
    overwhelmed = [e for e in result.events if e["step"] == "overwhelmed"]
    assert [(e["character"]["name"], e["by"]) for e in overwhelmed] == [
        ("D1", "boarders"), ("B", "defenders")]


def test_r_brd_3_cp_tie_boarders_strike_first():
    result, dice = run([8, 8] + [1, 8, 8, 1, 8], [Character("B", 6)], [Character("D", 6)])
    assert dice.log[0].purpose.endswith(":boarders:red")
    assert attacks(result)[0]["side"] == "boarders"


def test_r_brd_3_defender_with_more_cp_strikes_first():
    result, dice = run([1, 8, 8, 1, 8], [Character("B", 6)], [Character("D", 7)])
    assert attacks(result)[0]["side"] == "defenders"
    assert not result.captured and result.boarders_lost == (Character("B", 6),)


def test_r_brd_4_boarded_side_out_of_characters_is_captured():
    result, _ = run([1, 1, 8], [Character("B", 12)], [Character("D", 6)])
    assert result.captured and result.defenders_left == ()
    assert result.boarders_left == (Character("B", 12),)


def test_r_brd_4_twenty_exchanges_without_body_hit_repel():
    result, _ = run(QUIET * 20, [Character("B", 6)], [Character("D", 6)])
    assert result.stalemate and not result.captured
    assert result.exchanges == 20
    assert result.boarders_lost == () == result.defenders_lost
    assert result.events[-1] == {"rule": "R-BRD-4", "step": "duel_end", "captured": False,
                                 "stalemate": True, "exchanges": 20}


def test_r_brd_4_stalemate_count_restarts_after_a_body_hit():
    faces = QUIET * 19 + [1, 8, 8] + QUIET * 20  # a body hit in exchange 20
    result, _ = run(faces, [Character("B", 6)], [Character("D", 6)])
    assert result.stalemate and result.exchanges == 40


def test_r_brd_4_characters_without_dice_reach_the_cap_without_rolling():
    result, dice = run([], [Character("B", 5)], [Character("D", 5)])
    assert result.stalemate and result.exchanges == 20 and dice.log == []


def test_r_brd_5_ship_without_crew_is_captured_without_duel():
    result, dice = run([], [Character("B", 12)], [])
    assert result.captured and result.exchanges == 0 and dice.log == []
    assert result.events == [{"rule": "R-BRD-5", "step": "duel_end", "captured": True,
                              "stalemate": False, "reason": "no_crew"}]


def test_r_brd_no_events_when_not_recording():
    dice = ScriptedDice([1, 1, 8])
    result = duel(dice, [Character("B", 12)], [Character("D", 6)], record_events=False)
    assert result.captured and result.events == []


# --- R-VP-1 ------------------------------------------------------------------------------------


def test_r_vp_1_single_seat_one_card_scores_its_cp():
    assert captured_ship_vp([Character("pilot", 27)]) == 27
    assert captured_ship_vp([Character("pilot", 27)], seats=1) == 27


@pytest.mark.parametrize(("pilot", "combat", "vp"), [
    (30, 20, 30),  # combat card has fewer: the pilot's cp
    (20, 30, 30),  # combat card has more: the combat card's
    (25, 25, 25),  # equal: the combat card's
])
def test_r_vp_1_single_seat_pilot_and_combat_card(pilot, combat, vp):
    crew = [Character("pilot", pilot), Character("combat", combat)]
    assert captured_ship_vp(crew, seats=1) == vp


def test_r_vp_1_multi_seat_sums_all_cards():
    crew = [Character("a", 20), Character("b", 12), Character("c", 7)]
    assert captured_ship_vp(crew, seats=4) == 39
    assert captured_ship_vp(crew) == 39  # default: more than one character = multi-seat


def test_r_vp_1_seats_default_from_crew_size():
    assert is_single_seat([Character("a", 1)], None)
    assert not is_single_seat([Character("a", 1), Character("b", 1)], None)
    assert not is_single_seat([Character("a", 1)], 3)


def test_r_vp_1_empty_crew_scores_nothing():
    assert captured_ship_vp([]) == 0


def test_r_vp_1_capture_scores_the_ship_once_for_the_boarders():
    d1, d2 = Character("pilot", 6), Character("gunner", 6)
    faces = [1, 1, 8] * 2  # each overwhelmed by one attack (2 hits vs 0 evades)
    result, _ = run(faces, [Character("B", 12)], [d1, d2])
    assert result.captured
    assert boarding_vp(result, seats=None) == (12, 0)  # multi-seat: the sum
    assert boarding_vp(result, seats=1) == (6, 0)  # single-seat with two cards: one card


def test_r_vp_1_repelled_boarding_scores_the_overwhelmed_boarders_for_the_repellers():
    weak, strong, guard = Character("weak", 6), Character("strong", 7), Character("guard", 12)
    faces = [1, 1, 8,  # guard (more cp) strikes first: 2 hits vs 0 evades, weak overwhelmed
             1, 1, 8]  # and strong
    result, _ = run(faces, [weak, strong], [guard])
    assert not result.captured and result.boarders_lost == (weak, strong)
    assert boarding_vp(result) == (0, 13)


def test_r_vp_1_defenders_overwhelmed_before_a_repulse_score_for_the_boarders():
    # [reading] R-BRD-3: the winner of each single combat takes the card
    boarder = Character("B", 12)
    d1, d2 = Character("D1", 6), Character("D2", 18)
    faces = [1, 7, 8, 7, 1, 7, 1, 1, 8, 8, 2, 3, 2, 1, 1, 1, 1, 2]
    result, _ = run(faces, [boarder], [d1, d2])
    assert boarding_vp(result) == (6, 12)


# --- R-BRD-1 single-seat ships, R-BRD-3 body hits = hits - evades -------------------


def test_r_brd_3_body_hits_are_hits_minus_evades():
    # 12 cp: two red dice, 2 hits against no evade: two body hits, overwhelmed at once
    result, dice = run([1, 1, 8], [Character("B", 12)], [Character("D", 6)])
    assert result.captured and result.exchanges == 1
    (attack,) = attacks(result)
    assert (attack["hits"], attack["evades"], attack["dealt"], attack["body_hits"]) == (
        2, 0, 2, 2)
    assert len(dice.log) == 2  # the overwhelmed defender does not strike back


def test_r_brd_3_two_hits_against_one_evade_deal_one_body_hit():
    result, _ = run([1, 4, 2,  # x1: 2 hits vs 1 evade: one body hit on D
                     8,  # D strikes back: blank
                     1, 1, 8],  # x2: 2 hits vs no evade: overwhelmed
                    [Character("B", 12)], [Character("D", 6)])
    assert [(a["defender"], a["dealt"], a["body_hits"]) for a in attacks(result)] == [
        ("D", 1, 1), ("B", 0, 0), ("D", 2, 2)]
    assert result.captured and result.exchanges == 2


def test_r_brd_3_body_hits_beyond_two_are_lost():
    d1, d2 = Character("D1", 6), Character("D2", 6)
    faces = [1, 1, 1, 8,  # x1: B (18 cp, three red dice) 3 hits vs 0 evades: D1 overwhelmed
             1, 8, 8, 8,  # x2: 1 hit on D2: its first body hit (the third on D1 is lost)
             8,  # D2 blanks
             1, 8, 8, 8]  # x3: D2's second body hit: overwhelmed, the ship is captured
    result, _ = run(faces, [Character("B", 18)], [d1, d2])
    assert [(a["defender"], a["dealt"], a["body_hits"]) for a in attacks(result)] == [
        ("D1", 3, 2), ("D2", 1, 1), ("B", 0, 0), ("D2", 1, 2)]
    assert result.captured and result.defenders_lost == (d1, d2)


def test_r_brd_1_single_seat_only_the_combat_card_fights():
    # bottom first: the combat card, then the pilot card; seats 1: the pilot never fights
    combat, pilot = Character("combat", 6), Character("pilot", 30)
    dice = ScriptedDice([1, 1, 8])
    result = duel(dice, [Character("B", 12)], [combat, pilot], defenders_seats=1)
    assert dice.remaining == 0
    assert result.captured and result.exchanges == 1
    assert result.defenders_left == () and result.defenders_lost == (combat, pilot)
    start = result.events[0]
    assert start["defenders"] == [{"name": "combat", "cp": 6}]
    assert start["defenders_aside"] == [{"name": "pilot", "cp": 30}]
    assert boarding_vp(result, seats=1) == (30, 0)  # R-VP-1: the pilot card's cp, once


def test_r_brd_1_single_seat_boarders_repelled_when_the_combat_card_falls():
    combat, pilot = Character("combat", 6), Character("pilot", 30)
    dice = ScriptedDice([1, 1, 8])
    result = duel(dice, [combat, pilot], [Character("D", 12)], boarders_seats=1)
    assert dice.remaining == 0 and not result.captured and not result.stalemate
    assert result.boarders_lost == (combat,) and result.boarders_left == (pilot,)
    assert boarding_vp(result, seats=None) == (0, 6)


def test_r_brd_1_multi_seat_and_default_seats_every_card_fights():
    first, second = Character("first", 6), Character("second", 6)
    for seats in (None, 2):
        dice = ScriptedDice([1, 1, 8, 1, 1, 8])  # each card overwhelmed in one attack
        result = duel(dice, [Character("B", 12)], [first, second], defenders_seats=seats)
        assert dice.remaining == 0 and result.captured
        assert [a["defender"] for a in attacks(result)] == ["first", "second"]
        assert result.defenders_lost == (first, second) and result.defenders_left == ()
        assert "defenders_aside" not in result.events[0]
