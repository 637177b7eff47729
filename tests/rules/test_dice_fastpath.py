"""The fast roll helpers of odds previews (R-ODDS-1) read exactly the faces of the rolls they
stand for (R-DICE-4, R-DICE-5): same totals, same draws, same purposes, same PRNG state after."""

import pytest

from rules.dice import (
    GREEN_FACES,
    RED_FACES,
    RoundStream,
    ScriptedDice,
    SimulationDice,
    count_at_most,
    faces,
    one_face,
    wild_roll,
    wild_total,
)

SEED = bytes(range(32))
SHAPES = [(n, pips) for n in range(0, 8) for pips in (-2, 0, 3)]


def test_r_dice_5_wild_total_matches_wild_roll_on_simulation_dice():
    slow, fast = SimulationDice(11), SimulationDice(11)
    fumbles = exploded = 0
    for i in range(6000):
        n, pips = SHAPES[i % len(SHAPES)]
        roll = wild_roll(slow, n, pips, "x")
        assert wild_total(fast, n, pips, "x") == (roll.total, roll.fumble)
        fumbles += roll.fumble
        exploded += len(roll.faces) > n
    assert slow.roll(3) == fast.roll(3)  # the PRNGs are in the same state
    assert fumbles > 100 and exploded > 100  # both special cases were exercised


@pytest.mark.parametrize("n", [0, 1, 3])
def test_r_dice_5_wild_total_reads_the_same_draw_from_any_dice(n):
    script = [6, 2, 6, 6, 1, 5, 1, 4, 4]
    slow, fast = ScriptedDice(script), ScriptedDice(script)
    for _ in range(2):
        roll = wild_roll(slow, n, 1, "spc:r1:attack:ship=3")
        assert wild_total(fast, n, 1, "spc:r1:attack:ship=3") == (roll.total, roll.fumble)
    assert [r.as_dict() for r in fast.log] == [r.as_dict() for r in slow.log]
    assert fast.remaining == slow.remaining


def test_r_dice_2_fast_helpers_keep_the_round_stream_log():
    slow, fast = RoundStream(SEED, 4, 2), RoundStream(SEED, 4, 2)
    for k in range(40):
        roll = wild_roll(slow, 1 + k % 5, 0, f"w{k}")
        assert wild_total(fast, 1 + k % 5, 0, f"w{k}") == (roll.total, roll.fumble)
        assert one_face(fast, 6, f"o{k}") == slow.roll(1, 6, f"o{k}")[0]
        assert faces(fast, 4, 6, f"f{k}") == list(slow.roll(4, 6, f"f{k}"))
        red = slow.roll(3, 8, f"r{k}")
        assert count_at_most(fast, 3, 8, 4, f"r{k}") == sum(f <= 4 for f in red)
    assert [r.as_dict() for r in fast.log] == [r.as_dict() for r in slow.log]


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 8, 12])
def test_r_dice_4_face_helpers_match_simulation_dice_roll(sides):
    slow, fast = SimulationDice(5), SimulationDice(5)
    for k in range(1, 400):
        assert one_face(fast, sides, "x") == slow.roll(1, sides, "x")[0]
        assert faces(fast, k % 7, sides, "x") == list(slow.roll(k % 7, sides, "x"))
        n, limit = k % 4, k % (sides + 1)
        rolled = slow.roll(n, sides, "x") if n else ()
        assert count_at_most(fast, n, sides, limit, "x") == sum(f <= limit for f in rolled)
    assert slow.roll(2, sides) == fast.roll(2, sides)


def test_count_at_most_draws_nothing_for_no_dice():
    dice = RoundStream(SEED, 1, 1)
    assert count_at_most(dice, 0, 8, 4, "none") == 0
    assert dice.log == []


def test_r_brd_2_success_limits_of_the_boarding_fast_path():
    from rules.boarding import GREEN_EVADE_MAX, RED_SUCCESS_MAX

    assert [f for f in RED_FACES if RED_FACES[f] in ("hit", "crit")] == list(
        range(1, RED_SUCCESS_MAX + 1))
    assert [f for f in GREEN_FACES if GREEN_FACES[f] == "evade"] == list(
        range(1, GREEN_EVADE_MAX + 1))
