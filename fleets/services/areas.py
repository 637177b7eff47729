"""Writes that build a campaign's sea and space areas (R-MAP-3, R-SEA-1), one at a time.
Every cross-reference must belong to the campaign being edited (400 otherwise). In a running
campaign each write is a correction (``campaigns.services.corrections``): refused
while the fleets phase is resolved, logged otherwise. An area's name, kind, orbit, owner,
links and borders are public facts (the map shows them), so their log entries are public."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import RuleViolation
from campaigns.models import Campaign, Planet, Player, Tile
from campaigns.services.corrections import correction
from campaigns.services.map import checked_text, in_use, owned
from fleets.models import Area
from fleets.values import area_shape_error, second_orbit_error

_UNSET = object()


def area_facts(area: Area) -> dict:
    """What an area is, for the correction log (public facts, R-MAP-3)."""
    return {"name": area.name, "kind": area.kind, "planet": area.planet_id,
            "owner": area.owner_id}


def _log(area: Area, actor, kind: str, before=None, after=None,
         reason: str = "") -> None:
    correction(campaign=area.campaign, actor=actor, kind=kind, target=f"area {area.name}",
               before=before, after=after, reason=reason)


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
            named = _("%(name)s, id %(id)s") % {"name": repr(other.name), "id": other.pk}
            raise RuleViolation(second_orbit_error(named), code="R-MAP-3", field="planet")


def _areas(campaign: Campaign, area: Area | None, adjacent) -> list[Area]:
    adjacent = list(adjacent)
    for index, other in enumerate(adjacent):
        owned(campaign, other, f"adjacent[{index}]")
        if area is not None and other.pk == area.pk:
            raise RuleViolation(_("An area is not adjacent to itself."),
                                field=f"adjacent[{index}]")
    return adjacent


def _tiles(campaign: Campaign, tiles) -> list[Tile]:
    tiles = list(tiles)
    for index, tile in enumerate(tiles):
        owned(campaign, tile, f"borders_tiles[{index}]")
    return tiles


@transaction.atomic
def area_create(*, campaign: Campaign, name: str, kind: str, planet: Planet | None = None,
                adjacent=(), borders_tiles=(), owner: Player | None = None,
                actor=None, reason: str = "") -> Area:
    """A sea or space area; ``adjacent`` is symmetric; only an orbit names a planet and only an
    island has an owner (R-MAP-3, R-SEA-1)."""
    area = Area(campaign=campaign, name=checked_text(name, "name", Area), kind=kind,
                planet=owned(campaign, planet, "planet"), owner=owned(campaign, owner, "owner"))
    adjacent, borders_tiles = _areas(campaign, None, adjacent), _tiles(campaign, borders_tiles)
    _check_area(area, has_borders=bool(borders_tiles))
    _log(area, actor, "area.create", after=area_facts(area), reason=reason)
    area.save()
    area.adjacent.set(adjacent)
    area.borders_tiles.set(borders_tiles)
    return area


@transaction.atomic
def area_update(*, area: Area, name=_UNSET, kind=_UNSET, planet=_UNSET, adjacent=_UNSET,
                borders_tiles=_UNSET, owner=_UNSET, actor=None, reason: str = "") -> Area:
    campaign = area.campaign
    before = {**area_facts(area), **_links(area, adjacent, borders_tiles)}
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
    _log(area, actor, "area.update", before=before,
         after={**area_facts(area), **_links(area, adjacent, borders_tiles, new=True)},
         reason=reason)
    area.save()
    if adjacent is not _UNSET:
        area.adjacent.set(adjacent)
    if borders_tiles is not _UNSET:
        area.borders_tiles.set(borders_tiles)
    return area


@transaction.atomic
def area_delete(*, area: Area, actor=None, reason: str = "") -> None:
    if area.fleets.exists():
        raise in_use(_("Fleets are in this area."))
    _log(area, actor, "area.delete", before=area_facts(area), reason=reason)
    area.delete()


def _links(area: Area, adjacent, borders_tiles, *, new: bool = False) -> dict:
    """The links and borders an update changes, as ids for the log (before, or ``new``)."""
    facts = {}
    if adjacent is not _UNSET:
        facts["adjacent"] = sorted(a.pk for a in adjacent) if new else sorted(
            area.adjacent.values_list("pk", flat=True))
    if borders_tiles is not _UNSET:
        facts["borders_tiles"] = sorted(t.pk for t in borders_tiles) if new else sorted(
            area.borders_tiles.values_list("pk", flat=True))
    return facts
