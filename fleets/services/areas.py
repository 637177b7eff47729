"""Writes that build a campaign's sea and space areas (R-MAP-3, R-SEA-1), one at a time.
Every cross-reference must belong to the campaign being edited (400 otherwise)."""

from django.db import transaction

from campaigns.errors import RuleViolation
from campaigns.models import Campaign, Planet, Player, Tile
from campaigns.services.map import checked_text, in_use, owned
from fleets.models import Area
from fleets.values import area_shape_error, second_orbit_error

_UNSET = object()


def _check_area(area: Area, *, has_borders: bool) -> None:
    error = area_shape_error(kind=area.kind, has_planet=area.planet_id is not None,
                             has_borders=has_borders, has_owner=area.owner_id is not None)
    if error:
        raise RuleViolation(error[1], field=error[0])
    if area.kind == Area.Kind.ORBIT:
        Planet.objects.select_for_update().filter(pk=area.planet_id).first()  # one at a time
        other = (Area.objects.filter(planet_id=area.planet_id, kind=Area.Kind.ORBIT)
                 .exclude(pk=area.pk).first())
        if other is not None:
            raise RuleViolation(second_orbit_error(f"{other.name!r}, id {other.pk}"),
                                code="R-MAP-3", field="planet")


def _areas(campaign: Campaign, area: Area | None, adjacent) -> list[Area]:
    adjacent = list(adjacent)
    for index, other in enumerate(adjacent):
        owned(campaign, other, f"adjacent[{index}]")
        if area is not None and other.pk == area.pk:
            raise RuleViolation("An area is not adjacent to itself.", field=f"adjacent[{index}]")
    return adjacent


def _tiles(campaign: Campaign, tiles) -> list[Tile]:
    tiles = list(tiles)
    for index, tile in enumerate(tiles):
        owned(campaign, tile, f"borders_tiles[{index}]")
    return tiles


@transaction.atomic
def area_create(*, campaign: Campaign, name: str, kind: str, planet: Planet | None = None,
                adjacent=(), borders_tiles=(), owner: Player | None = None) -> Area:
    """A sea or space area; ``adjacent`` is symmetric; only an orbit names a planet and only an
    island has an owner (R-MAP-3, R-SEA-1)."""
    area = Area(campaign=campaign, name=checked_text(name, "name", Area), kind=kind,
                planet=owned(campaign, planet, "planet"), owner=owned(campaign, owner, "owner"))
    adjacent, borders_tiles = _areas(campaign, None, adjacent), _tiles(campaign, borders_tiles)
    _check_area(area, has_borders=bool(borders_tiles))
    area.save()
    area.adjacent.set(adjacent)
    area.borders_tiles.set(borders_tiles)
    return area


@transaction.atomic
def area_update(*, area: Area, name=_UNSET, kind=_UNSET, planet=_UNSET, adjacent=_UNSET,
                borders_tiles=_UNSET, owner=_UNSET) -> Area:
    campaign = area.campaign
    if name is not _UNSET:
        area.name = checked_text(name, "name", Area)
    if kind is not _UNSET:
        area.kind = kind
    if planet is not _UNSET:
        area.planet = owned(campaign, planet, "planet")
    if owner is not _UNSET:
        area.owner = owned(campaign, owner, "owner")
    if adjacent is not _UNSET:
        adjacent = _areas(campaign, area, adjacent)
    if borders_tiles is not _UNSET:
        borders_tiles = _tiles(campaign, borders_tiles)
        has_borders = bool(borders_tiles)
    else:
        has_borders = area.borders_tiles.exists()
    _check_area(area, has_borders=has_borders)
    area.save()
    if adjacent is not _UNSET:
        area.adjacent.set(adjacent)
    if borders_tiles is not _UNSET:
        area.borders_tiles.set(borders_tiles)
    return area


@transaction.atomic
def area_delete(*, area: Area) -> None:
    if area.fleets.exists():
        raise in_use("Fleets are in this area.")
    area.delete()
