"""The maneuver step of a naval battle round (R-NAV-3, R-FLT-5, R-NAV-9)."""

from __future__ import annotations

from typing import NamedTuple

from rules.dice import Dice
from rules.naval_model import (
    APPROACH,
    AUTO,
    FAR,
    NEAR,
    SIDES,
    WITHDRAW,
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
             agility: tuple[int, int], bonus: tuple[int, int] = (0, 0)) -> ManeuverResult:
    """R-NAV-3 with resolved stances; every pair is (attacker, defender). ``agility`` is each
    fleet's lowest; ``bonus`` lowers a side's roll for its success test (R-NAV-9), not for the
    comparison of who rolled higher."""
    if stances[0] == stances[1]:
        new, retreat = move(distance, stances[0])
        return ManeuverResult(new, SIDES if retreat else (), None, (), ())
    # both fleets roll at once: one draw, attacker's face first
    rolls = dice.roll(2, 6, f"naval:r{round_no}:maneuver")
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
