"""Tabletop battle results (R-BAT-3): which outcome the victory points allow."""

from __future__ import annotations

from rules.violation import RuleViolation

OUTCOMES = ("victory", "moral_victory", "draw", "defeat")  # R-BAT-3, attacker's side
WON_OUTCOMES = ("victory", "moral_victory")  # R-BAT-3: won attacks
MORAL_VICTORY = "moral_victory"


def check_result(outcome: str, attacker_vp: int, defender_vp: int) -> None:
    """R-BAT-3: a ``moral_victory`` (mission objectives drawn) needs the attacker ahead on
    points, attacker VP above defender VP. Every other outcome allows any victory points.
    Raises ``RuleViolation`` naming R-BAT-3 otherwise."""
    if outcome == MORAL_VICTORY and not attacker_vp > defender_vp:
        raise RuleViolation(
            "R-BAT-3", f"a moral victory needs the attacker ahead on points: attacker VP "
                       f"{attacker_vp} is not above defender VP {defender_vp}.",
            key="moral_victory_points", params={"attacker_vp": attacker_vp,
                                                "defender_vp": defender_vp})
