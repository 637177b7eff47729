"""R-INT-1..5: interception attempts, INT DRs and benefits, with scripted dice.

Each INT DR is its own draw: the initiator's active DR, then the target's passive DR.
"""

import pytest

from rules.dice import DiceExhausted, ScriptedDice
from rules.interception import InterceptFleet, hostile, resolve_interception


def fleet(fid, owner, **kw):
    return InterceptFleet(fid, owner, **kw)


def run(faces, active, present, entering=True):
    dice = ScriptedDice(faces)
    result = resolve_interception(dice, active, present, entering=entering)
    assert dice.remaining == 0, "scripted more faces than the rule used"
    return result, dice


def pairs(result):
    return [(a.initiator, a.target) for a in result.attempts]


# --- R-INT-1 -------------------------------------------------------------------------------


def test_r_int_1_hostile_is_other_owner_or_pirate():
    mine, other = fleet(1, 1), fleet(2, 2)
    pirate, pirate2 = fleet(3, None, kind="pirate"), fleet(4, None, kind="pirate")
    assert hostile(mine, other)
    assert not hostile(mine, fleet(5, 1))
    assert hostile(mine, pirate) and hostile(pirate, mine)
    assert hostile(fleet(6, 1, kind="pirate"), mine)  # a pirate is hostile even to its "owner"
    assert not hostile(pirate, pirate2)  # [reading] pirates do not fight each other
    assert not hostile(mine, mine)


def test_r_int_1_friendly_fleets_never_intercept():
    result, dice = run([], fleet(1, 1), [fleet(2, 1), fleet(3, 1, kind="buccaneer")])
    assert result.attempts == () and result.effect is None and not result.move_ends
    assert dice.log == []


# --- R-INT-2 -------------------------------------------------------------------------------


def test_r_int_2_pirates_first_highest_af_first():
    active = fleet(1, 1, cf=5)
    low, high = fleet(10, None, kind="pirate", af=1, cf=1), fleet(11, None, kind="pirate", af=3)
    # pirate 11 (AF 3) 5+3 vs 2: wins, CF 0 <= 5 -> withdraws (d); pirate 10 then tries: 6+1 vs 1.
    result, dice = run([5, 2, 6, 1], active, [low, high])
    assert pairs(result) == [(11, 1), (10, 1)]
    assert [a.step for a in result.attempts] == [1, 1]
    assert result.withdrawn == (11, 10) and result.effect == "withdraw"
    assert [r.purpose for r in dice.log] == ["int:fleet=11:active", "int:fleet=1:passive",
                                             "int:fleet=10:active", "int:fleet=1:passive"]


def test_r_int_2_full_order_pirate_buccaneer_active_inactive():
    active = fleet(1, 1, cf=5)
    x = fleet(20, 2, cf=2, benefits=("d",))
    y = fleet(21, 2, cf=9, benefits=("d",))
    bucc = fleet(30, 3, kind="buccaneer", benefits=("d",))
    pirate = fleet(40, None, kind="pirate", cf=0)
    # every attempt is won by the non-active side, which withdraws, so all four steps run
    faces = [6, 1,   # 1: pirate vs active
             6, 1,   # 2: buccaneer vs active
             1, 6,   # 3: active vs weakest hostile (x, CF 2)
             6, 1]   # 4: y vs active (x withdrew: blocked)
    result, _ = run(faces, active, [x, y, bucc, pirate])
    assert pairs(result) == [(40, 1), (30, 1), (1, 20), (21, 1)]
    assert [a.step for a in result.attempts] == [1, 2, 3, 4]
    assert result.withdrawn == (40, 30, 20, 21)
    assert result.no_interception == (40, 30, 20, 21)


def test_r_int_2_treasure_fleets_never_start_but_can_be_targeted():
    treasure = fleet(2, 2, kind="treasure", policy="always")
    result, _ = run([], fleet(1, 1, policy="never"), [treasure])
    assert result.attempts == ()
    assert any(e["step"] == "skip" and "treasure" in e["reason"] for e in result.events)
    # an active treasure fleet does not start either
    result, _ = run([], fleet(1, 1, kind="treasure"), [fleet(2, 2, policy="never")])
    assert result.attempts == ()
    # but it is a target: the active fleet attacks it, wins 6 vs 1 and fights (a)
    result, _ = run([6, 1], fleet(1, 1), [treasure])
    assert pairs(result) == [(1, 2)] and result.effect == "combat"


def test_r_int_2_no_interception_neither_starts_nor_is_targeted():
    marked = fleet(2, 2, cf=0, no_interception=True)
    other = fleet(3, 2, cf=9, policy="never")
    # the active fleet picks the weakest hostile by CF, skipping the marked one
    result, _ = run([6, 1], fleet(1, 1, cf=1), [marked, other])
    assert pairs(result) == [(1, 3)]
    # a marked active fleet is not a target and does not start
    result, _ = run([], fleet(1, 1, no_interception=True), [fleet(2, 2), fleet(3, None,
                                                                            kind="pirate")])
    assert result.attempts == ()


def test_r_int_2_active_fleet_targets_weakest_hostile_first_on_tie():
    a, b, c = fleet(2, 2, cf=4), fleet(3, 3, cf=2), fleet(4, 2, cf=2)
    result, _ = run([6, 1], fleet(1, 1, policy="always"), [a, b, c])
    assert pairs(result) == [(1, 3)]


@pytest.mark.parametrize(("policy", "own_cf", "tries"), [
    ("always", 1, True), ("never", 99, False),
    ("if_stronger", 5, False), ("if_stronger", 6, True),
])
def test_r_int_2_policy_of_inactive_fleet(policy, own_cf, tries):
    inactive = fleet(2, 2, cf=own_cf, policy=policy)
    faces = [6, 1] if tries else []
    result, _ = run(faces, fleet(1, 1, cf=5, policy="never"), [inactive])
    assert bool(result.attempts) is tries


def test_r_int_2_pirates_always_try_whatever_their_policy():
    pirate = fleet(2, None, kind="pirate", policy="never", cf=9)
    result, _ = run([6, 1], fleet(1, 1, cf=1, policy="never"), [pirate])
    assert pairs(result) == [(2, 1)] and result.effect == "combat"


def test_r_int_2_each_fleet_at_most_one_attempt():
    # y withdraws after its own attempt; the active fleet already tried and does not retry
    active = fleet(1, 1, cf=0, benefits=("d",))  # d not allowed for the active: falls back to a
    y = fleet(2, 2, cf=5, policy="always", benefits=("d",))
    result, _ = run([1, 6], active, [y])
    assert pairs(result) == [(1, 2)]
    assert result.withdrawn == (2,) and result.effect == "withdraw"


# --- R-INT-3 -------------------------------------------------------------------------------


def test_r_int_3_af_added_and_ties_rerolled_as_new_draws():
    active = fleet(1, 1, af=2)
    target = fleet(2, 2, af=0, policy="never")
    # 1+2 vs 3 tie, 4+2 vs 6 tie, 5+2 vs 2: active wins on the third pair
    result, dice = run([1, 3, 4, 6, 5, 2], active, [target])
    rolls = result.attempts[0].rolls
    assert [(r.active_total, r.passive_total) for r in rolls] == [(3, 3), (6, 6), (7, 2)]
    assert result.attempts[0].winner == 1
    assert len(dice.log) == 6 and [r.counter for r in dice.log] == list(range(6))
    assert all(len(r.faces) == 1 for r in dice.log)
    ties = [e for e in result.events if e["step"] == "int_dr"]
    assert [e["dice"] for e in ties] == [[1, 3], [4, 6], [5, 2]]


def test_r_int_3_target_winning_picks_the_benefit():
    # the active fleet starts but loses: the inactive target wins and may take c) avoid
    result, _ = run([2, 5], fleet(1, 1), [fleet(2, 2, policy="never", benefits=("c",))])
    assert result.attempts[0].winner == 2 and result.effect == "avoid"


def test_r_int_3_stop_after_first_a_b_or_c():
    first = fleet(2, 2, benefits=("a",))
    second = fleet(3, 2, benefits=("a",))
    result, _ = run([6, 1], fleet(1, 1, policy="never"), [first, second])
    assert pairs(result) == [(2, 1)] and result.effect == "combat"


def test_r_int_3_leaving_combat_ends_move_in_the_area_left():
    result, _ = run([6, 1], fleet(1, 1, policy="never"), [fleet(2, 2)], entering=False)
    assert result.entering is False and result.move_ends and result.effect == "combat"


def test_r_int_3_scripted_dice_must_cover_the_tie():
    with pytest.raises(DiceExhausted):
        resolve_interception(ScriptedDice([3, 3]), fleet(1, 1), [fleet(2, 2)], entering=True)


# --- R-INT-4 -------------------------------------------------------------------------------


def test_r_int_4_a_interception_advantage_then_combat():
    result, _ = run([6, 1], fleet(1, 1, benefits=("a", "b")), [fleet(2, 2, policy="never")])
    assert result.effect == "combat" and result.move_ends
    assert (result.advantage_fleet, result.advantage_side, result.opponent) == (1, "active", 2)
    inactive_win, _ = run([1, 6], fleet(1, 1), [fleet(2, 2, policy="never")])
    assert (inactive_win.advantage_fleet, inactive_win.advantage_side) == (2, "inactive")


def test_r_int_4_b_resume_only_for_the_active_fleet():
    result, _ = run([6, 1], fleet(1, 1, benefits=("b", "a")), [fleet(2, 2, policy="never")])
    assert result.effect == "resume" and not result.move_ends
    assert result.no_interception == () and result.advantage_fleet is None
    # an inactive winner skips b and takes its next wish
    result, _ = run([6, 1], fleet(1, 1, policy="never"), [fleet(2, 2, benefits=("b", "c"))])
    assert result.effect == "avoid"
    benefit = next(e for e in result.events if e["step"] == "benefit")
    assert benefit["skipped"] == ["b"] and benefit["rule"] == "R-INT-4"


def test_r_int_4_c_avoid_marks_both_fleets():
    result, _ = run([6, 1], fleet(1, 1, benefits=("c",)), [fleet(2, 2, policy="never")])
    assert result.effect == "avoid" and result.move_ends
    assert result.no_interception == (1, 2) and result.withdrawn == ()


@pytest.mark.parametrize("entering", [True, False])
def test_r_int_4_c_not_available_against_a_pirate_fleet(entering):
    # the active fleet wins against the pirates: c) is skipped, it takes its next wish b)
    pirate = fleet(2, None, kind="pirate", cf=9)
    result, dice = run([1, 6], fleet(1, 1, benefits=("c", "b")), [pirate], entering=entering)
    assert pairs(result) == [(2, 1)] and result.attempts[0].winner == 1
    assert result.attempts[0].benefit == "b" and result.effect == "resume"
    assert result.no_interception == ()
    benefit = next(e for e in result.events if e["step"] == "benefit")
    assert benefit["skipped"] == ["c"] and benefit["rule"] == "R-INT-4"
    # an inactive winner against an active pirate fleet: c) skipped, d) taken
    result, _ = run([1, 6], fleet(3, None, kind="pirate"), [fleet(4, 1, benefits=("c", "d"))])
    assert result.attempts[0].benefit == "d" and result.withdrawn == (4,)
    # only c) named: nothing allowed, a) as R-INT-4 [reading]
    result, _ = run([1, 6], fleet(1, 1, benefits=("c",)), [pirate])
    assert result.effect == "combat" and result.advantage_fleet == 1


def test_r_int_4_d_withdraw_only_for_inactive_and_marks_it():
    result, _ = run([1, 6], fleet(1, 1), [fleet(2, 2, policy="never", benefits=("d", "a"))])
    assert result.effect == "withdraw" and not result.move_ends
    assert result.withdrawn == (2,) and result.no_interception == (2,)
    # the active fleet skips d
    result, _ = run([6, 1], fleet(1, 1, benefits=("d", "c")), [fleet(2, 2, policy="never")])
    assert result.effect == "avoid"
    assert next(e for e in result.events if e["step"] == "benefit")["skipped"] == ["d"]


def test_r_int_4_d_lets_later_attempts_go_on():
    # R-INT-4 d) ends nothing else: x withdraws, then z tries and takes a)
    x = fleet(2, 2, benefits=("d",))
    z = fleet(3, 2, benefits=("a",))
    result, _ = run([6, 1, 6, 1], fleet(1, 1, policy="never"), [x, z])
    assert pairs(result) == [(2, 1), (3, 1)]
    assert result.effect == "combat" and result.withdrawn == (2,)
    assert result.advantage_fleet == 3


def test_r_int_4_nothing_allowed_named_falls_back_to_a():
    result, _ = run([6, 1], fleet(1, 1, benefits=("d",)), [fleet(2, 2, policy="never")])
    assert result.effect == "combat" and result.advantage_fleet == 1


# --- R-INT-5 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("pirate_cf", "enemy_cf", "benefit", "effect"), [
    (6, 5, "a", "combat"),
    (5, 5, "d", "withdraw"),  # [decision] "no more CF": CF <= enemy CF
    (1, 5, "d", "withdraw"),
])
def test_r_int_5_inactive_pirate(pirate_cf, enemy_cf, benefit, effect):
    pirate = fleet(2, None, kind="pirate", cf=pirate_cf, benefits=("c",))
    result, _ = run([6, 1], fleet(1, 1, cf=enemy_cf, policy="never"), [pirate])
    assert result.attempts[0].benefit == benefit and result.effect == effect
    assert next(e for e in result.events if e["step"] == "benefit")["rule"] == "R-INT-5"


@pytest.mark.parametrize(("pirate_cf", "enemy_cf", "benefit", "effect"), [
    (6, 5, "a", "combat"),
    (5, 5, "b", "resume"),
    (1, 5, "b", "resume"),
])
def test_r_int_5_active_pirate(pirate_cf, enemy_cf, benefit, effect):
    pirate = fleet(1, None, kind="pirate", cf=pirate_cf, benefits=("c",))
    result, _ = run([6, 1], pirate, [fleet(2, 2, cf=enemy_cf, policy="never")])
    assert result.attempts[0].benefit == benefit and result.effect == effect


def test_r_int_5_pirate_winning_as_target_picks_automatically_too():
    pirate = fleet(1, None, kind="pirate", cf=3, benefits=("c",))
    x = fleet(2, 1, cf=1, benefits=("d",))
    y = fleet(3, 2, cf=5)
    # the pirate attacks x (weakest) and loses: x withdraws; y then attacks the pirate and
    # loses: the pirate, active and with CF 3 <= 5, resumes its move (b)
    result, _ = run([1, 6, 1, 6], pirate, [x, y])
    assert pairs(result) == [(1, 2), (3, 1)]
    assert result.attempts[1].winner == 1 and result.effect == "resume"
    assert result.withdrawn == (2,)


def test_r_int_5_active_pirate_targets_weakest_hostile():
    pirate = fleet(1, None, kind="pirate", cf=4)
    result, _ = run([6, 1], pirate, [fleet(2, 1, cf=3), fleet(3, 2, cf=1),
                                     fleet(4, None, kind="pirate", cf=0)])
    assert pairs(result) == [(1, 3)] and result.effect == "combat"


def test_r_int_events_carry_rule_and_step():
    result, _ = run([3, 3, 6, 1], fleet(1, 1), [fleet(2, 2, policy="never")])
    assert all(e["rule"].startswith("R-INT-") and "step" in e for e in result.events)
    assert result.events[0]["step"] == "start" and result.events[-1]["step"] == "end"
