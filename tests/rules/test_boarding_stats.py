"""Statistics: boarding duels (R-BRD-1..4) fought with SimulationDice on the odds-preview path
(no events) against exact outcome probabilities of a Markov chain written here from the rule
text, independently of the engine.

The chain: the bottom characters fight (on a single-seat ship only the combat card, R-BRD-1);
each has floor(cp / 6) red and green d8 (R-BRD-1); a red die hits on 4 of 8 faces, a green die
evades on 3 of 8 (R-BRD-2). In an exchange the character with more cp attacks first, the
boarders on a tie; an attack deals max(0, hits - evades) body hits, two overwhelm a character
and the rest are lost; an overwhelmed character does not strike back, and the loser's next
character fights in the next exchange (R-BRD-3). The duel ends when a side has no characters,
or after 20 exchanges in a row without a body hit (the boarding is repelled, R-BRD-4).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

from rules.boarding import Character, duel
from rules.dice import SimulationDice

DUELS = 20_000


@cache
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    return tuple(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@cache
def dealt(attack_dice: int, defence_dice: int, one_per_attack: bool) -> dict[int, Fraction]:
    """Distribution of the body hits one attack deals: max(0, hits - evades) (R-BRD-3), or
    with ``one_per_attack`` the old reading (one body hit per successful attack)."""
    out: dict[int, Fraction] = {}
    for hits, p in enumerate(binomial(attack_dice, Fraction(1, 2))):
        for evades, q in enumerate(binomial(defence_dice, Fraction(3, 8))):
            body = max(0, hits - evades)
            if one_per_attack:
                body = min(body, 1)
            out[body] = out.get(body, 0) + p * q
    return out


def exact(boarders: list[int], defenders: list[int],
          one_per_attack: bool = False) -> tuple[Fraction, Fraction, Fraction]:
    """(P captured, P boarders overwhelmed, P stalemate) of the fighting stacks' cp."""

    @cache
    def state(front_b: int, front_d: int, wounds_b: int, wounds_d: int,
              quiet: int) -> tuple[Fraction, Fraction, Fraction]:
        if front_d == len(defenders):
            return Fraction(1), Fraction(0), Fraction(0)
        if front_b == len(boarders):
            return Fraction(0), Fraction(1), Fraction(0)
        if quiet == 20:
            return Fraction(0), Fraction(0), Fraction(1)
        cp = (boarders[front_b], defenders[front_d])
        first = 0 if cp[0] >= cp[1] else 1
        total = [Fraction(0)] * 3
        fronts, wounds = [front_b, front_d], [wounds_b, wounds_d]

        def after(fronts, wounds, landed, p):
            nxt = state(fronts[0], fronts[1], wounds[0], wounds[1], 0 if landed else quiet + 1)
            for i in range(3):
                total[i] += p * nxt[i]

        for body1, p1 in dealt(cp[first] // 6, cp[1 - first] // 6, one_per_attack).items():
            w1 = list(wounds)
            target = 1 - first
            w1[target] += body1
            if w1[target] >= 2:  # overwhelmed: the next character, no strike back
                f1 = list(fronts)
                f1[target] += 1
                w1[target] = 0
                after(f1, w1, True, p1)
                continue
            for body2, p2 in dealt(cp[1 - first] // 6, cp[first] // 6, one_per_attack).items():
                w2, f2 = list(w1), list(fronts)
                w2[first] += body2
                if w2[first] >= 2:
                    f2[first] += 1
                    w2[first] = 0
                after(f2, w2, body1 > 0 or body2 > 0, p1 * p2)
        return total[0], total[1], total[2]

    return state(0, 0, 0, 0, 0)


def simulate(boarders, defenders, seats, seed):
    dice = SimulationDice(seed)
    counts = [0, 0, 0]
    for _ in range(DUELS):
        result = duel(dice, boarders, defenders, record_events=False, defenders_seats=seats)
        counts[0 if result.captured else 2 if result.stalemate else 1] += 1
    return [c / DUELS for c in counts]


def test_markov_chain_sanity():
    # characters without dice never land a blow: the 20-exchange stalemate
    assert exact([5], [5]) == (0, 0, 1)
    # one die deals at most one body hit: both readings agree
    assert exact([6], [6, 6]) == exact([6], [6, 6], one_per_attack=True)
    for fight in (exact([12], [6, 6]), exact([30], [12, 12, 12], one_per_attack=True)):
        assert sum(fight) == 1 and all(0 <= p <= 1 for p in fight)


@pytest.mark.slow
@pytest.mark.parametrize(("boarders", "defenders", "seats", "fighting", "alternative"), [
    # R-BRD-3: compared with one body hit per attack
    ([Character("B", 12)], [Character("D1", 6), Character("D2", 6)], None, [6, 6],
     exact([12], [6, 6], one_per_attack=True)),
    ([Character("B", 30)], [Character(f"D{k}", 12) for k in range(3)], 2, [12, 12, 12],
     exact([30], [12, 12, 12], one_per_attack=True)),
    # R-BRD-1 single-seat: only the combat card (12 cp) fights; compared with the pilot card
    # (30 cp) fighting after it
    ([Character("B", 18)], [Character("combat", 12), Character("pilot", 30)], 1, [12],
     exact([18], [12, 30])),
])
def test_r_brd_duel_outcomes_match_the_markov_chain(boarders, defenders, seats, fighting,
                                                   alternative):
    expected = exact([c.cp for c in boarders], fighting)
    observed = simulate(boarders, defenders, seats, seed=20261122)
    for p, seen in zip(expected, observed, strict=True):
        # 5 standard errors of a binomial proportion: a false alarm about once in 3.5 million
        tolerance = 5 * math.sqrt(float(p * (1 - p)) / DUELS) + 1e-4
        assert abs(seen - float(p)) < tolerance, (expected, observed)
    # and the test tells the rule from the alternative reading
    assert abs(float(expected[0] - alternative[0])) > 10 * math.sqrt(0.25 / DUELS)
