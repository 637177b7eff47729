"""The campaign map as GET /campaigns/{id}/map/ shows it (API.md), in a fixed number of
queries whatever the map's size: one per kind of row, joined in Python."""

from collections import defaultdict

from django.db.models import Count

from campaigns.cache import cached
from campaigns.models import Campaign, Marker, Planet, Tile, TileLink
from fleets.models import Area, Fleet


def map_document(campaign: Campaign, viewer=None) -> dict:
    """Planets with tiles and markers, tile links, areas and fleets. Everything here is public
    map information, the same for every ``viewer`` who may see the campaign: fleets show only
    position, kind and ship count (R-FLT-7); a marker's owner is its tile's owner (R-MRK-4)."""
    return {"planets": _planets(campaign), "links": _links(campaign),
            "areas": _areas(campaign), "fleets": _fleets(campaign)}


def current_map_document(campaign: Campaign) -> dict:
    """``map_document``, kept per campaign revision (``campaigns.cache``; public, so one entry
    serves every reader). ``campaign`` as loaded with the request: after a write in the same
    request, ask ``map_document`` (a stale revision would name the old map)."""
    return cached("map-document", campaign, lambda: map_document(campaign))


def _planets(campaign: Campaign) -> list[dict]:
    markers = defaultdict(list)
    for tile_id, code in (Marker.objects.filter(campaign=campaign).order_by("id")
                          .values_list("tile_id", "type__code")):
        markers[tile_id].append(code)
    tiles = defaultdict(list)
    rows = (Tile.objects.filter(campaign=campaign).order_by("id")
            .values_list("id", "planet_id", "q", "r", "name", "owner_id", "features"))
    for tile_id, planet_id, q, r, name, owner, features in rows:
        tiles[planet_id].append({
            "id": tile_id, "q": q, "r": r, "name": name, "owner": owner, "features": features,
            "markers": [{"type": code, "owner": owner} for code in markers[tile_id]]})
    return [{"id": planet_id, "name": name, "tiles": tiles[planet_id]}
            for planet_id, name in (Planet.objects.filter(campaign=campaign).order_by("id")
                                    .values_list("id", "name"))]


def _links(campaign: Campaign) -> list[list[int]]:
    return [[a, b] for a, b in TileLink.objects.filter(campaign=campaign)
            .order_by("a_id", "b_id").values_list("a_id", "b_id")]


def _areas(campaign: Campaign) -> list[dict]:
    adjacent = defaultdict(list)
    for a, b in (Area.adjacent.through.objects.filter(from_area__campaign=campaign)
                 .order_by("from_area_id", "to_area_id")
                 .values_list("from_area_id", "to_area_id")):
        adjacent[a].append(b)
    borders = defaultdict(list)
    for area_id, tile_id in (Area.borders_tiles.through.objects.filter(area__campaign=campaign)
                             .order_by("area_id", "tile_id").values_list("area_id", "tile_id")):
        borders[area_id].append(tile_id)
    rows = (Area.objects.filter(campaign=campaign).order_by("id")
            .values_list("id", "name", "kind", "planet_id"))
    return [{"id": area_id, "name": name, "kind": kind, "planet": planet_id,
             "adjacent": adjacent[area_id], "borders_tiles": borders[area_id]}
            for area_id, name, kind, planet_id in rows]


def _fleets(campaign: Campaign) -> list[dict]:
    rows = (Fleet.objects.filter(campaign=campaign).order_by("id")
            .annotate(ship_count=Count("ships"))
            .values_list("id", "owner_id", "area_id", "kind", "ship_count"))
    return [{"id": fleet_id, "owner": owner, "area": area_id, "kind": kind,
             "ship_count": ship_count}
            for fleet_id, owner, area_id, kind, ship_count in rows]
