"""Fleets given as plain dicts in the API's fleet shape (API.md "Fleets and naval battles",
R-FLT-2, R-FLT-5) turned into the Dark Force engine's inputs (R-NAV), for odds previews
(R-ODDS-1). The checks every ship shares are here too; ``space_input`` adds the D6 datasheet.

A fleet is ``{"ships": [...], "stance": "approach" | "hold" | "withdraw" | "auto"}`` (stance
optional, default ``auto``). A ship is ``{"name", "class", "attack", "defence", "agility",
"capacity", "cargo": [{"name", "points"}], "crew": [{"name", "cp"}], "datasheet", "seats"}``
(an ``id`` is allowed and ignored: the engines number the ships of one battle themselves).
Every check raises ``ValueError`` naming the offending path, e.g. ``attacker.ships[2].attack``.
The bounds keep one preview's work bounded; they are far above real ships.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.boarding import Character
from rules.naval_model import AUTO, STANCES, NavalShip, NavalSide

MAX_SHIPS = 30  # per side
MAX_TEXT = 80  # names and classes, as the fleet models
MAX_CREW = 10
MAX_CARGO = 20
BOUNDS = {"attack": (0, 50), "defence": (1, 1000), "agility": (0, 50), "capacity": (0, 1000),
          "seats": (1, 20), "cp": (0, 100), "points": (0, 100_000)}
SHIP_KEYS = frozenset({"id", "name", "class", "attack", "defence", "agility", "capacity",
                       "cargo", "crew", "datasheet", "seats"})
FLEET_KEYS = frozenset({"ships", "stance"})
REQUIRED = object()


def check_keys(data: object, allowed: frozenset[str], path: str) -> Mapping:
    """``data`` must be a dict with string keys out of ``allowed``."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected an object")
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise ValueError(f"{path}: unknown field {unknown[0]!r}")
    return data


def integer(data: Mapping, key: str, path: str, default: object = REQUIRED) -> int:
    """``data[key]``, an integer within ``BOUNDS[key]`` (booleans are not integers)."""
    value = data.get(key, default)
    if value is REQUIRED:
        raise ValueError(f"{path}.{key}: this field is required")
    low, high = BOUNDS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{path}.{key}: expected an integer from {low} to {high}")
    return value


def text(data: Mapping, key: str, path: str) -> str:
    """An optional short string (default empty)."""
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError(f"{path}.{key}: expected a string of at most {MAX_TEXT} characters")
    return value


def items(data: Mapping, key: str, path: str, most: int) -> list:
    """An optional list of at most ``most`` items (default empty)."""
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"{path}.{key}: expected a list of at most {most} items")
    return value


def crew_of(data: Mapping, path: str) -> tuple[Character, ...]:
    """The boarding stack, bottom first (R-BRD-1)."""
    crew = []
    for i, card in enumerate(items(data, "crew", path, MAX_CREW)):
        where = f"{path}.crew[{i}]"
        check_keys(card, frozenset({"name", "cp"}), where)
        crew.append(Character(text(card, "name", where), integer(card, "cp", where)))
    return tuple(crew)


def cargo_of(data: Mapping, path: str) -> tuple[int, ...]:
    """The embarked detachments' army points (R-FLT-2)."""
    cargo = []
    for i, detachment in enumerate(items(data, "cargo", path, MAX_CARGO)):
        where = f"{path}.cargo[{i}]"
        check_keys(detachment, frozenset({"name", "points"}), where)
        text(detachment, "name", where)
        cargo.append(integer(detachment, "points", where))
    return tuple(cargo)


def check_ship(data: object, path: str) -> Mapping:
    """The checks every ship of the fleet shape passes, whatever the engine."""
    ship = check_keys(data, SHIP_KEYS, path)
    text(ship, "name", path)
    text(ship, "class", path)
    integer(ship, "capacity", path, 0)
    if ship.get("seats") is not None:
        integer(ship, "seats", path)
    crew_of(ship, path)
    cargo_of(ship, path)
    return ship


def fleet_ships(fleet: object, path: str) -> list[Mapping]:
    """A fleet's ships (1..MAX_SHIPS), each passing ``check_ship``."""
    ships = check_keys(fleet, FLEET_KEYS, path).get("ships")
    if not isinstance(ships, list) or not 1 <= len(ships) <= MAX_SHIPS:
        raise ValueError(f"{path}.ships: expected a list of 1 to {MAX_SHIPS} ships")
    return [check_ship(ship, f"{path}.ships[{i}]") for i, ship in enumerate(ships)]


def fleet_stance(fleet: Mapping, path: str) -> str:
    """R-FLT-5: the battle stance, ``auto`` when not given."""
    stance = fleet.get("stance", AUTO)
    if stance not in STANCES:
        raise ValueError(f"{path}.stance: expected one of {', '.join(STANCES)}")
    return stance


def naval_ship(data: Mapping, ship_id: int, path: str) -> NavalShip:
    """A ship for the Dark Force engine (R-FLT-2): attack, defence and agility are required."""
    seats = data.get("seats")
    return NavalShip(ship_id, text(data, "name", path), integer(data, "attack", path),
                     integer(data, "defence", path), integer(data, "agility", path),
                     crew_of(data, path), cargo_of(data, path),
                     None if seats is None else integer(data, "seats", path))


def naval_side(key: str, fleet: object, first_id: int = 1,
               retreat_to: int | None = None) -> NavalSide:
    """One side of a Dark Force battle from a fleet dict; ships numbered from ``first_id``
    in line order (R-NAV-1: the first is the flagship). ``key`` names the side and the path;
    ``retreat_to`` is the area a retreat goes to (R-NAV-12; None: a retreat fails)."""
    ships = fleet_ships(fleet, key)
    line = tuple(naval_ship(ship, first_id + i, f"{key}.ships[{i}]")
                 for i, ship in enumerate(ships))
    return NavalSide(key, None, line, fleet_stance(fleet, key), retreat_to)
