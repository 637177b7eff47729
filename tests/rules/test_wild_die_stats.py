"""R-DICE-5: statistics of D6-system rolls with the exploding wild die (SimulationDice).

Exact values derived here. The wild die W shows 1-5, or 6 plus a fresh W:
    E[W]   = (1+2+3+4+5)/6 + (1/6)(6 + E[W])                  -> E[W] = 21/5 = 4.2
    E[W^2] = (1+4+9+16+25)/6 + (1/6)E[(6 + W)^2]
           = 55/6 + (36 + 12 E[W] + E[W^2]) / 6                -> E[W^2] = (55 + 36 + 12*4.2)/5
The other n-1 dice are plain d6 (mean 3.5, variance 35/12). A fumble is a 1 on the wild die's
first throw: probability 1/6; the 1 still counts toward the total ([decision] R-DICE-5).
"""

import math
from fractions import Fraction

import pytest

from rules.dice import SimulationDice, wild_roll

N = 60_000

VAR_D6 = Fraction(35, 12)


def wild_moments() -> tuple[Fraction, Fraction]:
    """E[W] and Var[W] of the wild die, solved from the recursions in the module docstring."""
    mean = (Fraction(15, 6) + 1) / (1 - Fraction(1, 6))  # E = 15/6 + (6 + E)/6
    second = (Fraction(55) + 36 + 12 * mean) / 5
    return mean, second - mean**2


def test_derived_wild_die_moments():
    mean, variance = wild_moments()
    assert mean == Fraction(21, 5) and float(mean) == 4.2
    assert variance == Fraction(266, 25)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_r_dice_5_mean_of_nd_matches_exact_value(n):
    dice = SimulationDice(1000 + n)
    totals = [wild_roll(dice, n, 0, "stats").total for _ in range(N)]
    wild_mean, wild_variance = wild_moments()
    exact_mean = float(Fraction(7, 2) * (n - 1) + wild_mean)
    standard_error = math.sqrt(float(wild_variance + (n - 1) * VAR_D6) / N)
    mean = sum(totals) / N
    assert abs(mean - exact_mean) < 5 * standard_error, (mean, exact_mean, standard_error)


def test_r_dice_5_fumble_rate_is_one_sixth():
    dice = SimulationDice(77)
    rolls = [wild_roll(dice, 2, 1, "stats") for _ in range(N)]
    rate = sum(r.fumble for r in rolls) / N
    standard_error = math.sqrt((1 / 6) * (5 / 6) / N)
    assert abs(rate - 1 / 6) < 5 * standard_error
    fumbles = [r for r in rolls if r.fumble]
    assert all(r.faces[0] == 1 and r.total == sum(r.faces) + 1 for r in fumbles)
