"""Fleets given as plain dicts in the API's fleet shape turned into the D6 space engine's inputs
(R-SPC-1), for odds previews (R-ODDS-1). The fleet and ship checks are ``naval_input``'s.

A ship's ``datasheet`` is ``{"maneuver": "2D", "speed": 3, "targeting": "3D",
"gun_damage": "4D+1", "shields": "2D", "hull": "3D", "captain": {"name", "dice_system",
"pip_system"}}`` (captain optional, as stored on the fleet models). Every check raises
``ValueError`` naming the offending path.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.dicecode import DiceCode, parse_code
from rules.naval_input import check_keys, fleet_ships, text
from rules.space_model import CODE_SYSTEMS, Captain, Datasheet, SpaceShip, SpaceSide

MAX_CODE_TEXT = 12  # "20D+20" and some spaces
MAX_DICE = 20
MAX_PIPS = 20
MAX_SPEED = 100
DATASHEET_KEYS = frozenset({*CODE_SYSTEMS, "speed", "captain"})
CAPTAIN_KEYS = frozenset({"name", "dice_system", "pip_system"})


def dice_code(value: object, path: str) -> DiceCode:
    """A dice code ``nD+p`` (R-DICE-1) with at most MAX_DICE dice and MAX_PIPS pips either
    way."""
    if not isinstance(value, str) or len(value) > MAX_CODE_TEXT:
        raise ValueError(f"{path}: expected a dice code such as \"2D+1\"")
    code = parse_code(value)  # its ValueError names the text
    if code.dice > MAX_DICE or abs(code.pips) > MAX_PIPS:
        raise ValueError(f"{path}: at most {MAX_DICE}D and {MAX_PIPS} pips either way")
    return code


def captain_of(data: object, path: str) -> Captain | None:
    """R-SPC-1: the optional captain (+1D to one system, +1 pip to another)."""
    if data is None:
        return None
    captain = check_keys(data, CAPTAIN_KEYS, path)
    name = text(captain, "name", path)
    dice_system, pip_system = captain.get("dice_system"), captain.get("pip_system")
    if not isinstance(dice_system, str) or not isinstance(pip_system, str):
        raise ValueError(f"{path}: dice_system and pip_system are required system names")
    try:
        return Captain(dice_system, pip_system, name)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def datasheet_of(data: object, path: str) -> tuple[Datasheet, Captain | None]:
    """R-SPC-1: the datasheet (every code and speed required) and its captain."""
    if data is None:
        raise ValueError(f"{path}: the d6_space engine needs a D6 datasheet (R-SPC-1)")
    sheet = check_keys(data, DATASHEET_KEYS, path)
    codes = {}
    for name in CODE_SYSTEMS:
        if name not in sheet:
            raise ValueError(f"{path}.{name}: this field is required")
        codes[name] = dice_code(sheet[name], f"{path}.{name}")
    speed = sheet.get("speed")
    if isinstance(speed, bool) or not isinstance(speed, int) or not 0 <= speed <= MAX_SPEED:
        raise ValueError(f"{path}.speed: expected an integer from 0 to {MAX_SPEED}")
    if codes["hull"].dice < 1:
        raise ValueError(f"{path}.hull: a ship starts with at least 1D hull (R-SPC-6)")
    return (Datasheet(speed=speed, **codes),
            captain_of(sheet.get("captain"), f"{path}.captain"))


def space_ship(data: Mapping, ship_id: int, path: str) -> SpaceShip:
    """A ship for the D6 engine: its datasheet is required."""
    sheet, captain = datasheet_of(data.get("datasheet"), f"{path}.datasheet")
    return SpaceShip(ship_id, text(data, "name", path), sheet, captain)


def space_side(key: str, fleet: object, first_id: int = 1) -> SpaceSide:
    """One side of a D6 battle from a fleet dict, ships numbered from ``first_id``; the
    stance is checked by the caller (D6 battles have no maneuver step or retreat, R-SPC)."""
    ships = fleet_ships(fleet, key)
    return SpaceSide(key, None, tuple(space_ship(ship, first_id + i, f"{key}.ships[{i}]")
                                      for i, ship in enumerate(ships)))
