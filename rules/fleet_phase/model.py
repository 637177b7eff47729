"""Inputs and outputs of the fleet phase (R-FLT-4..6, R-INT, R-SEA, R-NAV-12, R-INT-6): frozen
dataclasses the Django side builds from its rows and stores back. Nothing here rolls dice.

A **force** is one party of the phase: a player's fleets, or the pirate fleets (R-INT-1); two
fleets are hostile exactly when their forces differ (as ``rules.interception.hostile``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from rules.boarding import Character
from rules.interception import BENEFITS, POLICIES
from rules.naval import AUTO, STANCES, NavalShip
from rules.space import Captain, Datasheet, SpaceShip, datasheet_of

DARK_FORCE, D6_SPACE = "dark_force", "d6_space"
ENGINES = (DARK_FORCE, D6_SPACE)
PIRATE = "pirate"
# R-SPC-1 [reading]: a ship without a (valid) datasheet fights a d6_space battle with these
# values: 1D in every system, speed 1 - the least a ship can be without starting destroyed.
DEFAULT_DATASHEET = Datasheet("1D", 1, "1D", "1D", "1D", "1D")


def datasheet_from_json(data, *, strict: bool = False) -> tuple[Datasheet, Captain | None]:
    """A stored D6 datasheet (R-SPC-1) as the engine reads it: complete (R-FLT-2) and within
    the bounds of ``rules.ship_values``, with an optional captain. Raises ValueError saying
    what is wrong; ``strict`` also refuses unknown fields (new input; stored documents may
    carry others)."""
    return datasheet_of(data, "datasheet", strict=strict)


class Force(NamedTuple):
    """``pirate`` True for pirate fleets (R-FLT-1); ``owner`` the player id (None for pirates
    without one). Hostile = a different force (R-INT-1)."""

    pirate: bool
    owner: int | None

    @property
    def player(self) -> int | None:
        """The player a force's victory points go to (R-VP-1): none for pirates."""
        return None if self.pirate else self.owner

    def label(self) -> str:
        return f"pirates:{self.owner}" if self.pirate else f"player:{self.owner}"


class Detachment(NamedTuple):
    """An embarked detachment (R-FLT-2): its name and army points."""

    name: str
    points: int


@dataclass(frozen=True)
class PhaseShip:
    """A ship as the phase sees it (R-FLT-2): Dark Force values, crew bottom first, cargo,
    ``seats`` (R-VP-1) and the D6 datasheet with its captain (R-SPC-1) if any."""

    id: int
    name: str = ""
    ship_class: str = ""
    attack: int = 1
    defence: int = 1
    agility: int = 1
    crew: tuple[Character, ...] = ()
    cargo: tuple[Detachment, ...] = ()
    seats: int | None = None
    datasheet: Datasheet | None = None
    captain: Captain | None = None

    def naval(self, hits: int = 0) -> NavalShip:
        """The Dark Force engine's view, carrying ``hits`` into the fight (R-SEA-2)."""
        return self._naval(hits) if hits else self._unhit

    @cached_property
    def _unhit(self) -> NavalShip:
        # built once: the phase asks for the combat factor (R-FLT-3) of every line again
        return self._naval(0)

    def _naval(self, hits: int) -> NavalShip:
        # The bounds of R-FLT-2 keep defence >= 1; a stored 0 (data from before the bounds)
        # counts as 1
        return NavalShip(self.id, self.name, max(0, self.attack), max(1, self.defence),
                         max(0, self.agility), self.crew,
                         tuple(d.points for d in self.cargo), self.seats, hits)

    def space(self) -> SpaceShip:
        """The D6 engine's view, ``DEFAULT_DATASHEET`` without a datasheet."""
        return SpaceShip(self.id, self.name, self.datasheet or DEFAULT_DATASHEET, self.captain)

    def public(self, engine: str) -> dict:
        """The ship in a battle's replay, which the players who fought it and the admin see
        (R-FLT-7): name, class, values, and the crew (names and cp, bottom first) and cargo it
        went into battle with, so a choice made on crew points (R-NAV-4) can be followed."""
        data = {"id": self.id, "name": self.name, "class": self.ship_class,
                "crew": [{"name": c.name, "cp": c.cp} for c in self.crew],
                "cargo": [{"name": d.name, "points": d.points} for d in self.cargo]}
        if engine == D6_SPACE:
            data["datasheet"] = (self.datasheet or DEFAULT_DATASHEET).as_dict()
        else:
            data.update(attack=self.attack, defence=self.defence, agility=self.agility)
        return data


@dataclass(frozen=True)
class PhaseFleet:
    """A fleet (R-FLT-1, R-FLT-5): ships in line order (flagship first), standing orders, and
    ``arrival``, the (round, step) it last entered its area ((0, 0): before any phase); equal
    arrivals are ordered by fleet id (R-INT-6 arrival order)."""

    id: int
    owner: int | None
    area: int
    kind: str = "regular"
    af: int = 0
    ships: tuple[PhaseShip, ...] = ()
    interception: str = "always"
    benefits: tuple[str, ...] = BENEFITS
    stance: str = AUTO
    arrival: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ships", tuple(self.ships))
        object.__setattr__(self, "benefits", tuple(self.benefits))
        if self.interception not in POLICIES:
            raise ValueError(f"fleet {self.id}: interception must be one of {POLICIES}")
        if self.stance not in STANCES:
            raise ValueError(f"fleet {self.id}: stance must be one of {STANCES}")

    @property
    def force(self) -> Force:
        return Force(self.kind == PIRATE, self.owner)


@dataclass(frozen=True)
class PhaseArea:
    """A sea or space area (R-MAP-3): its neighbours, an island's owner (R-SEA-1) and the
    players owning a tile it borders (an orbit borders every tile of its planet), for R-NAV-12
    "own" areas."""

    id: int
    kind: str = "ocean"
    adjacent: frozenset[int] = frozenset()
    owner: int | None = None
    bordering_players: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "adjacent", frozenset(self.adjacent))
        object.__setattr__(self, "bordering_players", frozenset(self.bordering_players))


@dataclass(frozen=True)
class PhaseHazard:
    """An active sea hazard (R-SEA-2) with ship values; ``owner`` None: placed by the admin;
    ``hits`` it has taken in the campaign so far (they add up over all its triggers)."""

    id: int
    area: int
    owner: int | None = None
    name: str = ""
    attack: int = 1
    defence: int = 1
    agility: int = 1
    hits: int = 0

    @property
    def toughness(self) -> int:
        """The defence the engine uses (R-FLT-2 bounds: at least 1)."""
        return max(1, self.defence)

    def naval(self, hits: int) -> NavalShip:
        """The engine's view with the ``hits`` it has taken so far (below its defence)."""
        return NavalShip(self.id, self.name, max(0, self.attack), self.toughness,
                         max(0, self.agility), hits=hits)


@dataclass(frozen=True)
class PhaseOrder:
    """A fleet's movement order (R-FLT-4): the areas to enter, in order."""

    fleet: int
    path: tuple[int, ...]


@dataclass(frozen=True)
class PhaseSettings:
    """Ruleset keys the phase uses (R-SPC, R-FLT-4, R-NAV-11, R-SPC-2)."""

    round_number: int = 1
    engine: str = DARK_FORCE
    max_fleet_moves: int | None = None
    max_battle_rounds: int = 12
    start_distance_cm: int = 30

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}")


@dataclass(frozen=True)
class PhaseInput:
    """Everything the phase reads. ``orders`` in the order they were given (R-FLT-6)."""

    areas: tuple[PhaseArea, ...]
    fleets: tuple[PhaseFleet, ...]
    hazards: tuple[PhaseHazard, ...] = ()
    orders: tuple[PhaseOrder, ...] = ()
    settings: PhaseSettings = field(default_factory=PhaseSettings)


# --- outputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FleetAfter:
    """A fleet after the phase: its area, arrival, ships in line order; ``destroyed`` when it
    lost its last ship in this phase."""

    id: int
    area: int
    arrival: tuple[int, int]
    ships: tuple[int, ...]
    destroyed: bool


@dataclass(frozen=True)
class ShipAfter:
    """A ship after the phase: ``fleet`` None when it sank or was destroyed (with everything
    aboard); otherwise its fleet (a captured ship changes fleet and owner, R-NAV-8), line
    position, crew, cargo and captain (R-SPC-6 a captain lost for good)."""

    id: int
    fleet: int | None
    position: int
    crew: tuple[Character, ...]
    cargo: tuple[Detachment, ...]
    captain: Captain | None


@dataclass(frozen=True)
class HazardAfter:
    """A hazard after the phase: owner (R-SEA-1), whether it triggered, the hits it has taken
    in the whole campaign and whether it is still active (R-SEA-2: removed when they reach its
    defence)."""

    id: int
    owner: int | None
    triggered: bool
    hits: int
    active: bool


class Marker(NamedTuple):
    """A NO INTERCEPTION marker (R-INT-2, R-INT-4): ``kind`` "avoid" (c) or "withdraw" (d);
    ``partner`` the fleet it avoided combat with."""

    fleet: int
    kind: str
    partner: int | None


@dataclass(frozen=True)
class BattleRecord:
    """One end-of-phase battle (R-INT-6): where, its number in that area, the engine, the two
    forces, the sides and outcome as JSON-ready dicts, the engine's event log (R-NAV-13), the
    dice it drew (counters ``first_counter`` .. ``first_counter + dice_count - 1``) and the
    victory points per side (R-VP-1)."""

    area: int
    sequence: int
    engine: str
    attacker: Force
    defender: Force
    sides: list[dict]
    outcome: dict
    events: list[dict]
    first_counter: int
    dice_count: int
    vp: dict[str, int]


@dataclass(frozen=True)
class PhaseResult:
    player_order: tuple[int, ...]
    fleets: dict[int, FleetAfter]
    ships: dict[int, ShipAfter]
    hazards: dict[int, HazardAfter]
    islands: dict[int, int]
    markers: tuple[Marker, ...]
    battles: tuple[BattleRecord, ...]
    events: list[dict]
