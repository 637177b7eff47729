"""Statistics: a one-on-one gunfire-only naval duel simulated with SimulationDice against the
exact win rates of a small Markov chain written here, independently of the engine.

The chain follows the rules as written: both ships approach (near from round 1, R-NAV-3) or
both hold (far for ever). Per round at near, the pairing exchanges fire unless both agility
rolls fail (a roll lower than agility succeeds, R-NAV-4); with no crews the choice is always
gunfire. At far every round fires with attack - 1 (R-NAV-6). Each shot: a roll r <= attack
deals r hits. Hits land together; a ship sinks when its hits reach its defence (R-NAV-7;
nothing aboard to take a hit). After max_rounds the battle is undecided (R-NAV-11).
"""

import math
from collections import defaultdict

import pytest

from rules.dice import SimulationDice
from rules.naval import NavalShip, NavalSide, resolve_naval_battle

BATTLES = 6000
ROUNDS = 12


def volley(attack: int) -> dict[int, float]:
    """Distribution of the hits one shot deals (d6, hit if the roll <= attack)."""
    reach = max(0, min(6, attack))
    dist = {roll: 1 / 6 for roll in range(1, reach + 1)}
    dist[0] = (6 - reach) / 6
    return dist


def exact(att: tuple[int, int, int], dfn: tuple[int, int, int], near: bool) -> tuple[float, float]:
    """(P attacker wins, P defender wins); ships as (attack, defence, agility)."""
    if near:
        fail = (1 - max(0, min(6, att[2] - 1)) / 6) * (1 - max(0, min(6, dfn[2] - 1)) / 6)
        shots = (volley(att[0]), volley(dfn[0]))
    else:
        fail = 0.0
        shots = (volley(att[0] - 1), volley(dfn[0] - 1))
    states = {(0, 0): 1.0}  # (hits on the attacker, hits on the defender) -> probability
    wins = [0.0, 0.0]
    for _ in range(ROUNDS):
        following: dict[tuple[int, int], float] = defaultdict(float)
        for (on_att, on_dfn), p in states.items():
            following[(on_att, on_dfn)] += p * fail
            for to_dfn, p_a in shots[0].items():
                for to_att, p_d in shots[1].items():
                    q = p * (1 - fail) * p_a * p_d
                    att_sunk = on_att + to_att >= att[1]
                    dfn_sunk = on_dfn + to_dfn >= dfn[1]
                    if dfn_sunk and not att_sunk:
                        wins[0] += q
                    elif att_sunk and not dfn_sunk:
                        wins[1] += q
                    elif not att_sunk:
                        following[(on_att + to_att, on_dfn + to_dfn)] += q
        states = following
    return wins[0], wins[1]


def simulate(att, dfn, stance, seed):
    dice = SimulationDice(seed)
    sides = (NavalSide("attacker", 1, (NavalShip(1, "a", *att),), stance),
             NavalSide("defender", 2, (NavalShip(2, "d", *dfn),), stance))
    wins = {"attacker": 0, "defender": 0, None: 0}
    for _ in range(BATTLES):
        out = resolve_naval_battle(dice, *sides, max_rounds=ROUNDS, record_events=False)
        wins[out.winner] += 1
    return wins["attacker"] / BATTLES, wins["defender"] / BATTLES


@pytest.mark.slow
@pytest.mark.parametrize(("att", "dfn", "stance", "near"), [
    ((4, 7, 3), (4, 6, 4), "approach", True),  # about 0.51 / 0.32
    ((5, 8, 2), (5, 9, 5), "hold", False),  # about 0.34 / 0.51
])
def test_r_nav_gunfire_duel_win_rates_match_the_markov_chain(att, dfn, stance, near):
    expected = exact(att, dfn, near)
    observed = simulate(att, dfn, stance, seed=20261122)
    for p, seen in zip(expected, observed, strict=True):
        assert 0.05 < p < 0.95  # a meaningful comparison
        # 5 standard errors of a binomial proportion: a false alarm about once in 3.5 million
        tolerance = 5 * math.sqrt(p * (1 - p) / BATTLES)
        assert abs(seen - p) < tolerance, (expected, observed)


def test_markov_chain_sanity():
    # a ship that can not hit never wins; certain hits on a 1-defence ship win in round one
    assert exact((0, 5, 3), (6, 100, 3), near=False)[0] == 0
    wins = exact((3, 100, 7), (0, 1, 1), near=True)
    assert wins == pytest.approx((1 - (1 / 2) ** ROUNDS, 0))  # agility 7 never fails
