"""Writes that build a campaign's map (R-MAP, R-MRK): planets, tiles, tile links and markers,
one object at a time (areas: ``fleets.services.areas``; the whole map at once:
``league.services.map_document.map_import``).

Every cross-reference must belong to the campaign being edited (400 otherwise). Once the
campaign runs, every write is a correction (``campaigns.services.corrections``):
refused while the automatic fleets phase runs (R-RND-2) and logged with ``actor``, what changed
before and after, and the admin's optional ``reason`` (shown in the audit log); before the
start the map is edited freely and nothing is logged."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import (
    TILE_NAME_MAX,
    Attack,
    Campaign,
    Marker,
    MarkerType,
    Planet,
    Player,
    Tile,
    TileLink,
)
from campaigns.services.corrections import check_correctable, correction, is_running
from campaigns.services.map_facts import changes, planet_facts, tile_facts, tile_label
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
        raise RuleViolation(_("Belongs to another campaign."), field=field)
    return obj


def in_use(message: str) -> Conflict:
    return Conflict(message, code="in_use")


def _guard(campaign: Campaign) -> None:
    """Refuse a correction while an automatic phase runs, before anything changes. The status
    is read afresh: the caller's campaign object may predate the start."""
    campaign.refresh_from_db(fields=["status"])
    if is_running(campaign):
        check_correctable(campaign)


def _log(campaign: Campaign, actor, kind: str, target: str, before, after,
         reason: str) -> None:
    if before != after:
        correction(campaign=campaign, actor=actor, kind=kind, target=target, before=before,
                   after=after, reason=reason)


# --- planets ---

@transaction.atomic
def planet_create(*, campaign: Campaign, name: str, actor=None, reason: str = "") -> Planet:
    _guard(campaign)
    planet = Planet.objects.create(campaign=campaign, name=checked_text(name, "name", Planet))
    _log(campaign, actor, "planet.create", planet.name, None, {"name": planet.name}, reason)
    return planet


@transaction.atomic
def planet_update(*, planet: Planet, name=_UNSET, actor=None, reason: str = "") -> Planet:
    _guard(planet.campaign)
    before = planet.name
    if name is not _UNSET:
        planet.name = checked_text(name, "name", Planet)
    planet.save()
    _log(planet.campaign, actor, "planet.update", before, {"name": before},
         {"name": planet.name}, reason)
    return planet


@transaction.atomic
def planet_delete(*, planet: Planet, actor=None, reason: str = "") -> None:
    """Removes the planet with its tiles and orbit areas; refused while attacks name one of its
    tiles or fleets sit in its orbit (their history would go with them)."""
    _guard(planet.campaign)
    if Attack.objects.filter(tile__planet=planet).exists():
        raise in_use(_("Attacks were declared on tiles of this planet."))
    if planet.orbit_areas.filter(fleets__isnull=False).exists():
        raise in_use(_("Fleets are in this planet's orbit."))
    before = planet_facts(planet)
    planet.delete()
    _log(planet.campaign, actor, "planet.delete", before["name"], before, None, reason)


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


def _name(value) -> str:
    error = text_error(value, TILE_NAME_MAX, blank=True)
    if error:
        raise RuleViolation(error, field="name")
    return value.strip()


def _tile_taken(tile: Tile) -> str:
    return _("The planet has a tile at (%(q)s, %(r)s) already.") % {"q": tile.q, "r": tile.r}


def _save_tile(tile: Tile) -> Tile:
    clash = Tile.objects.filter(planet_id=tile.planet_id, q=tile.q, r=tile.r).exclude(pk=tile.pk)
    if clash.exists():
        raise RuleViolation(_tile_taken(tile), field="q")
    try:
        with transaction.atomic():
            tile.save()
    except IntegrityError:  # a concurrent write took the hex
        raise RuleViolation(_tile_taken(tile), field="q") from None
    return tile


@transaction.atomic
def tile_create(*, campaign: Campaign, planet: Planet, q: int, r: int,
                owner: Player | None = None, features: list[str] | None = None,
                name: str = "", actor=None, reason: str = "") -> Tile:
    _guard(campaign)
    tile = Tile(campaign=campaign, planet=owned(campaign, planet, "planet"),
                q=_coordinate(q, "q"), r=_coordinate(r, "r"), name=_name(name),
                owner=owned(campaign, owner, "owner"), features=_features(features or []))
    _save_tile(tile)
    _log(campaign, actor, "tile.create", tile_label(tile), None, tile_facts(tile), reason)
    return tile


@transaction.atomic
def tile_update(*, tile: Tile, planet=_UNSET, q=_UNSET, r=_UNSET, owner=_UNSET,
                features=_UNSET, name=_UNSET, actor=None, reason: str = "") -> Tile:
    """Change what is given; the markers go with the tile's owner (R-MRK-4)."""
    campaign = tile.campaign
    _guard(campaign)
    before, label = tile_facts(tile), tile_label(tile)
    if name is not _UNSET:
        tile.name = _name(name)
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
    _save_tile(tile)
    _log(campaign, actor, "tile.update", label, *changes(before, tile_facts(tile)), reason)
    return tile


@transaction.atomic
def tile_delete(*, tile: Tile, actor=None, reason: str = "") -> None:
    _guard(tile.campaign)
    if Attack.objects.filter(tile=tile).exists():
        raise in_use(_("Attacks were declared on this tile."))
    before, label = tile_facts(tile), tile_label(tile)
    tile.delete()
    _log(tile.campaign, actor, "tile.delete", label, before, None, reason)


# --- tile links (R-MAP-1) ---

def _link_label(a: Tile, b: Tile) -> str:
    return f"{tile_label(a)} – {tile_label(b)}"


@transaction.atomic
def tile_link_create(*, campaign: Campaign, a: Tile, b: Tile, actor=None,
                     reason: str = "") -> TileLink:
    """An explicit adjacency between two tiles; stored with a < b, once per pair."""
    _guard(campaign)
    owned(campaign, a, "a")
    owned(campaign, b, "b")
    if a.pk == b.pk:
        raise RuleViolation(_("A tile can not be linked to itself."), field="b")
    low, high = sorted((a, b), key=lambda tile: tile.pk)
    if TileLink.objects.filter(a=low, b=high).exists():
        raise RuleViolation(_("These tiles are linked already."), field="b")
    try:
        with transaction.atomic():
            link = TileLink.objects.create(campaign=campaign, a=low, b=high)
    except IntegrityError:
        raise RuleViolation(_("These tiles are linked already."), field="b") from None
    label = _link_label(low, high)
    _log(campaign, actor, "link.create", label, None, {"link": label}, reason)
    return link


@transaction.atomic
def tile_link_delete(*, link: TileLink, actor=None, reason: str = "") -> None:
    _guard(link.campaign)
    label = _link_label(link.a, link.b)
    link.delete()
    _log(link.campaign, actor, "link.delete", label, {"link": label}, None, reason)


# --- markers (R-MRK) ---

def _marker_type(campaign: Campaign, code) -> MarkerType:
    found = (MarkerType.objects.filter(campaign=campaign, code=code).first()
             if isinstance(code, str) else None)
    if found is None:
        raise RuleViolation(_("Unknown marker type %(code)r.") % {"code": code}, field="type")
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


def _markers_of(tile: Tile) -> dict:
    return {"markers": sorted(tile.markers.values_list("type__code", flat=True))}


def _marker_facts(marker: Marker) -> dict:
    return {"tile": tile_label(marker.tile), "type": marker.type.code}


@transaction.atomic
def marker_create(*, campaign: Campaign, tile: Tile, type: str,  # noqa: A002
                  actor=None, reason: str = "") -> Marker:
    """A marker of the campaign's marker type ``type`` (its code) on ``tile``; it belongs to
    the tile's owner, so a neutral tile carries none (R-MRK-4)."""
    _guard(campaign)
    tile = _owned_tile(campaign, tile)
    before = _markers_of(tile)
    marker = Marker.objects.create(campaign=campaign, tile=tile,
                                   type=_marker_type(campaign, type))
    _log(campaign, actor, "marker.create", tile_label(tile), before, _markers_of(tile),
         reason)
    return marker


@transaction.atomic
def marker_update(*, marker: Marker, tile=_UNSET, type=_UNSET,  # noqa: A002
                  actor=None, reason: str = "") -> Marker:
    _guard(marker.campaign)
    before = _marker_facts(marker)
    if tile is not _UNSET:
        marker.tile = _owned_tile(marker.campaign, tile)
    if type is not _UNSET:
        marker.type = _marker_type(marker.campaign, type)
    marker.save()
    after = _marker_facts(marker)
    _log(marker.campaign, actor, "marker.update", before["tile"], *changes(before, after),
         reason)
    return marker


@transaction.atomic
def marker_delete(*, marker: Marker, actor=None, reason: str = "") -> None:
    _guard(marker.campaign)
    tile = marker.tile
    before = _markers_of(tile)
    marker.delete()
    _log(marker.campaign, actor, "marker.delete", tile_label(tile), before,
         _markers_of(tile), reason)
