"""R-NAV-1, R-NAV-4..11 and R-SEA-2 with scripted dice.

Draw order per round: maneuver (two faces, only when the stances differ); at far one fire
draw (per pairing attacker then defender, the diagonal ship last); at near one agility draw
(per pairing attacker then defender), one fire draw for the pairings that fire, then the
boarding duels in pairing order. Ships default to attack 3, defence 9, agility 3, no crew.
"""

import pytest

from rules.boarding import Character
from rules.dice import ScriptedDice
from rules.naval import hazard_exchange, resolve_naval_battle
from tests.rules.test_naval_helpers import fight, ship, side, steps

NEAR = ("approach", "approach")  # both approach: near in round 1 without a maneuver roll
# a 12 cp boarder (two red dice) overwhelms a one-die defender in one attack: 2 hits against
# no evade are two body hits (R-BRD-3)
TAKE_ONE = [1, 1, 8]


def shots(outcome, rnd=None):
    return [(e["shooter"], e["target"], e["dice"][0], e["hits"])
            for e in steps(outcome, "gunfire") if rnd is None or e["round"] == rnd]


# --- R-NAV-1 / R-NAV-2 -------------------------------------------------------------------------


def test_r_nav_1_lines_pair_from_the_flagships_at_far():
    out, dice = fight([6, 6, 6, 6], [ship(1), ship(2)], [ship(11), ship(12)], max_rounds=1)
    (setup,) = steps(out, "setup")
    assert setup["lines"] == {"attacker": [1, 2], "defender": [11, 12]}
    assert setup["distance"] == "far" and setup["round"] == 0
    assert shots(out) == [(1, 11, 6, 0), (11, 1, 6, 0), (2, 12, 6, 0), (12, 2, 6, 0)]
    assert [e["pairing"] for e in steps(out, "gunfire")] == [1, 1, 2, 2]
    assert [r.purpose for r in dice.log] == ["naval:r1:fire"]


def test_r_nav_2_round_steps_in_order():
    out, _ = fight([1, 6, 6, 6], [ship(1)], [ship(11)], ("approach", "hold"), max_rounds=1)
    assert [e["step"] for e in out.events] == [
        "setup", "maneuver", "near_choice", "reorganise", "end", "victory_points"]


# --- R-NAV-4 -----------------------------------------------------------------------------------


def test_r_nav_4_far_every_pairing_fires_without_agility_rolls():
    out, _ = fight([6] * 6, [ship(i) for i in (1, 2, 3)], [ship(i) for i in (11, 12, 13)],
                   max_rounds=1)
    assert len(shots(out)) == 6 and not steps(out, "near_choice")


def test_r_nav_4_near_no_success_no_exchange():
    out, dice = fight([3, 6], [ship(1)], [ship(11)], NEAR, max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["success"] == [False, False] and choice["choice"] is None
    assert not shots(out) and len(dice.log) == 1


def test_r_nav_4_near_one_success_chooses_gunfire_and_both_fire():
    out, _ = fight([2, 6, 3, 2], [ship(1)], [ship(11)], NEAR, max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["chooser"] == "attacker" and choice["choice"] == "gunfire"
    assert shots(out) == [(1, 11, 3, 3), (11, 1, 2, 2)]


def test_r_nav_4_near_chooser_boards_with_more_command_points():
    out, _ = fight([6, 2] + TAKE_ONE, [ship(1, crew=[Character("D", 6)])],
                   [ship(11, crew=[Character("B", 12)])], NEAR, max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["chooser"] == "defender" and choice["choice"] == "boarding"
    assert out.ship(1).state == "captured" and out.ship(1).captured_by == "defender"
    assert out.winner == "defender"


def test_r_nav_4_near_both_succeed_higher_roll_chooses():
    # the defender rolls higher and has fewer cp: gunfire, though the attacker would board
    out, _ = fight([1, 2, 6, 6], [ship(1, crew=[Character("B", 12)])],
                   [ship(11, crew=[Character("D", 6)])], NEAR, max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["chooser"] == "defender" and choice["choice"] == "gunfire"


def test_r_nav_4_near_both_succeed_equal_rolls_gunfire():
    out, _ = fight([2, 2, 6, 6], [ship(1, crew=[Character("B", 12)])], [ship(11)], NEAR,
                   max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["chooser"] is None and choice["choice"] == "gunfire"
    assert len(shots(out)) == 2


def test_r_nav_4_equal_command_points_means_gunfire():
    out, _ = fight([1, 6, 6, 6], [ship(1, crew=[Character("B", 12)])],
                   [ship(11, crew=[Character("D", 12)])], NEAR, max_rounds=1)
    assert steps(out, "near_choice")[0]["choice"] == "gunfire"


def test_r_nav_4_damage_in_a_pairing_is_simultaneous():
    # both ships sink each other: the sinking one still fires
    out, _ = fight([2, 2], [ship(1, defence=2)], [ship(11, defence=2)])
    assert [r.state for r in out.ships] == ["sunk", "sunk"]
    assert out.winner is None and out.end == "destroyed"


# --- R-NAV-5 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("attackers", "defenders", "diagonal", "target"), [
    ([1, 2], [11], 2, 11), ([1], [11, 12], 12, 1)])
def test_r_nav_5_diagonal_ship_fires_at_far(attackers, defenders, diagonal, target):
    out, _ = fight([6, 6, 2], [ship(i) for i in attackers], [ship(i) for i in defenders],
                   max_rounds=1)
    assert shots(out)[-1] == (diagonal, target, 2, 2)
    assert steps(out, "gunfire")[-1]["diagonal"] is True
    assert out.ship(target).hits == 2
    (event,) = steps(out, "diagonal")
    assert (event["ship"], event["target"]) == (diagonal, target)


def test_r_nav_5_diagonal_fires_at_the_last_ship_of_the_shorter_line():
    out, _ = fight([6, 6, 6, 6, 2], [ship(1), ship(2), ship(3)], [ship(11), ship(12)],
                   max_rounds=1)
    assert shots(out)[-1] == (3, 12, 2, 2)


def test_r_nav_5_further_unpaired_ships_do_nothing():
    out, _ = fight([6, 6, 6], [ship(1), ship(2), ship(3), ship(4)], [ship(11)], max_rounds=1)
    assert [s[0] for s in shots(out)] == [1, 11, 2]


def test_r_nav_5_faced_ship_agility_drops_by_one():
    # ship 11 rolls 2 against agility 3 - 1: no success
    out, _ = fight([6, 2], [ship(1), ship(2)], [ship(11)], NEAR, max_rounds=1)
    (choice,) = steps(out, "near_choice")
    assert choice["agility"] == [3, 2] and choice["success"] == [False, False]
    assert not shots(out)


@pytest.mark.parametrize(("agility", "faced"), [(0, 0), (1, 1), (2, 1), (3, 2), (7, 6)])
def test_r_nav_5_diagonal_never_below_1(agility, faced):
    """The drop never takes an agility below 1, and never raises one already below 1."""
    out, _ = fight([6, 6], [ship(1, agility=agility)], [ship(11), ship(12)], NEAR,
                   max_rounds=1)
    assert steps(out, "near_choice")[0]["agility"] == [faced, 3]


def test_r_nav_5_diagonal_never_raises_agility_0():
    # with the interception advantage (R-NAV-9) a roll of 1 counts as 0: it would succeed
    # against agility 1, but agility 0 stays 0 when faced by the diagonal ship (0 < 0 fails)
    out, _ = fight([1, 6], [ship(1, agility=0)], [ship(11), ship(12)], NEAR, max_rounds=1,
                   advantage="attacker")
    (choice,) = steps(out, "near_choice")
    assert choice["agility"] == [0, 3] and choice["success"] == [False, False]
    assert choice["choice"] is None and not shots(out)


def test_r_nav_5_diagonal_fires_when_the_pairing_resolves_to_gunfire():
    out, _ = fight([1, 6, 6, 6, 2], [ship(1), ship(2)], [ship(11)], NEAR, max_rounds=1)
    assert shots(out) == [(1, 11, 6, 0), (11, 1, 6, 0), (2, 11, 2, 2)]


def test_r_nav_5_diagonal_holds_fire_when_the_pairing_boards():
    out, _ = fight([1, 6] + TAKE_ONE, [ship(1, crew=[Character("B", 12)]), ship(2)],
                   [ship(11, crew=[Character("D", 6)])], NEAR)
    assert not shots(out) and out.ship(11).state == "captured"


def test_r_nav_5_diagonal_only_with_the_last_pairing():
    # pairing 1 fires, the last pairing (2) has no exchange: the diagonal ship stays silent
    out, _ = fight([1, 6, 6, 6, 6, 6], [ship(1), ship(2), ship(3)], [ship(11), ship(12)],
                   NEAR, max_rounds=1)
    assert [s[0] for s in shots(out)] == [1, 11]


# --- R-NAV-6 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "hits"), [(1, 1), (2, 2), (3, 0), (6, 0)])
def test_r_nav_6_far_attack_minus_one(roll, hits):
    out, _ = fight([roll, 6], [ship(1, attack=3)], [ship(11)], max_rounds=1)
    assert out.ship(11).hits == hits
    assert steps(out, "gunfire")[0]["attack"] == 2


@pytest.mark.parametrize(("roll", "hits"), [(3, 3), (4, 0)])
def test_r_nav_6_near_full_attack_hits_equal_the_roll(roll, hits):
    out, _ = fight([1, 6, roll, 6], [ship(1, attack=3)], [ship(11)], NEAR, max_rounds=1)
    assert out.ship(11).hits == hits


# --- R-NAV-7 -----------------------------------------------------------------------------------


def test_r_nav_7_ship_sinks_when_hits_reach_defence():
    out, _ = fight([2, 6], [ship(1)], [ship(11, defence=2, cargo=[])])
    assert out.ship(11).state == "sunk" and out.ship(11).holder is None
    assert out.winner == "attacker" and out.rounds == 1 and out.end == "destroyed"


def test_r_nav_7_hits_accumulate_over_rounds():
    out, _ = fight([2, 6, 2, 6], [ship(1)], [ship(11, defence=4)])
    assert out.rounds == 2 and out.ship(11).state == "sunk" and out.ship(11).hits == 4


def test_r_nav_7_one_hit_on_a_detachment_saves_the_ship():
    out, _ = fight([1, 6, 3, 6], [ship(1)], [ship(11, defence=3, cargo=[500, 300])], NEAR,
                   max_rounds=1)
    result = out.ship(11)
    assert result.state == "afloat" and result.hits == 2
    assert result.cargo == (500,) and result.cargo_destroyed == (300,)
    (damage,) = steps(out, "damage")
    assert damage["diverted"] == [{"detachment": 300}] and not damage["sunk"]


def test_r_nav_7_no_allocation_when_it_cannot_save_the_ship():
    out, _ = fight([1, 6, 3, 6], [ship(1)], [ship(11, defence=2, cargo=[500])], NEAR)
    result = out.ship(11)
    assert result.state == "sunk" and result.cargo_destroyed == ()
    assert result.cargo == ()  # it sank with all aboard


def test_r_nav_7_no_allocation_when_the_ship_survives_anyway():
    out, _ = fight([1, 6, 3, 6], [ship(1)], [ship(11, defence=5, cargo=[500])], NEAR,
                   max_rounds=1)
    assert out.ship(11).cargo == (500,) and out.ship(11).hits == 3


def test_r_nav_7_character_takes_the_hit_when_no_detachment_is_aboard():
    crew = [Character("captain", 20), Character("mate", 6), Character("cook", 6)]
    out, _ = fight([1, 6, 3, 6], [ship(1)], [ship(11, defence=3, crew=crew)], NEAR,
                   max_rounds=1)
    result = out.ship(11)
    assert result.crew_destroyed == (Character("cook", 6),)
    assert result.crew == (Character("captain", 20), Character("mate", 6))


def test_r_nav_7_one_hit_per_volley_two_volleys_save_with_two_items():
    # ship 11 (defence 3) takes 2 from ship 1 and 2 from the diagonal ship 2: one hit of each
    # volley goes on a detachment
    out, _ = fight([2, 6, 2], [ship(1), ship(2)], [ship(11, defence=3, cargo=[100, 200])],
                   max_rounds=1)
    result = out.ship(11)
    assert result.state == "afloat" and result.hits == 2
    assert sorted(result.cargo_destroyed) == [100, 200] and result.cargo == ()


def test_r_nav_7_single_volley_diverts_at_most_one_hit():
    out, _ = fight([1, 6, 3, 6], [ship(1)], [ship(11, defence=2, cargo=[100, 200])], NEAR)
    assert out.ship(11).state == "sunk"


# --- R-NAV-8 -----------------------------------------------------------------------------------


def test_r_nav_8_capture_joins_the_capturer_with_its_cargo():
    faces = [1, 6] + TAKE_ONE
    out, _ = fight(faces, [ship(1, crew=[Character("B", 12)])],
                   [ship(11, crew=[Character("D", 6)], cargo=[500])], NEAR)
    result = out.ship(11)
    assert (result.state, result.captured_by, result.holder) == ("captured", "attacker",
                                                                 "attacker")
    assert result.cargo == (500,) and result.crew == ()
    assert result.crew_overwhelmed == (Character("D", 6),)
    (capture,) = out.captures
    assert (capture.ship_id, capture.owner, capture.holder, capture.round, capture.vp) == (
        11, "defender", "attacker", 1, 6)
    assert out.vp == {"attacker": 6, "defender": 0}
    assert out.winner == "attacker"
    duel = [e for e in out.events if e["rule"].startswith("R-BRD")]
    assert [e["step"] for e in duel] == ["duel_start", "duel_attack", "overwhelmed",
                                         "duel_end"]
    assert {(e["round"], e["pairing"]) for e in duel} == {(1, 1)}


def test_r_nav_8_boarding_duel_uses_pairing_purposes():
    _, dice = fight([1, 6] + TAKE_ONE, [ship(1, crew=[Character("B", 12)])],
                    [ship(11, crew=[Character("D", 6)])], NEAR)
    assert dice.log[1].purpose == "naval:r1:p1:brd:exchange:1:boarders:red"


def test_r_nav_8_capturer_gone_the_prize_goes_to_the_other_player():
    faces = [1, 6, 1, 6,  # round 1: pairing 1 boards (no crew: R-BRD-5), pairing 2 fires
             6, 1,  # pairing 2: ship 12 hits ship 2 (defence 1) for 1: sunk
             6, 1, 6, 3]  # round 2: ship 12 chooses gunfire, sinks ship 1 (3 hits, defence 2)
    out, _ = fight(faces, [ship(1, defence=2, crew=[Character("B", 12)]), ship(2, defence=1)],
                   [ship(11, cargo=[500]), ship(12)], NEAR)
    assert out.winner == "defender"
    assert out.ship(11).state == "captured" and out.ship(11).holder == "defender"
    assert out.ship(11).cargo == (500,)
    assert out.captures[0].holder == "defender"


def test_r_nav_8_nobody_left_the_prize_is_destroyed():
    faces = [1, 6, 1, 6, 6, 1, 6, 1, 3, 3]  # as above, but ship 12 sinks too in round 2
    out, _ = fight(faces, [ship(1, defence=2, crew=[Character("B", 12)]), ship(2, defence=1)],
                   [ship(11, cargo=[500]), ship(12, defence=3)], NEAR)
    assert out.winner is None and out.end == "destroyed"
    result = out.ship(11)
    assert result.state == "captured" and result.holder is None and result.cargo == ()
    assert steps(out, "prize")[0]["destroyed"] is True


def test_r_nav_8_capturer_that_retreated_has_left_the_area():
    faces = [6, 1,  # round 1: defender imposes approach: near
             1, 6,  # ship 1 (faced by ship 12: agility 2) succeeds and boards ship 11
             1, 6, 6, 6,  # round 2: attacker imposes withdraw: far; both miss
             1, 6]  # round 3: attacker withdraws at far: retreat
    out, _ = fight(faces, [ship(1, crew=[Character("B", 12)])], [ship(11), ship(12)],
                   ("withdraw", "approach"), retreat=(7, None))
    assert out.retreated == "attacker" and out.rounds == 3
    assert out.ship(11).holder == "defender" and out.ship(1).state == "retreated"


def test_r_nav_8_repelled_boarding_scores_for_the_repelling_side():
    weak, strong, guard = Character("weak", 6), Character("strong", 7), Character("guard", 12)
    faces = [1, 6] + TAKE_ONE * 2
    out, _ = fight(faces, [ship(1, crew=[weak, strong])], [ship(11, crew=[guard])], NEAR,
                   max_rounds=1)
    assert out.vp == {"attacker": 0, "defender": 13}
    assert out.ship(1).crew == () and out.ship(1).crew_overwhelmed == (weak, strong)
    assert out.ship(11).crew == (guard,) and out.ship(11).state == "afloat"
    result = steps(out, "boarding_result")[0]
    assert result["captured"] is False and result["vp"] == {"attacker": 0, "defender": 13}


@pytest.mark.parametrize(("seats", "duels", "vp"), [(None, 2, 12), (1, 1, 6), (2, 2, 12)])
def test_r_vp_1_captured_ship_scores_by_its_seats(seats, duels, vp):
    # single-seat: only the bottom card (the combat card) fights (R-BRD-1)
    crew = [Character("combat", 6), Character("pilot", 6)]
    out, _ = fight([1, 6] + TAKE_ONE * duels, [ship(1, crew=[Character("B", 13)])],
                   [ship(11, crew=crew, seats=seats)], NEAR)
    assert out.vp["attacker"] == vp and out.captures[0].vp == vp


def test_r_brd_1_single_seat_ship_is_taken_when_its_combat_card_falls():
    # crew bottom first: the combat card, then the pilot card; seats 1: only the combat
    # card fights (R-BRD-1), and the captured ship scores once, the pilot's 30 (R-VP-1)
    combat, pilot = Character("combat", 6), Character("pilot", 30)
    faces = [1, 6,  # ship 1 succeeds and boards (42 cp aboard against 36)
             1, 1, 8, 8, 8, 8, 8, 8]  # 2 hits vs 0 evades: the combat card is overwhelmed
    out, _ = fight(faces, [ship(1, crew=[Character("B", 42)])],
                   [ship(11, crew=[combat, pilot], seats=1)], NEAR)
    result = out.ship(11)
    assert result.state == "captured" and result.crew == ()
    assert result.crew_overwhelmed == (combat, pilot)
    assert out.captures[0].vp == 30 and out.vp == {"attacker": 30, "defender": 0}


def test_r_brd_1_single_seat_boarders_repelled_when_their_combat_card_falls():
    combat, pilot = Character("combat", 6), Character("pilot", 30)
    faces = [6, 1,  # ship 11 succeeds and boards (36 cp aboard against 12)
             1, 1, 8]  # the defender (more cp) strikes first: the combat card is overwhelmed
    out, _ = fight(faces, [ship(1, crew=[Character("D", 12)])],
                   [ship(11, crew=[combat, pilot], seats=1)], NEAR, max_rounds=1)
    assert out.ship(1).state == "afloat" and out.ship(11).state == "afloat"
    assert out.ship(11).crew == (pilot,) and out.ship(11).crew_overwhelmed == (combat,)
    assert out.vp == {"attacker": 6, "defender": 0}


# --- R-NAV-9 / R-NAV-10 / R-NAV-11 -------------------------------------------------------------


def test_r_nav_9_attack_plus_one_in_round_one_only():
    out, _ = fight([6, 3, 6, 3], [ship(1)], [ship(11, attack=3)], max_rounds=2,
                   advantage="defender")
    assert [s[3] for s in shots(out)] == [0, 3, 0, 0]
    assert out.ship(1).hits == 3


def test_r_nav_9_agility_test_one_lower_in_round_one():
    out, _ = fight([3, 6, 6, 6], [ship(1)], [ship(11)], NEAR, max_rounds=1,
                   advantage="attacker")
    assert steps(out, "near_choice")[0]["success"] == [True, False]


def test_r_nav_10_gaps_close_and_new_flagships_pair():
    faces = [2, 6, 6, 6,  # round 1 far: ship 1 sinks ship 11 (defence 2)
             6, 6, 6]  # round 2: 1 vs 12, ship 2 now stands diagonally
    out, _ = fight(faces, [ship(1), ship(2)], [ship(11, defence=2), ship(12)], max_rounds=2)
    reorganise = steps(out, "reorganise")
    assert reorganise[0]["lines"] == {"attacker": [1, 2], "defender": [12]}
    assert [s[:2] for s in shots(out, 2)] == [(1, 12), (12, 1), (2, 12)]


def test_r_nav_11_round_cap_both_stay():
    out, _ = fight([6] * 4, [ship(1)], [ship(11)], max_rounds=2)
    assert (out.winner, out.end, out.rounds, out.retreated) == (None, "round_cap", 2, None)
    assert [r.state for r in out.ships] == ["afloat", "afloat"]
    assert [r.holder for r in out.ships] == ["attacker", "defender"]


def test_r_nav_11_empty_side_loses_without_a_round():
    out, dice = fight([], [ship(1)], [])
    assert (out.winner, out.rounds, out.end) == ("attacker", 0, "destroyed")


def test_r_nav_11_end_event_and_victory_points_are_logged():
    out, _ = fight([2, 6], [ship(1)], [ship(11, defence=2)])
    assert out.events[-2]["rule"] == "R-NAV-11" and out.events[-2]["winner"] == "attacker"
    assert out.events[-1] == {"rule": "R-VP-1", "step": "victory_points", "round": 1,
                              "vp": {"attacker": 0, "defender": 0}}


def test_r_nav_13_events_carry_rule_step_round_and_dice():
    out, dice = fight([1, 6, 3, 2, 6, 6], [ship(1)], [ship(11)], ("approach", "hold"),
                      max_rounds=1)
    for event in out.events:
        assert event["rule"].startswith("R-") and event["step"] and "round" in event
    faces = [f for e in out.events for f in e.get("dice", [])]
    assert faces == [f for r in dice.log for f in r.faces]


def test_record_events_false_gives_the_same_outcome():
    faces = [1, 6, 3, 2, 6, 6, 2, 3, 6, 6]
    kwargs = {"max_rounds": 2}
    out, _ = fight(faces, [ship(1)], [ship(11)], ("approach", "hold"), **kwargs)
    quiet = resolve_naval_battle(ScriptedDice(faces), side("attacker", [ship(1)], "approach"),
                                 side("defender", [ship(11)]), record_events=False, **kwargs)
    assert quiet.events == [] and quiet == out


def test_invalid_arguments_are_rejected():
    dice = ScriptedDice([])
    a, d = side("attacker", [ship(1)]), side("defender", [ship(2)])
    with pytest.raises(ValueError):
        resolve_naval_battle(dice, d, a)
    with pytest.raises(ValueError):
        resolve_naval_battle(dice, a, d, advantage="both")
    with pytest.raises(ValueError):
        resolve_naval_battle(dice, a, d, max_rounds=0)
    with pytest.raises(ValueError):
        resolve_naval_battle(dice, a, side("defender", [ship(1)]))
    with pytest.raises(ValueError):
        side("attacker", [ship(1)], stance="charge")
    with pytest.raises(ValueError):
        ship(1, defence=0)


# --- R-SEA-2 -----------------------------------------------------------------------------------

HAZARD = ship(99, attack=4, defence=3, agility=1)


def test_r_sea_2_hazard_and_flagship_exchange_fire_once():
    dice = ScriptedDice([4, 3])
    out = hazard_exchange(dice, HAZARD, ship(1, attack=3, defence=6))
    assert (out.ship_hits, out.hazard_hits) == (4, 3)
    assert out.hazard_removed and not out.ship_sunk  # 3 hits reach the hazard's defence
    assert dice.log[0].purpose == "sea:hazard=99:fire"
    assert [e["rule"] for e in out.events] == ["R-SEA-2"] * 3
    assert [f for e in out.events for f in e.get("dice", [])] == [4, 3]


def test_r_sea_2_no_far_distance_penalty_and_misses():
    out = hazard_exchange(ScriptedDice([5, 4]), HAZARD, ship(1, attack=3))
    assert (out.ship_hits, out.hazard_hits, out.hazard_removed) == (0, 0, False)
    assert out.ship == ship(1, attack=3)


def test_r_sea_2_hazard_sinks_the_flagship():
    out = hazard_exchange(ScriptedDice([4, 6]), HAZARD, ship(1, defence=4))
    assert out.ship_sunk and out.ship is None and not out.hazard_removed


def test_r_sea_2_hit_allocation_saves_the_flagship():
    out = hazard_exchange(ScriptedDice([4, 6]), HAZARD, ship(1, defence=4, cargo=[500, 200]))
    assert not out.ship_sunk and out.ship_hits == 3
    assert out.cargo_destroyed == (200,) and out.ship.cargo == (500,)
