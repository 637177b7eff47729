"""Inputs and outputs of the Dark Force naval engine (R-NAV, R-SEA-2): frozen dataclasses and
named tuples; and the combat factor (R-FLT-3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from rules.boarding import Character

# Final: the compiled engines (``pyproject.toml``) then use the values, not a lookup by name
ATTACKER: Final = "attacker"
DEFENDER: Final = "defender"
SIDES: Final = (ATTACKER, DEFENDER)
FAR: Final = "far"
NEAR: Final = "near"
APPROACH: Final = "approach"
HOLD: Final = "hold"
WITHDRAW: Final = "withdraw"
AUTO: Final = "auto"
STANCES: Final = (APPROACH, HOLD, WITHDRAW, AUTO)
AFLOAT: Final = "afloat"
SUNK: Final = "sunk"
CAPTURED: Final = "captured"
RETREATED: Final = "retreated"


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


@dataclass(frozen=True)
class NavalShip:
    """A ship (R-FLT-2): ``attack`` [``defence``], ``agility``; ``crew`` bottom first (R-BRD-1);
    ``cargo`` the embarked detachments in army points; ``seats`` of its class (R-VP-1);
    ``hits`` it carries into the fight (R-SEA-2: a flagship's hits from sea hazards in the same
    area and ``fleets`` phase count in the battle there; a sea hazard's own hits add up over
    the campaign), below its defence."""

    id: int
    name: str
    attack: int
    defence: int
    agility: int
    crew: tuple[Character, ...] = ()
    cargo: tuple[int, ...] = ()
    seats: int | None = None
    hits: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "crew", tuple(self.crew))  # lists given by callers too
        object.__setattr__(self, "cargo", tuple(self.cargo))
        if self.attack < 0 or self.agility < 0 or self.defence < 1:
            raise ValueError(f"ship {self.id}: attack and agility >= 0, defence >= 1")
        if not 0 <= self.hits < self.defence:
            raise ValueError(f"ship {self.id}: hits from 0 to below its defence")
        if any(points < 0 for points in self.cargo):
            raise ValueError(f"ship {self.id}: a detachment can not have negative points")


@dataclass(frozen=True)
class NavalSide:
    """One side of a battle: its line in order (flagship first, R-NAV-1), its stance (R-FLT-5)
    and ``retreat_to``, the area a retreat goes to (``choose_retreat``; None: retreat fails)."""

    key: str
    player: int | None
    ships: tuple[NavalShip, ...]
    stance: str = AUTO
    retreat_to: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "ships", tuple(self.ships))
        if self.key not in SIDES:
            raise ValueError(f"side key must be one of {SIDES}, not {self.key!r}")
        if self.stance not in STANCES:
            raise ValueError(f"stance must be one of {STANCES}, not {self.stance!r}")


@dataclass(frozen=True)
class RetreatOption:
    """An area adjacent to the battle (R-NAV-12): ``own`` and ``contested`` as defined there."""

    area_id: int
    own: bool
    contested: bool


class ShipResult(NamedTuple):
    """A ship's final state. ``state``: afloat | sunk | captured | retreated. ``holder``: the
    side the ship belongs to after the battle (None: sunk, or a prize destroyed, R-NAV-8).
    ``hits``: hull hits taken in the battle (cleared afterwards, R-NAV-7). ``crew``/``cargo``:
    what is aboard afterwards; ``*_destroyed`` what R-NAV-7 hit allocation destroyed;
    ``crew_overwhelmed`` the characters lost in boarding duels. (Named tuples for the per-ship
    records: cheap to build in odds previews.)"""

    ship_id: int
    side: str
    state: str
    holder: str | None
    captured_by: str | None
    hits: int
    crew: tuple[Character, ...]
    cargo: tuple[int, ...]
    cargo_destroyed: tuple[int, ...]
    crew_destroyed: tuple[Character, ...]
    crew_overwhelmed: tuple[Character, ...]


class Capture(NamedTuple):
    """A captured ship (R-NAV-8): who took it in which round, where it ends up (None:
    destroyed) and the victory points it scored for the capturer (R-VP-1)."""

    ship_id: int
    owner: str
    captured_by: str
    holder: str | None
    round: int
    vp: int


@dataclass(frozen=True)
class NavalOutcome:
    """Result of ``resolve_naval_battle``.

    ``winner``: the side that still has ships when the other has none, else None.
    ``retreated``: "attacker", "defender", "both" (R-NAV-3: both withdrew at far and both
    retreats succeeded) or None. ``end``: "destroyed" | "retreat" | "round_cap"."""

    winner: str | None
    retreated: str | None
    rounds: int
    distance: str
    end: str
    ships: tuple[ShipResult, ...]
    captures: tuple[Capture, ...]
    vp: dict[str, int]
    events: list[dict] = field(default_factory=list, compare=False)

    def ship(self, ship_id: int) -> ShipResult:
        for result in self.ships:
            if result.ship_id == ship_id:
                return result
        raise KeyError(ship_id)


@dataclass(frozen=True)
class HazardOutcome:
    """Result of a sea hazard's exchange with a flagship (R-SEA-2). ``ship`` is the flagship
    after it (cargo and crew updated), None if it sank."""

    hazard_hits: int
    ship_hits: int
    hazard_removed: bool
    ship_sunk: bool
    ship: NavalShip | None
    cargo_destroyed: tuple[int, ...]
    crew_destroyed: tuple[Character, ...]
    events: list[dict] = field(default_factory=list, compare=False)


def combat_factor(ships: Iterable[NavalShip]) -> int:
    """R-FLT-3: a fleet's CF is the sum of its ships' attack values."""
    return sum(ship.attack for ship in ships)
