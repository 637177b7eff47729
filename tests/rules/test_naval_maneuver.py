"""R-NAV-3 maneuver (all nine stance combinations, the roll cases), R-FLT-5 auto stance,
R-NAV-9 in the maneuver step, R-NAV-12 retreat choice and retreat in battle."""

import pytest

from rules.dice import ScriptedDice
from rules.naval import (
    RetreatOption,
    choose_retreat,
    combat_factor,
    maneuver,
    resolve_stance,
)
from tests.rules.test_naval_helpers import fight, ship, steps

AGILITY = (3, 3)

# (attacker stance, defender stance) -> (distance, retreating) when the attacker alone
# succeeds its roll (attacker 1, defender 6); same choices roll no dice at all.
FROM_FAR = {
    ("approach", "approach"): ("near", ()),
    ("approach", "hold"): ("near", ()),
    ("approach", "withdraw"): ("near", ()),
    ("hold", "approach"): ("far", ()),
    ("hold", "hold"): ("far", ()),
    ("hold", "withdraw"): ("far", ()),
    ("withdraw", "approach"): ("far", ("attacker",)),
    ("withdraw", "hold"): ("far", ("attacker",)),
    ("withdraw", "withdraw"): ("far", ("attacker", "defender")),
}
FROM_NEAR = {
    ("approach", "approach"): ("near", ()),
    ("approach", "hold"): ("near", ()),
    ("approach", "withdraw"): ("near", ()),
    ("hold", "approach"): ("near", ()),
    ("hold", "hold"): ("near", ()),
    ("hold", "withdraw"): ("near", ()),
    ("withdraw", "approach"): ("far", ()),
    ("withdraw", "hold"): ("far", ()),
    ("withdraw", "withdraw"): ("far", ()),
}


@pytest.mark.parametrize(("start", "table"), [("far", FROM_FAR), ("near", FROM_NEAR)])
@pytest.mark.parametrize("stances", list(FROM_FAR))
def test_r_nav_3_nine_stance_combinations(start, table, stances):
    dice = ScriptedDice([1, 6])
    result = maneuver(dice, 1, start, stances, AGILITY)
    assert (result.distance, result.retreating) == table[stances]
    same = stances[0] == stances[1]
    assert dice.remaining == (2 if same else 0)  # only different choices roll
    assert result.imposed_by == (None if same else "attacker")


def test_r_nav_3_both_withdraw_far_both_retreat():
    result = maneuver(ScriptedDice([]), 1, "far", ("withdraw", "withdraw"), AGILITY)
    assert result.retreating == ("attacker", "defender")


def test_r_nav_3_both_withdraw_near_becomes_far():
    result = maneuver(ScriptedDice([]), 4, "near", ("withdraw", "withdraw"), AGILITY)
    assert (result.distance, result.retreating) == ("far", ())


def test_r_nav_3_both_hold_no_change_and_both_approach_near():
    assert maneuver(ScriptedDice([]), 1, "near", ("hold", "hold"), AGILITY).distance == "near"
    assert maneuver(ScriptedDice([]), 1, "far", ("hold", "hold"), AGILITY).distance == "far"
    assert maneuver(ScriptedDice([]), 1, "far", ("approach",) * 2, AGILITY).distance == "near"


@pytest.mark.parametrize(("rolls", "distance", "imposed_by"), [
    ((2, 1), "near", "attacker"),  # both succeed: the higher roll imposes its maneuver
    ((1, 2), "far", "defender"),
    ((2, 2), "far", None),  # both succeed, equal rolls: no change
    ((1, 3), "near", "attacker"),  # only the attacker succeeds (3 is not lower than 3)
    ((5, 2), "far", "defender"),  # only the defender succeeds
    ((3, 6), "far", None),  # none succeeds: no change
])
def test_r_nav_3_roll_cases(rolls, distance, imposed_by):
    dice = ScriptedDice(rolls)
    result = maneuver(dice, 2, "far", ("approach", "hold"), AGILITY)
    assert (result.distance, result.imposed_by) == (distance, imposed_by)
    assert dice.log[0].purpose == "naval:r2:maneuver" and dice.log[0].faces == list(rolls)


def test_r_nav_3_rolls_against_the_lowest_agility_in_the_fleet():
    # the attacker's line has agility 5 and 2: its roll of 2 is not lower than 2
    out, _ = fight([2, 6, 6, 6, 6, 6], [ship(1, agility=5), ship(2, agility=2)],
                   [ship(11, agility=5), ship(12, agility=5)], ("approach", "hold"),
                   max_rounds=1)
    (event,) = steps(out, "maneuver")
    assert event["lowest_agility"] == {"attacker": 2, "defender": 5}
    assert event["success"] == {"attacker": False, "defender": False}
    assert out.distance == "far"


def test_r_nav_9_advantage_lowers_the_success_roll_in_round_one():
    # attacker rolls 3 against agility 3: a success only with the advantage
    out, _ = fight([3, 6, 6, 6], [ship(1)], [ship(11)], ("approach", "hold"),
                   max_rounds=1, advantage="attacker")
    assert out.distance == "near"  # then the near exchange: agility rolls 6, 6, nothing
    out, _ = fight([3, 6, 6, 6], [ship(1)], [ship(11)], ("approach", "hold"), max_rounds=1)
    assert out.distance == "far"  # far exchange: both fire and miss


def test_r_nav_9_advantage_not_used_to_compare_rolls():
    # both succeed; attacker 3 (counts 2 for success) beats defender 2 on the unmodified roll
    result = maneuver(ScriptedDice([3, 2]), 1, "far", ("approach", "hold"), AGILITY, (1, 0))
    assert result.imposed_by == "attacker" and result.distance == "near"


def test_r_nav_9_advantage_only_in_the_first_round():
    faces = [6, 6, 6, 6,  # round 1: maneuver 6/6 (the advantage does not help), far fire
             3, 6, 6, 6]  # round 2: attacker 3 fails again without the advantage
    out, _ = fight(faces, [ship(1)], [ship(11)], ("approach", "hold"), max_rounds=2,
                   advantage="attacker")
    assert [e["roll_bonus"] for e in steps(out, "maneuver")] == [
        {"attacker": 1, "defender": 0}, {"attacker": 0, "defender": 0}]
    assert out.distance == "far"


# --- R-FLT-5 / R-FLT-3 -------------------------------------------------------------------------


@pytest.mark.parametrize(("stance", "own", "enemy", "resolved"), [
    ("auto", 5, 5, "approach"), ("auto", 6, 5, "approach"), ("auto", 4, 5, "withdraw"),
    ("hold", 1, 9, "hold"), ("approach", 1, 9, "approach"), ("withdraw", 9, 1, "withdraw"),
])
def test_r_flt_5_auto_stance(stance, own, enemy, resolved):
    assert resolve_stance(stance, own, enemy) == resolved


def test_r_flt_3_combat_factor_is_the_sum_of_attack_values():
    assert combat_factor([ship(1, attack=3), ship(2, attack=5)]) == 8
    assert combat_factor([]) == 0


def test_r_flt_5_auto_in_battle_uses_current_combat_factors():
    # attacker CF 3 < defender CF 5: it withdraws, the defender approaches
    out, _ = fight([6, 6, 6, 6], [ship(1, attack=3)], [ship(11, attack=5)], ("auto", "auto"),
                   max_rounds=1)
    (event,) = steps(out, "maneuver")
    assert event["stances"] == {"attacker": "withdraw", "defender": "approach"}
    assert event["cf"] == {"attacker": 3, "defender": 5}


# --- R-NAV-12 ----------------------------------------------------------------------------------


def test_r_nav_12_own_uncontested_area_first():
    options = [RetreatOption(4, own=False, contested=False), RetreatOption(9, True, False),
               RetreatOption(7, True, False), RetreatOption(2, True, True)]
    assert choose_retreat(options) == 7


def test_r_nav_12_else_any_uncontested_lowest_id_else_none():
    assert choose_retreat([RetreatOption(8, False, False), RetreatOption(3, False, False),
                           RetreatOption(1, True, True)]) == 3
    assert choose_retreat([RetreatOption(1, True, True), RetreatOption(2, False, True)]) is None
    assert choose_retreat([]) is None


def test_r_nav_12_retreat_succeeds_and_ends_the_battle():
    out, _ = fight([1, 6], [ship(1), ship(2)], [ship(11)], ("withdraw", "hold"),
                   retreat=(5, None))
    assert out.retreated == "attacker" and out.winner is None and out.end == "retreat"
    assert out.rounds == 1 and not steps(out, "gunfire")
    assert [r.state for r in out.ships] == ["retreated", "retreated", "afloat"]
    assert [r.holder for r in out.ships] == ["attacker", "attacker", "defender"]
    (event,) = steps(out, "retreat")
    assert event["rule"] == "R-NAV-12" and event["to"] == 5 and event["success"]


def test_r_nav_12_retreat_without_area_fails_and_distance_stays_far():
    out, _ = fight([1, 6, 6, 6], [ship(1)], [ship(11)], ("withdraw", "hold"), max_rounds=1)
    assert out.retreated is None and out.end == "round_cap" and out.distance == "far"
    assert steps(out, "retreat")[0]["success"] is False
    assert len(steps(out, "gunfire")) == 2  # the exchange happens at far distance


def test_r_nav_12_both_withdraw_at_far_both_retreat():
    out, dice = fight([], [ship(1)], [ship(11)], ("withdraw", "withdraw"), retreat=(3, 4))
    assert out.retreated == "both" and out.end == "retreat" and dice.log == []
    assert {r.state for r in out.ships} == {"retreated"}


def test_r_nav_12_both_withdraw_only_one_can_retreat():
    out, _ = fight([], [ship(1)], [ship(11)], ("withdraw", "withdraw"), retreat=(None, 4))
    assert out.retreated == "defender"
    assert [r.state for r in out.ships] == ["afloat", "retreated"]


def test_r_nav_12_both_withdraw_neither_can_retreat():
    out, _ = fight([6, 6], [ship(1)], [ship(11)], ("withdraw", "withdraw"), max_rounds=1)
    assert out.retreated is None and out.distance == "far"
    assert len(steps(out, "retreat")) == 2
