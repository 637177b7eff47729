"""Odds previews (R-ODDS-1): the exact chance of a conquest roll and the outcome distribution of
a naval battle between two given fleets, by Monte Carlo with the real engines.

The battles are fought with ``SimulationDice``, an ordinary seeded PRNG: never the round's
stream, and nothing is logged (R-DICE-4). At least ``MIN_SIMULATIONS`` battles are fought; each
outcome comes as a fraction of them with a 95% Wilson score interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import sqrt

from rules.conquest import success_probability
from rules.dice import Dice, SimulationDice
from rules.naval import fleet_stance, naval_battle_winner, naval_side
from rules.space import space_battle_winner, space_side

__all__ = ["ENGINES", "MIN_SIMULATIONS", "OUTCOMES", "OddsResult", "conquest_odds",
           "naval_odds", "success_probability", "wilson_interval"]

DARK_FORCE, D6_SPACE = "dark_force", "d6_space"
ENGINES = (DARK_FORCE, D6_SPACE)  # the ruleset's ``naval_engine`` values (R-SPC)
MIN_SIMULATIONS = 10_000  # R-ODDS-1
OUTCOMES = ("attacker_wins", "defender_wins", "undecided")
Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
# [reading] A preview knows no map: a withdrawing fleet is assumed to find an area to retreat to
# (R-NAV-12), unless the caller says otherwise. The area id is a placeholder.
SOMEWHERE = 0


def conquest_odds(threshold: int, modifier_total: int) -> Fraction:
    """R-ODDS-1, R-CON-7: the exact chance of a conquest roll, P(2d6 + modifiers >= threshold)
    (``rules.conquest.success_probability``)."""
    return success_probability(threshold, modifier_total)


@dataclass(frozen=True)
class OddsResult:
    """The outcome distribution of ``simulations`` battles (R-ODDS-1). A side wins when the
    other has no ships left and it has; everything else (both gone, the round cap, a retreat)
    is undecided. ``ci95`` maps each outcome of ``OUTCOMES`` to its 95% interval."""

    simulations: int
    attacker_wins: float
    defender_wins: float
    undecided: float
    ci95: dict[str, tuple[float, float]]

    def as_dict(self) -> dict:
        return {"simulations": self.simulations, "attacker_wins": self.attacker_wins,
                "defender_wins": self.defender_wins, "undecided": self.undecided,
                "ci95": {name: list(bounds) for name, bounds in self.ci95.items()}}


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion: the p whose normal test does not
    reject ``successes`` of ``trials`` at level z. Unlike p +- z*se it stays inside [0, 1] and
    does not collapse to a point at 0 or ``trials`` successes."""
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError("need 0 <= successes <= trials and at least one trial")
    p = successes / trials
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = z * sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / scale
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def naval_odds(engine: str, attacker: Mapping, defender: Mapping, *,
               simulations: int = MIN_SIMULATIONS, seed: int | None = None,
               max_rounds: int = 12, start_distance_cm: int = 30,
               advantage: str | None = None, retreat_possible: bool = True) -> OddsResult:
    """R-ODDS-1: fight ``simulations`` battles between two fleets given as dicts in the API's
    fleet shape (``{"ships": [...], "stance": ...}``, see ``rules.ship_values``) with the real
    engine ``engine`` (R-NAV or R-SPC) and count who wins. ``max_rounds`` and
    ``start_distance_cm`` are the ruleset's (R-NAV-11, R-SPC-2, R-SPC-8), ``advantage`` the
    side holding the interception advantage (R-INT-4 a), ``retreat_possible`` whether a Dark
    Force retreat finds an area (R-NAV-12). The same seed gives the same result; None seeds
    from the OS. Bad input raises ValueError naming the field."""
    _check_settings(simulations, max_rounds, start_distance_cm, advantage)
    fight = _battle(engine, attacker, defender, max_rounds=max_rounds,
                    start_distance_cm=start_distance_cm, advantage=advantage,
                    retreat_to=SOMEWHERE if retreat_possible else None)
    dice = SimulationDice(seed)  # R-DICE-4: a PRNG of its own, never logged
    wins = {"attacker": 0, "defender": 0, None: 0}
    for _ in range(simulations):
        wins[fight(dice)] += 1
    counts = dict(zip(OUTCOMES, (wins["attacker"], wins["defender"], wins[None]), strict=True))
    return OddsResult(simulations, *(counts[name] / simulations for name in OUTCOMES),
                      ci95={name: wilson_interval(counts[name], simulations)
                            for name in OUTCOMES})


def _check_settings(simulations: int, max_rounds: int, start_distance_cm: int,
                    advantage: str | None) -> None:
    """The preview's own arguments; rounds and distance bounded as by the ruleset."""
    for name, value, low, high in (("simulations", simulations, MIN_SIMULATIONS, 10**7),
                                   ("max_rounds", max_rounds, 1, 100),
                                   ("start_distance_cm", start_distance_cm, 10, 200)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name}: expected an integer from {low} to {high}")
    if advantage not in (None, "attacker", "defender"):
        raise ValueError("advantage: expected attacker, defender or None")


def _battle(engine: str, attacker: Mapping, defender: Mapping, *, max_rounds: int,
            start_distance_cm: int, advantage: str | None,
            retreat_to: int | None) -> Callable[[Dice], str | None]:
    """One battle of ``engine`` between the converted fleets, as a function of the dice that
    returns the winner (None: undecided)."""
    if engine == DARK_FORCE:
        side_a = naval_side("attacker", attacker, retreat_to=retreat_to)
        side_d = naval_side("defender", defender, first_id=len(side_a.ships) + 1,
                            retreat_to=retreat_to)
        return partial(naval_battle_winner, attacker=side_a, defender=side_d,
                       max_rounds=max_rounds, advantage=advantage)
    if engine == D6_SPACE:
        side_a = space_side("attacker", attacker)
        side_d = space_side("defender", defender, first_id=len(side_a.ships) + 1)
        fleet_stance(attacker, "attacker")  # checked, though D6 battles have no maneuvers
        fleet_stance(defender, "defender")
        return partial(space_battle_winner, attacker=side_a, defender=side_d,
                       max_rounds=max_rounds, start_distance_cm=start_distance_cm,
                       advantage=advantage)
    raise ValueError(f"engine: expected one of {', '.join(ENGINES)}")
