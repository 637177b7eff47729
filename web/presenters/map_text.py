"""The map as text (the map page's "Map as text"): the same map document, map state, owners'
short labels and labels as the SVG drawing (``web.presenters.hexmap``), as tables a screen
reader or a reader who does not tell colours apart can read: per planet its tiles with
owner, terrain, markers, neighbours and pending attacks; the sea and space areas with their
fleets. Pure formatting of what it is given, so the page asks no query per tile.

Only what the reader may see: fleets by their public facts (owner, kind, ship count, R-FLT-7)
and the reader's own fleets by name besides (``Viewer.own_fleets``); never a fleet's ships,
cargo or orders, an army list or a hazard. The attacks are those the reader may see
(``battles.selectors.attacks.visible_attacks``, R-SEC-2), passed in."""

from collections import defaultdict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.board import HEX_DIRECTIONS
from web.presenters.hexmap import owner_labels, owner_slots
from web.presenters.map_state import MapState, Viewer


def _labels():
    from web.templatetags.feldzug import area_kind_label, feature_label, fleet_kind_label

    return feature_label, area_kind_label, fleet_kind_label


def map_tables(document: dict, *, players: dict, marker_names: dict,
               state: MapState | None = None, viewer: Viewer | None = None,
               attacks=()) -> dict:
    """``{"planets": [{"id", "name", "tiles": [row]}], "areas": [row], "owners": [owner]}``.

    A tile row: ``id``, ``name`` ("" for an unnamed tile), ``coordinates`` "(q, r)",
    ``owner`` (``{"faction", "label", "colour", "slot"}`` or None: the map's owner colour,
    short label and pattern), ``terrain``, ``markers``,
    ``neighbours`` (tiles by name, areas by name) and ``attacks`` (attacking factions), each a
    list of strings. An area row: ``id``, ``name``, ``kind``, ``planet``, ``neighbours``,
    ``tiles`` (the tiles it borders) and ``fleets`` (one line each). ``attacks``: rows
    ``(tile id, attacking player id)`` the reader may see."""
    feature_label, area_kind_label, fleet_kind_label = _labels()
    state = state or MapState.from_document(document)
    viewer = viewer or Viewer()
    labels, slots = owner_labels(players), owner_slots(players)
    owners = {pk: {"faction": p.faction, "label": labels[pk], "colour": p.colour or "#333333",
                   "slot": slots[pk]} for pk, p in players.items()}
    tiles = {t["id"]: (planet, t) for planet in document["planets"] for t in planet["tiles"]}
    linked = defaultdict(list)  # R-MAP-1: the hexes around a tile, and explicit links
    at = {(planet["id"], t["q"], t["r"]): t["id"] for planet in document["planets"]
          for t in planet["tiles"]}
    for (planet_id, q, r), tile_id in at.items():
        linked[tile_id] += [at[(planet_id, q + dq, r + dr)] for dq, dr in HEX_DIRECTIONS
                            if (planet_id, q + dq, r + dr) in at]
    for a, b in document["links"]:
        linked[a].append(b)
        linked[b].append(a)
    bordering = defaultdict(list)
    for area in document["areas"]:
        for tile_id in area["borders_tiles"]:
            bordering[tile_id].append(area["name"])
    attacking = defaultdict(list)
    for tile_id, player_id in attacks:
        attacking[tile_id].append(owners[player_id]["faction"] if player_id in owners else "?")

    def tile_name(tile_id: int, home: int) -> str:
        planet, tile = tiles[tile_id]
        place = tile["name"] or f"({tile['q']}, {tile['r']})"
        return place if planet["id"] == home else f"{place}, {planet['name']}"

    planets = []
    for planet in document["planets"]:
        rows = []
        for tile in planet["tiles"]:
            owner = state.owners.get(tile["id"])
            rows.append({
                "id": tile["id"], "name": tile["name"],
                "coordinates": f"({tile['q']}, {tile['r']})",
                "owner": owners.get(owner) if owner else None,
                "terrain": [str(feature_label(f)) for f in tile["features"]],
                "markers": [marker_names.get(code, code)
                            for code in state.markers.get(tile["id"], ())],
                "neighbours": sorted(tile_name(other, planet["id"])
                                     for other in set(linked[tile["id"]]) if other in tiles)
                + sorted(bordering[tile["id"]]),
                "attacks": attacking[tile["id"]]})
        planets.append({"id": planet["id"], "name": planet["name"], "tiles": rows})
    borders = {area["id"]: [tile_name(t, None) for t in area["borders_tiles"] if t in tiles]
               for area in document["areas"]}
    return {"planets": planets, "areas": _areas(document, state, viewer, owners, borders,
                                                 area_kind_label, fleet_kind_label),
            "owners": list(owners.values())}


def _areas(document, state, viewer, owners, borders, area_kind_label,
           fleet_kind_label) -> list[dict]:
    names = {a["id"]: a["name"] for a in document["areas"]}
    planet_names = {p["id"]: p["name"] for p in document["planets"]}
    rows = []
    for area in document["areas"]:
        fleets = []
        for fleet in state.fleets.get(area["id"], ()):
            owner = owners.get(fleet["owner"])
            who = _("%(faction)s (%(label)s)") % owner if owner else _("Unowned fleet")
            ships = ngettext("%(n)s ship", "%(n)s ships", fleet["ships"]) % {"n": fleet["ships"]}
            parts = [who]
            if fleet.get("kind"):
                parts.append(str(fleet_kind_label(fleet["kind"])))
            parts.append(ships)
            own = viewer.own_fleets.get(fleet.get("id"))
            if own:
                parts.append(_("your fleet %(name)s") % {"name": own})
            fleets.append(", ".join(parts))
        rows.append({"id": area["id"], "name": area["name"],
                     "kind": str(area_kind_label(area["kind"])),
                     "planet": planet_names.get(area["planet"], ""),
                     "neighbours": [names[a] for a in area["adjacent"] if a in names],
                     "tiles": borders[area["id"]], "fleets": fleets})
    return rows
