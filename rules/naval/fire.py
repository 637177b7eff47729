"""Gunfire (R-NAV-6) and sinking with hit allocation (R-NAV-7), shared by the battle engine
and the sea hazard exchange (R-SEA-2). ``ShipState`` is the engine's mutable view of a ship."""

from __future__ import annotations

from rules.boarding import Character
from rules.naval.model import AFLOAT, SUNK, NavalShip


class ShipState:
    """A ship during a fight: hull hits, what is still aboard, what was lost, its state.
    The ship's values are copied into slots: the battle loop reads them often. Crew, cargo
    and losses are tuples, replaced when they change (rare next to reads)."""

    __slots__ = ("ship", "id", "side", "attack", "defence", "agility", "hits", "crew", "cp",
                 "cargo", "cargo_destroyed", "crew_destroyed", "overwhelmed", "state",
                 "captured_by", "seats")

    def __init__(self, ship: NavalShip, side: str) -> None:
        self.ship = ship
        self.id = ship.id
        self.side = side
        self.attack = ship.attack
        self.defence = ship.defence
        self.agility = ship.agility
        self.hits = ship.hits  # carried in (R-SEA-2), else 0
        self.crew: tuple[Character, ...] = ship.crew
        self.cp = sum([c.cp for c in ship.crew]) if ship.crew else 0  # the crew's total cp
        self.cargo: tuple[int, ...] = ship.cargo
        self.cargo_destroyed: tuple[int, ...] = ()
        self.crew_destroyed: tuple[Character, ...] = ()
        self.overwhelmed: tuple[Character, ...] = ()
        self.state = AFLOAT
        self.captured_by: str | None = None
        self.seats = ship.seats  # of its class (R-VP-1)

    def set_crew(self, crew: tuple[Character, ...]) -> None:
        self.crew = crew
        self.cp = sum([c.cp for c in crew])


def hits_of(roll: int, attack: int, far: bool, bonus: int) -> int:
    """R-NAV-6: hit if the roll is at most the attack value (-1 at far distance, +``bonus``
    from R-NAV-9); the target then takes hits equal to the roll."""
    return roll if roll <= attack + bonus - (1 if far else 0) else 0


def take_volleys(target: ShipState, volleys: list[int]) -> tuple[list[dict], bool]:
    """Apply the volleys that hit ``target`` at once (R-NAV-7); returns (diverted, sunk).

    The owner may put one hit of each volley on a detachment or character aboard (destroyed);
    [decision] it does so only when that saves the ship, diverting as few hits as needed."""
    incoming = sum(volleys)
    if not incoming:
        return [], False
    excess = target.hits + incoming - (target.defence - 1)  # hits beyond what it survives
    diverted: list[dict] = []
    if excess > 0 and excess <= len(target.cargo) + len(target.crew) \
            and excess <= sum(1 for v in volleys if v):
        diverted = [_divert_one(target) for _ in range(excess)]
        incoming -= excess
    target.hits += incoming
    sunk = target.hits >= target.defence
    if sunk:
        target.state = SUNK
    return diverted, sunk


def _divert_one(target: ShipState) -> dict:
    """[reading] R-NAV-7 names no order: a detachment goes first (the smallest), then the
    character with the fewest cp (among equals the one highest in the stack, who fights last)."""
    if target.cargo:
        cargo = target.cargo
        index = min(range(len(cargo)), key=cargo.__getitem__)
        target.cargo = cargo[:index] + cargo[index + 1:]
        target.cargo_destroyed += (cargo[index],)
        return {"detachment": cargo[index]}
    crew = target.crew
    lowest = min(c.cp for c in crew)
    index = max(i for i, c in enumerate(crew) if c.cp == lowest)
    target.set_crew(crew[:index] + crew[index + 1:])
    target.crew_destroyed += (crew[index],)
    return {"character": {"name": crew[index].name, "cp": crew[index].cp}}
