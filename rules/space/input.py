"""Datasheets (R-SPC-1) and fleets in the API's fleet shape turned into the D6 space engine's
inputs, for odds previews (R-ODDS-1) and the fleet phase. The checks are
``rules.ship_values``'s; the fleet checks are ``rules.naval``'s adapter's.

A ship's ``datasheet`` is ``{"maneuver": "2D", "speed": 3, "targeting": "3D",
"gun_damage": "4D+1", "shields": "2D", "hull": "3D", "captain": {"name", "dice_system",
"pip_system"}}`` (captain optional, as stored on the fleet models). Every check raises
``ValueError`` naming the offending path.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.naval import fleet_ships
from rules.ship_values import CODE_SYSTEMS, SPC, datasheet_problems, dice_code, raise_first
from rules.space.model import Captain, Datasheet, SpaceShip, SpaceSide


def datasheet_of(data: object, path: str, *,
                 strict: bool = True) -> tuple[Datasheet, Captain | None]:
    """R-SPC-1: the datasheet (complete, R-FLT-2) and its captain. ``strict`` refuses unknown
    fields (new input); stored datasheets are read with ``strict=False``."""
    if data is None:
        raise ValueError(f"{path}: the d6_space engine needs a D6 datasheet ({SPC})")
    raise_first(datasheet_problems(data, strict=strict), path)
    assert isinstance(data, Mapping)
    sheet = Datasheet(speed=data["speed"], **{name: dice_code(data[name])
                                              for name in CODE_SYSTEMS})
    captain = data.get("captain")
    if captain is None:
        return sheet, None
    return sheet, Captain(captain["dice_system"], captain["pip_system"],
                          captain.get("name", ""))


def space_ship(data: Mapping, ship_id: int, path: str) -> SpaceShip:
    """A checked ship for the D6 engine: its datasheet is required."""
    sheet, captain = datasheet_of(data.get("datasheet"), f"{path}.datasheet")
    return SpaceShip(ship_id, data.get("name", ""), sheet, captain)


def space_side(key: str, fleet: object, first_id: int = 1) -> SpaceSide:
    """One side of a D6 battle from a fleet dict, ships numbered from ``first_id``; the
    stance is checked by the caller (D6 battles have no maneuver step or retreat, R-SPC)."""
    ships = fleet_ships(fleet, key)
    return SpaceSide(key, None, tuple(space_ship(ship, first_id + i, f"{key}.ships[{i}]")
                                      for i, ship in enumerate(ships)))
