"""Writes that build a campaign's map (R-MAP, R-MRK): planets, tiles, tile links, areas and
markers, one object at a time, plus ``map_import`` which replaces the whole map.

Every cross-reference must belong to the campaign being edited (400 otherwise)."""

from django.db import IntegrityError, transaction

from fleets.models import Area, Fleet

from ..errors import Conflict, RuleViolation
from ..models import Attack, Campaign, Marker, MarkerType, Planet, Player, Round, Tile, TileLink
from . import map_document
from .campaigns import current_ruleset
from .map_document import (
    area_shape_error,
    coordinate_error,
    features_error,
    normalized_features,
    text_error,
)

_UNSET = object()


def _text(value, field: str, model) -> str:
    limit = model._meta.get_field(field).max_length
    error = text_error(value, limit)
    if error:
        raise RuleViolation(error, field=field)
    return value.strip()


def _own(campaign: Campaign, obj, field: str):
    """``obj`` unless it belongs to another campaign."""
    if obj is not None and obj.campaign_id != campaign.pk:
        raise RuleViolation("Belongs to another campaign.", field=field)
    return obj


def _in_use(message: str) -> Conflict:
    return Conflict(message, code="in_use")


# --- planets ---

@transaction.atomic
def planet_create(*, campaign: Campaign, name: str) -> Planet:
    return Planet.objects.create(campaign=campaign, name=_text(name, "name", Planet))


@transaction.atomic
def planet_update(*, planet: Planet, name=_UNSET) -> Planet:
    if name is not _UNSET:
        planet.name = _text(name, "name", Planet)
    planet.save()
    return planet


@transaction.atomic
def planet_delete(*, planet: Planet) -> None:
    """Removes the planet with its tiles and orbit areas; refused while attacks name one of its
    tiles or fleets sit in its orbit (their history would go with them)."""
    if Attack.objects.filter(tile__planet=planet).exists():
        raise _in_use("Attacks were declared on tiles of this planet.")
    if Fleet.objects.filter(area__planet=planet).exists():
        raise _in_use("Fleets are in this planet's orbit.")
    planet.delete()


# --- tiles ---

def _features(features) -> list[str]:
    error = features_error(features)
    if error:
        raise RuleViolation(error[1], field="features" if error[0] is None
                            else f"features[{error[0]}]")
    return normalized_features(features)


def _coordinate(value, field: str) -> int:
    error = coordinate_error(value)
    if error:
        raise RuleViolation(error, field=field)
    return value


def _save_tile(tile: Tile) -> Tile:
    clash = Tile.objects.filter(planet_id=tile.planet_id, q=tile.q, r=tile.r).exclude(pk=tile.pk)
    if clash.exists():
        raise RuleViolation(f"The planet has a tile at ({tile.q}, {tile.r}) already.", field="q")
    try:
        with transaction.atomic():
            tile.save()
    except IntegrityError:  # a concurrent write took the hex
        raise RuleViolation(f"The planet has a tile at ({tile.q}, {tile.r}) already.",
                            field="q") from None
    return tile


@transaction.atomic
def tile_create(*, campaign: Campaign, planet: Planet, q: int, r: int,
                owner: Player | None = None, features: list[str] | None = None) -> Tile:
    tile = Tile(campaign=campaign, planet=_own(campaign, planet, "planet"),
                q=_coordinate(q, "q"), r=_coordinate(r, "r"),
                owner=_own(campaign, owner, "owner"), features=_features(features or []))
    return _save_tile(tile)


@transaction.atomic
def tile_update(*, tile: Tile, planet=_UNSET, q=_UNSET, r=_UNSET, owner=_UNSET,
                features=_UNSET) -> Tile:
    """Change what is given; the markers go with the tile's owner (R-MRK-4)."""
    campaign = tile.campaign
    if planet is not _UNSET:
        tile.planet = _own(campaign, planet, "planet")
    if q is not _UNSET:
        tile.q = _coordinate(q, "q")
    if r is not _UNSET:
        tile.r = _coordinate(r, "r")
    if owner is not _UNSET:
        tile.owner = _own(campaign, owner, "owner")
    if features is not _UNSET:
        tile.features = _features(features)
    return _save_tile(tile)


@transaction.atomic
def tile_delete(*, tile: Tile) -> None:
    if Attack.objects.filter(tile=tile).exists():
        raise _in_use("Attacks were declared on this tile.")
    tile.delete()


# --- tile links (R-MAP-1) ---

@transaction.atomic
def tile_link_create(*, campaign: Campaign, a: Tile, b: Tile) -> TileLink:
    """An explicit adjacency between two tiles; stored with a < b, once per pair."""
    _own(campaign, a, "a")
    _own(campaign, b, "b")
    if a.pk == b.pk:
        raise RuleViolation("A tile can not be linked to itself.", field="b")
    low, high = sorted((a, b), key=lambda tile: tile.pk)
    if TileLink.objects.filter(a=low, b=high).exists():
        raise RuleViolation("These tiles are linked already.", field="b")
    try:
        with transaction.atomic():
            return TileLink.objects.create(campaign=campaign, a=low, b=high)
    except IntegrityError:
        raise RuleViolation("These tiles are linked already.", field="b") from None


@transaction.atomic
def tile_link_delete(*, link: TileLink) -> None:
    link.delete()


# --- areas (R-MAP-3) ---

def _check_area(area: Area, *, has_borders: bool) -> None:
    error = area_shape_error(kind=area.kind, has_planet=area.planet_id is not None,
                             has_borders=has_borders, has_owner=area.owner_id is not None)
    if error:
        raise RuleViolation(error[1], field=error[0])


def _areas(campaign: Campaign, area: Area | None, adjacent) -> list[Area]:
    adjacent = list(adjacent)
    for index, other in enumerate(adjacent):
        _own(campaign, other, f"adjacent[{index}]")
        if area is not None and other.pk == area.pk:
            raise RuleViolation("An area is not adjacent to itself.", field=f"adjacent[{index}]")
    return adjacent


def _tiles(campaign: Campaign, tiles) -> list[Tile]:
    tiles = list(tiles)
    for index, tile in enumerate(tiles):
        _own(campaign, tile, f"borders_tiles[{index}]")
    return tiles


@transaction.atomic
def area_create(*, campaign: Campaign, name: str, kind: str, planet: Planet | None = None,
                adjacent=(), borders_tiles=(), owner: Player | None = None) -> Area:
    """A sea or space area; ``adjacent`` is symmetric; only an orbit names a planet and only an
    island has an owner (R-MAP-3, R-SEA-1)."""
    area = Area(campaign=campaign, name=_text(name, "name", Area), kind=kind,
                planet=_own(campaign, planet, "planet"), owner=_own(campaign, owner, "owner"))
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
        area.name = _text(name, "name", Area)
    if kind is not _UNSET:
        area.kind = kind
    if planet is not _UNSET:
        area.planet = _own(campaign, planet, "planet")
    if owner is not _UNSET:
        area.owner = _own(campaign, owner, "owner")
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
        raise _in_use("Fleets are in this area.")
    area.delete()


# --- markers (R-MRK) ---

def _marker_type(campaign: Campaign, code) -> MarkerType:
    found = (MarkerType.objects.filter(campaign=campaign, code=code).first()
             if isinstance(code, str) else None)
    if found is None:
        raise RuleViolation(f"Unknown marker type {code!r}.", field="type")
    return found


@transaction.atomic
def marker_create(*, campaign: Campaign, tile: Tile, type: str) -> Marker:  # noqa: A002
    """A marker of the campaign's marker type ``type`` (its code) on ``tile``; it belongs to
    the tile's owner (R-MRK-4)."""
    return Marker.objects.create(campaign=campaign, tile=_own(campaign, tile, "tile"),
                                 type=_marker_type(campaign, type))


@transaction.atomic
def marker_update(*, marker: Marker, tile=_UNSET, type=_UNSET) -> Marker:  # noqa: A002
    if tile is not _UNSET:
        marker.tile = _own(marker.campaign, tile, "tile")
    if type is not _UNSET:
        marker.type = _marker_type(marker.campaign, type)
    marker.save()
    return marker


@transaction.atomic
def marker_delete(*, marker: Marker) -> None:
    marker.delete()


# --- the whole map ---

def _check_map_replaceable(campaign: Campaign) -> None:
    if Round.objects.filter(campaign=campaign, number=1, phase=Round.Phase.CLOSED).exists():
        raise Conflict("The map can only be replaced before round 1 closes.", code="wrong_phase")


@transaction.atomic
def map_import(*, campaign: Campaign, document) -> None:
    """Replace the campaign's whole map (planets, tiles, links, markers, areas, fleets and
    their ships) with ``document``, the shape GET /map/ shows. The document is validated as a
    whole first: any error rejects it (``map_document.DocumentInvalid``, errors by path)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # one import at a time
    _check_map_replaceable(campaign)
    plan = map_document.parse(
        document,
        players=set(Player.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        marker_types=dict(MarkerType.objects.filter(campaign=campaign)
                          .values_list("code", "pk")),
        detachment_points=_detachment_points(campaign))
    _clear_map(campaign)
    map_document.write(campaign, plan)


def _detachment_points(campaign: Campaign) -> int:
    return current_ruleset(campaign)["detachment_points"]


def _clear_map(campaign: Campaign) -> None:
    Fleet.objects.filter(campaign=campaign).delete()  # ships go with them
    Area.objects.filter(campaign=campaign).delete()
    Marker.objects.filter(campaign=campaign).delete()
    TileLink.objects.filter(campaign=campaign).delete()
    Tile.objects.filter(campaign=campaign).delete()
    Planet.objects.filter(campaign=campaign).delete()
