"""Odds previews (R-ODDS-1): the exact chance of a conquest roll and the outcome distribution of
a naval battle between two given fleets, by Monte Carlo with the real engines.

The battles are fought with ``SimulationDice``, an ordinary seeded PRNG: never the round's
stream, and nothing is logged (R-DICE-4). From ``MIN_SIMULATIONS`` to ``SIMULATIONS`` battles
are asked for (the API's and the page's bounds); each outcome comes as a fraction of the
battles fought with a 95% Wilson score interval.

When a preview stops (R-ODDS-1, ``preview_stop``): at the battles asked for (``requested``),
or early, never before ``MIN_SIMULATIONS`` battles, once every outcome's 95% interval is at
most ``TARGET_HALF_WIDTH`` (1 percentage point) either side (``precise``) or its work
``budget`` is spent (``work_budget``). The result says how many battles ran and why. Nothing
reads a clock: the same seed stops at the same battle on an idle and on a loaded server.

- [decision] Work is counted in dice: the random bytes the battles draw from the PRNG (read in
  blocks of ``rules.dice.BLOCK_BYTES``) plus ``SHIP_WORK`` per ship in each battle, the engine
  steps a battle takes beside its dice. Measured on the sources, one unit costs 65-110 ns on
  every engine and fleet size, so ``WORK_BUDGET`` is 1.2-2 s of one core for the sources
  and under 1 s for the compiled engines. The count depends only on the dice, so the same
  seed stops at the same battle.
- [decision] Precision is checked every ``CHECK_EVERY`` battles from ``MIN_SIMULATIONS`` on (so
  a one-sided battle is not called after a handful, and peeking often does not wear down the
  95% coverage); the budget after every battle from ``MIN_SIMULATIONS`` on. The heaviest
  previews found (12 ships a side, up to 100 rounds) take 7,000-19,000 units a battle, so the
  first 1,000 battles stay within about the budget: the budget alone bounds a preview's cost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import sqrt

from rules.conquest import success_probability
from rules.dice import Dice, SimulationDice
from rules.naval import fleet_stance, naval_battle_winner, naval_side
from rules.space import space_battle_winner, space_side

__all__ = ["ENGINES", "MIN_SIMULATIONS", "OUTCOMES", "SIMULATIONS", "STOP_REASONS",
           "TARGET_HALF_WIDTH", "WORK_BUDGET", "OddsResult", "conquest_odds", "naval_odds",
           "preview_stop", "success_probability", "wilson_interval"]

DARK_FORCE, D6_SPACE = "dark_force", "d6_space"
ENGINES = (DARK_FORCE, D6_SPACE)  # the ruleset's ``naval_engine`` values (R-SPC)
SIMULATIONS = 10_000  # R-ODDS-1: the default and largest number of battles asked for
MIN_SIMULATIONS = 1_000  # R-ODDS-1: no fewer are asked for, and no preview stops before
OUTCOMES = ("attacker_wins", "defender_wins", "undecided")
Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
# When a preview stops (module docstring): R-ODDS-1's precision, the work units, the reasons
TARGET_HALF_WIDTH = 0.01  # R-ODDS-1: 1 percentage point either side
SHIP_WORK = 94  # work units per ship per battle beside its dice (fitted on bench/engines.py)
WORK_BUDGET = 18_000_000  # 1.2-2 s of one core for the sources, under 1 s compiled
CHECK_EVERY = 100  # battles between precision checks
REQUESTED, PRECISE, BUDGET_SPENT = "requested", "precise", "work_budget"
STOP_REASONS = (REQUESTED, PRECISE, BUDGET_SPENT)
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
    is undecided. ``ci95`` maps each outcome of ``OUTCOMES`` to its 95% interval.
    ``requested`` battles were asked for; ``stop_reason`` says why the preview stopped (one of
    ``STOP_REASONS``: "requested" when all of them were fought); ``work`` is the work units
    spent."""

    simulations: int
    attacker_wins: float
    defender_wins: float
    undecided: float
    ci95: dict[str, tuple[float, float]]
    requested: int = 0
    stop_reason: str = REQUESTED
    work: int = 0

    @property
    def half_width(self) -> float:
        """The widest interval's half-width: the preview's precision."""
        return max((high - low) / 2 for low, high in self.ci95.values())

    def as_dict(self) -> dict:
        return {"simulations": self.simulations, "attacker_wins": self.attacker_wins,
                "defender_wins": self.defender_wins, "undecided": self.undecided,
                "ci95": {name: list(bounds) for name, bounds in self.ci95.items()},
                "requested_simulations": self.requested or self.simulations,
                "stopped_early": self.stop_reason != REQUESTED, "stop_reason": self.stop_reason,
                "half_width": self.half_width}


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


def preview_stop(*, fought: int, requested: int, counts: Iterable[int], work: int,
                 budget: int | None = WORK_BUDGET,
                 half_width: float | None = TARGET_HALF_WIDTH) -> str | None:
    """R-ODDS-1: why a preview stops after ``fought`` battles with ``counts`` per outcome and
    ``work`` units spent, or None to fight on. "requested" at the battles asked for; never an
    early stop before ``MIN_SIMULATIONS`` battles; then "precise" at a check (every
    ``CHECK_EVERY`` battles) where every outcome's 95% Wilson interval is at most
    ``half_width`` either side, "work_budget" once ``budget`` units are spent. None for
    ``budget`` or ``half_width``: no such stop."""
    if fought >= requested:
        return REQUESTED
    if fought < MIN_SIMULATIONS:
        return None
    if half_width is not None and fought % CHECK_EVERY == 0 and _tight(counts, fought,
                                                                       half_width):
        return PRECISE
    if budget is not None and work >= budget:
        return BUDGET_SPENT
    return None


def naval_odds(engine: str, attacker: Mapping, defender: Mapping, *,
               simulations: int = SIMULATIONS, seed: int | None = None,
               max_rounds: int = 12, start_distance_cm: int = 30,
               advantage: str | None = None, retreat_possible: bool = True,
               budget: int | None = None, precision: float | None = None) -> OddsResult:
    """R-ODDS-1: fight up to ``simulations`` battles between two fleets given as dicts in the
    API's fleet shape (``{"ships": [...], "stance": ...}``, see ``rules.ship_values``) with the
    real engine ``engine`` (R-NAV or R-SPC) and count who wins. ``max_rounds`` and
    ``start_distance_cm`` are the ruleset's (R-NAV-11, R-SPC-2, R-SPC-8), ``advantage`` the
    side holding the interception advantage (R-INT-4 a), ``retreat_possible`` whether a Dark
    Force retreat finds an area (R-NAV-12). The same seed gives the same result; None seeds
    from the OS. Bad input raises ValueError naming the field.

    Stops as ``preview_stop`` says, with this ``budget`` of work units and ``precision`` as
    the half-width (the API's previews: ``WORK_BUDGET`` and ``TARGET_HALF_WIDTH``); None: no
    such stop, all ``simulations`` battles are fought."""
    _check_settings(simulations, max_rounds, start_distance_cm, advantage)
    _check_bounds(budget, precision)
    fight = _battle(engine, attacker, defender, max_rounds=max_rounds,
                    start_distance_cm=start_distance_cm, advantage=advantage,
                    retreat_to=SOMEWHERE if retreat_possible else None)
    dice = _MeteredDice(seed)  # R-DICE-4: a PRNG of its own, never logged
    ships = _ship_count(attacker) + _ship_count(defender)
    wins = {"attacker": 0, "defender": 0, None: 0}
    fought, reason = 0, None
    while reason is None:
        wins[fight(dice)] += 1
        fought += 1
        reason = preview_stop(fought=fought, requested=simulations, counts=wins.values(),
                              work=dice.drawn + SHIP_WORK * ships * fought, budget=budget,
                              half_width=precision)
    counts = dict(zip(OUTCOMES, (wins["attacker"], wins["defender"], wins[None]), strict=True))
    return OddsResult(fought, *(counts[name] / fought for name in OUTCOMES),
                      ci95={name: wilson_interval(counts[name], fought) for name in OUTCOMES},
                      requested=simulations, stop_reason=reason,
                      work=dice.drawn + SHIP_WORK * ships * fought)


class _MeteredDice(SimulationDice):
    """``SimulationDice`` that count the random bytes their face streams draw: the dice part
    of a preview's work, deterministic for a seed."""

    def __init__(self, seed: int | None = None):
        self.drawn = 0
        super().__init__(seed)

    def _block(self, sides: int) -> bytes | list[int]:
        block = super()._block(sides)
        self.drawn += len(block)
        return block


def _ship_count(fleet: Mapping) -> int:
    ships = fleet.get("ships") if isinstance(fleet, Mapping) else None
    return len(ships) if isinstance(ships, list | tuple) else 0


def _tight(counts: Iterable[int], fought: int, precision: float) -> bool:
    """Whether every outcome's 95% interval is at most ``precision`` either side."""
    for count in counts:
        low, high = wilson_interval(count, fought)
        if high - low > 2 * precision:
            return False
    return True


def _check_bounds(budget: int | None, precision: float | None) -> None:
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                               or budget < 1):
        raise ValueError("budget: expected a positive integer or None")
    if precision is not None and (isinstance(precision, bool)
                                  or not isinstance(precision, int | float)
                                  or not precision > 0):
        raise ValueError("precision: expected a positive number or None")


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
