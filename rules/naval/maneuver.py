"""The maneuver step of a naval battle round (R-NAV-3, R-FLT-5, R-NAV-9) and the choice of the
area a retreat goes to (R-NAV-12)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rules.dice import Dice
from rules.naval.model import (
    APPROACH,
    AUTO,
    FAR,
    NEAR,
    SIDES,
    WITHDRAW,
    RetreatOption,
)


def resolve_stance(stance: str, own_cf: int, enemy_cf: int) -> str:
    """R-FLT-5: ``auto`` approaches if own CF >= enemy CF, else withdraws."""
    if stance != AUTO:
        return stance
    return APPROACH if own_cf >= enemy_cf else WITHDRAW


def move(distance: str, stance: str) -> tuple[str, bool]:
    """One side's maneuver applied (R-NAV-3): the new distance and whether that side retreats.
    Approach: near. Hold: unchanged. Withdraw: near -> far, far -> retreat."""
    if stance == APPROACH:
        return NEAR, False
    if stance == WITHDRAW:
        return FAR, distance == FAR
    return distance, False


class ManeuverResult(NamedTuple):
    """``retreating``: the sides whose maneuver calls for a retreat (R-NAV-12 decides whether
    it succeeds). ``imposed_by``: the side whose maneuver applied after different choices.
    ``rolls`` and ``success``: (attacker, defender), empty when both chose the same."""

    distance: str
    retreating: tuple[str, ...]
    imposed_by: str | None
    rolls: tuple[int, ...]
    success: tuple[bool, ...]


def maneuver(dice: Dice, round_no: int, distance: str, stances: tuple[str, str],
             agility: tuple[int, int], bonus: tuple[int, int] = (0, 0), *,
             d6: Callable[[], int] | None = None) -> ManeuverResult:
    """R-NAV-3 with resolved stances; every pair is (attacker, defender). ``agility`` is each
    fleet's lowest; ``bonus`` lowers a side's roll for its success test (R-NAV-9), not for the
    comparison of who rolled higher. ``d6``: the next face of ``SimulationDice``'s d6 stream
    (odds previews, ``rules.dice.simulation_faces``), read instead of ``dice.roll``."""
    if stances[0] == stances[1]:
        new, retreat = move(distance, stances[0])
        return ManeuverResult(new, SIDES if retreat else (), None, (), ())
    # both fleets roll at once: one draw, attacker's face first
    rolls = dice.roll(2, 6, f"naval:r{round_no}:maneuver") if d6 is None else (d6(), d6())
    success = (rolls[0] - bonus[0] < agility[0], rolls[1] - bonus[1] < agility[1])
    if success[0] and success[1]:  # the higher roll imposes; equal rolls: nobody
        winner = 0 if rolls[0] > rolls[1] else 1 if rolls[1] > rolls[0] else None
    elif success[0] or success[1]:
        winner = 0 if success[0] else 1
    else:
        winner = None
    if winner is None:
        return ManeuverResult(distance, (), None, rolls, success)
    new, retreat = move(distance, stances[winner])
    side = SIDES[winner]
    return ManeuverResult(new, (side,) if retreat else (), side, rolls, success)


def choose_retreat(neighbours: Sequence[RetreatOption]) -> int | None:
    """R-NAV-12: an own, uncontested adjacent area first, else any uncontested one; among
    several the lowest area id; None if there is none (the retreat fails). The caller passes
    the result as ``NavalSide.retreat_to`` and, after a retreat into an area that is not the
    player's own, triggers that area's sea hazards (``hazard_exchange``, R-SEA-2)."""
    own = [n.area_id for n in neighbours if n.own and not n.contested]
    if own:
        return min(own)
    free = [n.area_id for n in neighbours if not n.contested]
    return min(free) if free else None
