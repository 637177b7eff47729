"""D6-system dice codes ``nD+p`` (R-DICE-1, R-SPC-1) and their arithmetic.

A code never holds fewer than 0 dice: losing dice stops at 0D (R-SPC-6). Pips may be negative
(``1D-1`` is a valid D6 code), but the helpers here only ever add to them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import Dice, WildRoll, wild_roll

_CODE = re.compile(r"^\s*(\d+)\s*[dD]\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class DiceCode:
    """n dice plus p pips (R-DICE-1)."""

    dice: int
    pips: int = 0

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise ValueError(f"a dice code has at least 0 dice, not {self.dice}")

    def __str__(self) -> str:
        return format_code(self)

    def __add__(self, other: DiceCode) -> DiceCode:
        """Two codes rolled together as one roll (R-SPC-4 targeting + gun damage)."""
        return DiceCode(self.dice + other.dice, self.pips + other.pips)


ZERO = DiceCode(0, 0)


def parse_code(text: str) -> DiceCode:
    """``"2D+1"`` -> DiceCode(2, 1); accepts ``2D``, ``2d+1``, ``1D-1`` (R-DICE-1)."""
    match = _CODE.match(text)
    if not match:
        raise ValueError(f"not a dice code: {text!r} (expected nD+p)")
    dice, sign, pips = match.groups()
    value = int(pips) if pips else 0
    return DiceCode(int(dice), -value if sign == "-" else value)


def format_code(code: DiceCode) -> str:
    """DiceCode(2, 1) -> ``"2D+1"``; no pips -> ``"2D"``; negative pips -> ``"1D-1"``."""
    if code.pips == 0:
        return f"{code.dice}D"
    return f"{code.dice}D{code.pips:+d}"


def lose_dice(code: DiceCode, n: int = 1) -> DiceCode:
    """The code after losing n dice, never below 0D (R-SPC-6)."""
    return DiceCode(max(0, code.dice - n), code.pips)


def add_dice(code: DiceCode, n: int = 1) -> DiceCode:
    return DiceCode(code.dice + n, code.pips)


def add_pips(code: DiceCode, n: int = 1) -> DiceCode:
    return DiceCode(code.dice, code.pips + n)


def roll_code(dice: Dice, code: DiceCode, purpose: str, extra_pips: int = 0) -> WildRoll:
    """Roll a code with the wild die (R-DICE-5) as one draw; 0D rolls no dice (no draw)."""
    if code.dice <= 0:
        total = code.pips + extra_pips
        return WildRoll(total, (), False, 0, total)
    return wild_roll(dice, code.dice, code.pips + extra_pips, purpose)
