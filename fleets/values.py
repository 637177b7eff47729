"""Ship values between their stored JSON and the rules' types (R-FLT-2, R-SPC-1): crew stacks,
embarked detachments and D6 datasheets. Reading is forgiving (a malformed entry, e.g. edited by
hand, counts as absent); new input is checked by ``rules.ship_values`` (the one definition of
the bounds) before ``ship_fields`` turns it into the Ship model's fields."""

from collections.abc import Mapping

from django.utils.translation import gettext as _

from campaigns.values import show
from fleets.models import Area, Fleet
from rules.boarding import Character
from rules.fleet_phase import DEFAULT_DATASHEET, Detachment, datasheet_from_json
from rules.naval import NavalShip
from rules.naval import combat_factor as naval_cf
from rules.ship_values import DEFAULTS
from rules.space import Captain, Datasheet, SpaceShip
from rules.space import combat_factor as space_cf


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(item, number: str) -> tuple[str, int] | None:
    if not isinstance(item, dict):
        return None
    name, value = item.get("name"), item.get(number)
    if not isinstance(name, str) or not _is_int(value) or value < 0:
        return None
    return name, value


def crew_of(raw) -> tuple[Character, ...]:
    """``[{"name", "cp"}]`` bottom first (R-BRD-1)."""
    if not isinstance(raw, list):
        return ()
    return tuple(Character(*e) for e in (_entry(i, "cp") for i in raw) if e)


def cargo_of(raw) -> tuple[Detachment, ...]:
    """``[{"name", "points"}]`` (R-FLT-2)."""
    if not isinstance(raw, list):
        return ()
    return tuple(Detachment(*e) for e in (_entry(i, "points") for i in raw) if e)


def crew_json(crew) -> list[dict]:
    return [{"name": c.name, "cp": c.cp} for c in crew]


def cargo_json(cargo) -> list[dict]:
    return [{"name": d.name, "points": d.points} for d in cargo]


def datasheet_of(raw) -> tuple[Datasheet | None, Captain | None]:
    """The ship's D6 datasheet and captain, (None, None) when it has none or it is invalid."""
    if raw is None:
        return None, None
    try:
        return datasheet_from_json(raw)
    except ValueError:
        return None, None


def ship_fields(ship: Mapping) -> dict:
    """A ship in the fleet shape that passed ``rules.ship_values.ship_problems`` as the Ship
    model's fields: names stripped, values not given at their defaults (R-FLT-2)."""
    def entries(name: str, number: str) -> list[dict]:
        return [{"name": e["name"].strip(), number: e[number]} for e in ship.get(name, [])]

    return {"name": ship["name"].strip(), "ship_class": ship.get("class", "").strip(),
            **{key: ship.get(key, default) for key, default in DEFAULTS.items()},
            "seats": ship.get("seats"), "cargo": entries("cargo", "points"),
            "crew": entries("crew", "cp"), "datasheet": ship.get("datasheet")}


def ship_cf(engine: str, attack: int, datasheet) -> int:
    """R-FLT-3 for one ship: its attack value, or with the D6 engine its gun damage dice
    (``rules.fleet_phase.DEFAULT_DATASHEET`` without a valid datasheet)."""
    if engine == "d6_space":
        sheet, captain = datasheet_of(datasheet)
        return space_cf([SpaceShip(0, "", sheet or DEFAULT_DATASHEET, captain)])
    return naval_cf([NavalShip(0, "", max(0, attack), 1, 0)])


def area_shape_error(*, kind, has_planet: bool, has_borders: bool,
                     has_owner: bool) -> tuple[str, str] | None:
    """R-MAP-3, R-SEA-1: what an area of ``kind`` may have, as (field, message) or None."""
    if kind not in Area.Kind.values:
        return "kind", _("unknown kind %(kind)s (kinds: %(kinds)s)") % {
            "kind": show(kind), "kinds": ", ".join(Area.Kind.values)}
    if kind == Area.Kind.ORBIT and not has_planet:
        return "planet", _("an orbit area needs a planet")
    if kind != Area.Kind.ORBIT and has_planet:
        return "planet", _("only an orbit area names a planet")
    if kind == Area.Kind.ISLAND and has_borders:
        return "borders_tiles", _("an island borders no tile")
    if kind != Area.Kind.COASTAL and has_borders:  # as rules.board.area_borders
        return "borders_tiles", _("only a coastal area lists the tiles it borders (an orbit "
                                  "borders every tile of its planet, an ocean none)")
    if kind != Area.Kind.ISLAND and has_owner:
        return "owner", _("only an island has an owner")
    return None


def second_orbit_error(other: str) -> str:
    """R-MAP-3: an orbit area is the orbit of one planet, and a planet has one orbit area;
    ``other`` names the orbit it has already."""
    return _("the planet has an orbit area already (%(other)s): one orbit per planet (R-MAP-3)"
             ) % {"other": other}


def fleet_owner_error(*, kind, has_owner: bool) -> str | None:
    """R-FLT-1: a fleet belongs to a player; a pirate fleet is the non-player force and
    belongs to none."""
    if kind == Fleet.Kind.PIRATE and has_owner:
        return _("a pirate fleet belongs to no player (R-FLT-1)")
    if kind != Fleet.Kind.PIRATE and not has_owner:
        return _("only a pirate fleet has no owner (R-FLT-1)")
    return None
