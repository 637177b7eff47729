"""Writes that build a campaign's map (R-MAP, R-MRK): planets, tiles, tile links and markers,
one object at a time (areas: ``fleets.services.areas``; the whole map at once:
``league.services.map_document.map_import``).

Every cross-reference must belong to the campaign being edited (400 otherwise)."""

from django.db import IntegrityError, transaction

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Attack, Campaign, Marker, MarkerType, Planet, Player, Tile, TileLink
from campaigns.values import (
    coordinate_error,
    features_error,
    marker_tile_error,
    normalized_features,
    text_error,
)

_UNSET = object()


def checked_text(value, field: str, model) -> str:
    limit = model._meta.get_field(field).max_length
    error = text_error(value, limit)
    if error:
        raise RuleViolation(error, field=field)
    return value.strip()


def owned(campaign: Campaign, obj, field: str):
    """``obj`` unless it belongs to another campaign."""
    if obj is not None and obj.campaign_id != campaign.pk:
        raise RuleViolation("Belongs to another campaign.", field=field)
    return obj


def in_use(message: str) -> Conflict:
    return Conflict(message, code="in_use")


# --- planets ---

@transaction.atomic
def planet_create(*, campaign: Campaign, name: str) -> Planet:
    return Planet.objects.create(campaign=campaign, name=checked_text(name, "name", Planet))


@transaction.atomic
def planet_update(*, planet: Planet, name=_UNSET) -> Planet:
    if name is not _UNSET:
        planet.name = checked_text(name, "name", Planet)
    planet.save()
    return planet


@transaction.atomic
def planet_delete(*, planet: Planet) -> None:
    """Removes the planet with its tiles and orbit areas; refused while attacks name one of its
    tiles or fleets sit in its orbit (their history would go with them)."""
    if Attack.objects.filter(tile__planet=planet).exists():
        raise in_use("Attacks were declared on tiles of this planet.")
    if planet.orbit_areas.filter(fleets__isnull=False).exists():
        raise in_use("Fleets are in this planet's orbit.")
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
    tile = Tile(campaign=campaign, planet=owned(campaign, planet, "planet"),
                q=_coordinate(q, "q"), r=_coordinate(r, "r"),
                owner=owned(campaign, owner, "owner"), features=_features(features or []))
    return _save_tile(tile)


@transaction.atomic
def tile_update(*, tile: Tile, planet=_UNSET, q=_UNSET, r=_UNSET, owner=_UNSET,
                features=_UNSET) -> Tile:
    """Change what is given; the markers go with the tile's owner (R-MRK-4)."""
    campaign = tile.campaign
    if planet is not _UNSET:
        tile.planet = owned(campaign, planet, "planet")
    if q is not _UNSET:
        tile.q = _coordinate(q, "q")
    if r is not _UNSET:
        tile.r = _coordinate(r, "r")
    if owner is not _UNSET:
        tile.owner = owned(campaign, owner, "owner")
        if tile.owner is None and tile.markers.exists():
            raise RuleViolation(marker_tile_error(None), code="R-MRK-4", field="owner")
    if features is not _UNSET:
        tile.features = _features(features)
    return _save_tile(tile)


@transaction.atomic
def tile_delete(*, tile: Tile) -> None:
    if Attack.objects.filter(tile=tile).exists():
        raise in_use("Attacks were declared on this tile.")
    tile.delete()


# --- tile links (R-MAP-1) ---

@transaction.atomic
def tile_link_create(*, campaign: Campaign, a: Tile, b: Tile) -> TileLink:
    """An explicit adjacency between two tiles; stored with a < b, once per pair."""
    owned(campaign, a, "a")
    owned(campaign, b, "b")
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


# --- markers (R-MRK) ---

def _marker_type(campaign: Campaign, code) -> MarkerType:
    found = (MarkerType.objects.filter(campaign=campaign, code=code).first()
             if isinstance(code, str) else None)
    if found is None:
        raise RuleViolation(f"Unknown marker type {code!r}.", field="type")
    return found


def _owned_tile(campaign: Campaign, tile: Tile) -> Tile:
    """``tile``, locked, if it can carry a marker: one of the campaign's tiles with an owner
    (R-MRK-4)."""
    owned(campaign, tile, "tile")
    tile = Tile.objects.select_for_update().get(pk=tile.pk)
    error = marker_tile_error(tile.owner_id)
    if error:
        raise RuleViolation(error, code="R-MRK-4", field="tile")
    return tile


@transaction.atomic
def marker_create(*, campaign: Campaign, tile: Tile, type: str) -> Marker:  # noqa: A002
    """A marker of the campaign's marker type ``type`` (its code) on ``tile``; it belongs to
    the tile's owner, so a neutral tile carries none (R-MRK-4)."""
    return Marker.objects.create(campaign=campaign, tile=_owned_tile(campaign, tile),
                                 type=_marker_type(campaign, type))


@transaction.atomic
def marker_update(*, marker: Marker, tile=_UNSET, type=_UNSET) -> Marker:  # noqa: A002
    if tile is not _UNSET:
        marker.tile = _owned_tile(marker.campaign, tile)
    if type is not _UNSET:
        marker.type = _marker_type(marker.campaign, type)
    marker.save()
    return marker


@transaction.atomic
def marker_delete(*, marker: Marker) -> None:
    marker.delete()
