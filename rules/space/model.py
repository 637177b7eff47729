"""Inputs and outputs of the D6 space combat engine (R-SPC-1, R-SPC-8, R-FLT-3).

Re-exported by ``rules.space``; import from there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from rules.dicecode import DiceCode, format_code, parse_code
from rules.ship_values import CODE_SYSTEMS

SIDES: Final = ("attacker", "defender")  # Final: compiled code reads the value


@dataclass(frozen=True)
class Datasheet:
    """R-SPC-1: initiative set (maneuver, speed), attack set (targeting, gun_damage), defence set
    (shields, hull). Codes may be given as strings (``"2D+1"``); speed is a plain number."""

    maneuver: DiceCode
    speed: int
    targeting: DiceCode
    gun_damage: DiceCode
    shields: DiceCode
    hull: DiceCode

    def __post_init__(self) -> None:
        for name in CODE_SYSTEMS:
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, parse_code(value))
            elif not isinstance(value, DiceCode):
                raise TypeError(f"{name} must be a DiceCode or a code string")
        if self.speed < 0:
            raise ValueError("speed must be at least 0")

    def code(self, system: str) -> DiceCode:
        return getattr(self, system)

    def as_dict(self) -> dict:
        data: dict = {name: format_code(getattr(self, name)) for name in CODE_SYSTEMS}
        data["speed"] = self.speed
        return data


@dataclass(frozen=True)
class Captain:
    """R-SPC-1: +1D to ``dice_system`` and +1 pip to another system while alive.

    [reading] Speed is a plain number: it may take the +1 pip (as +1 speed), not the +1D."""

    dice_system: str
    pip_system: str
    name: str = ""

    def __post_init__(self) -> None:
        if self.dice_system not in CODE_SYSTEMS:
            raise ValueError(f"captain dice bonus must go to one of {CODE_SYSTEMS}")
        if self.pip_system not in (*CODE_SYSTEMS, "speed"):
            raise ValueError("captain pip bonus must go to a system or speed")
        if self.pip_system == self.dice_system:
            raise ValueError("captain bonuses go to two different systems")


@dataclass(frozen=True)
class SpaceShip:
    id: int
    name: str
    datasheet: Datasheet
    captain: Captain | None = None

    def __post_init__(self) -> None:
        if self.datasheet.hull.dice < 1:
            raise ValueError(f"ship {self.id} starts with hull 0D")


@dataclass(frozen=True)
class SpaceSide:
    key: str
    player: int | None
    ships: tuple[SpaceShip, ...]

    def __post_init__(self) -> None:
        if self.key not in SIDES:
            raise ValueError(f"side key must be one of {SIDES}")
        object.__setattr__(self, "ships", tuple(self.ships))


@dataclass(frozen=True)
class ShipResult:
    """A ship after the battle. ``datasheet`` is what it would roll now (damage taken, captain
    bonus included while the captain lives); ``damage`` counts dice lost per system and speed
    points lost under ``"speed"``, not yet repaired."""

    id: int
    name: str
    side: str
    status: str  # "active" | "destroyed"
    datasheet: Datasheet
    damage: dict = field(default_factory=dict)
    captain_alive: bool = False
    bridge_hit: bool = False


@dataclass(frozen=True)
class SpaceOutcome:
    """R-SPC-8: ``winner`` is the side with active ships when the other has none, else None."""

    winner: str | None
    rounds: int
    reason: str  # "annihilation" | "max_rounds"
    ships: tuple[ShipResult, ...]
    events: tuple[dict, ...]

    def ship(self, ship_id: int) -> ShipResult:
        return next(s for s in self.ships if s.id == ship_id)


def combat_factor(ships: Iterable[SpaceShip]) -> int:
    """R-FLT-3 (D6 engine): the sum of the ships' gun damage dice.

    [reading] From the datasheet, without a captain's bonus."""
    return sum(ship.datasheet.gun_damage.dice for ship in ships)
