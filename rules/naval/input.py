"""Fleets given as plain dicts in the API's fleet shape (API.md "Fleets and naval battles",
R-FLT-2, R-FLT-5) turned into the Dark Force engine's inputs (R-NAV), for odds previews
(R-ODDS-1). Every ship passes ``rules.ship_values.ship_problems`` (the bounds of R-FLT-2,
a valid datasheet if one is given); ``rules.space``'s adapter adds the D6 datasheet.

A fleet is ``{"ships": [...], "stance": "approach" | "hold" | "withdraw" | "auto"}`` (stance
optional, default ``auto``); a ship is as in ``rules.ship_values`` (an ``id`` is allowed and
ignored: the engines number the ships of one battle themselves; names are optional).
Every check raises ``ValueError`` naming the offending path, e.g. ``attacker.ships[2].attack``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.boarding import Character
from rules.naval.model import AUTO, STANCES, NavalShip, NavalSide
from rules.ship_values import raise_first, ship_problems

MAX_SHIPS = 30  # per side: keeps one preview's work bounded
FLEET_KEYS = ("ships", "stance")
DARK_FORCE_VALUES = ("attack", "defence", "agility")  # required by this engine


def fleet_ships(fleet: object, path: str,
                required: tuple[str, ...] = ()) -> list[Mapping]:
    """A fleet's ships (1..MAX_SHIPS), each passing ``ship_problems`` with the ``required``
    values."""
    if not isinstance(fleet, Mapping):
        raise ValueError(f"{path}: expected an object")
    unknown = sorted(str(key) for key in fleet if key not in FLEET_KEYS)
    if unknown:
        raise ValueError(f"{path}: unknown field {unknown[0]!r}")
    ships = fleet.get("ships")
    if not isinstance(ships, list) or not 1 <= len(ships) <= MAX_SHIPS:
        raise ValueError(f"{path}.ships: expected a list of 1 to {MAX_SHIPS} ships")
    for i, ship in enumerate(ships):
        raise_first(ship_problems(ship, named=False, required=required), f"{path}.ships[{i}]")
    return ships


def fleet_stance(fleet: Mapping, path: str) -> str:
    """R-FLT-5: the battle stance, ``auto`` when not given."""
    stance = fleet.get("stance", AUTO)
    if stance not in STANCES:
        raise ValueError(f"{path}.stance: expected one of {', '.join(STANCES)}")
    return stance


def naval_ship(data: Mapping, ship_id: int) -> NavalShip:
    """A checked ship for the Dark Force engine (R-FLT-2)."""
    crew = tuple(Character(c.get("name", ""), c["cp"]) for c in data.get("crew", []))
    cargo = tuple(d["points"] for d in data.get("cargo", []))
    return NavalShip(ship_id, data.get("name", ""), data["attack"], data["defence"],
                     data["agility"], crew, cargo, data.get("seats"))


def naval_side(key: str, fleet: object, first_id: int = 1,
               retreat_to: int | None = None) -> NavalSide:
    """One side of a Dark Force battle from a fleet dict; ships numbered from ``first_id``
    in line order (R-NAV-1: the first is the flagship). ``key`` names the side and the path;
    ``retreat_to`` is the area a retreat goes to (R-NAV-12; None: a retreat fails)."""
    ships = fleet_ships(fleet, key, DARK_FORCE_VALUES)
    line = tuple(naval_ship(ship, first_id + i) for i, ship in enumerate(ships))
    assert isinstance(fleet, Mapping)
    return NavalSide(key, None, line, fleet_stance(fleet, key), retreat_to)
