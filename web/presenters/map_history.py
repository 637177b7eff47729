"""Names, owners and words for the map-history page: the selector's ids
(``league.selectors.map_history``) turned into what the page shows, once per request."""

from collections import Counter

from django.utils.translation import gettext as _

from campaigns.labels import place_label

GREY = "#888888"


def tile_place(tile: dict) -> str:
    """"Alpha (1, 0)", "Hill 12 (Alpha)" for a named tile (``campaigns.labels``); a tile
    removed from the map since is named by its id."""
    if tile["planet"] is None:
        return _("tile %(id)s (no longer on the map)") % {"id": tile["id"]}
    return place_label(planet=tile["planet_name"], q=tile["q"], r=tile["r"], name=tile["name"])


class Owners:
    """Players by id; an id no longer in the campaign is a grey "former player"."""

    def __init__(self, players):
        self.players = {p.pk: {"faction": p.faction, "colour": p.colour} for p in players}

    def __call__(self, owner: int | None) -> dict | None:
        if owner is None:
            return None
        return self.players.get(owner) or {"faction": _("former player"), "colour": GREY}

    @property
    def colours(self) -> dict:
        return {pk: player["colour"] for pk, player in self.players.items()}


def present_history(history, players, marker_names: dict[str, str]) -> dict:
    """What the page lists: the tiles (with a label), the fleets per area and owner, and the
    changes, owners as ``{"faction", "colour"}`` (None: neutral or no player)."""
    owner = Owners(players)

    def names(codes: list[str]) -> list[str]:
        return [marker_names.get(code, code) for code in codes]

    tiles = [{**tile, "place": tile_place(tile), "owner_player": owner(tile["owner"]),
              "marker_names": names(tile["markers"])} for tile in history.tiles]
    for tile in tiles:
        tile["label"] = _label(tile)
    counts, ships, areas = Counter(), Counter(), {}
    for fleet in history.fleets:
        key = (fleet["area"], fleet["owner"])
        counts[key] += 1
        ships[key] += fleet["ships"]
        areas[fleet["area"]] = fleet["area_name"]
    fleets = [{"area_name": areas[area], "owner_player": owner(who), "fleets": counts[(area, who)],
               "ships": ships[(area, who)]}
              for area, who in sorted(counts, key=lambda k: (k[0], k[1] is None, k[1] or 0))]
    return {"tiles": tiles, "fleets": fleets, "colours": owner.colours,
            "changes": _changes(history.changes, owner, names) if history.changes else None}


def _label(tile: dict) -> str:
    holder = tile["owner_player"]["faction"] if tile["owner_player"] else _("neutral")
    return ", ".join([f"{tile['place']}: {holder}", *tile["marker_names"]])


def _changes(changes: dict, owner, names) -> dict:
    return {
        "owners": [{"place": tile_place(c["tile"]), "from": owner(c["from"]),
                    "to": owner(c["to"])} for c in changes["owners"]],
        "markers": [{"place": tile_place(c["tile"]), "added": names(c["added"]),
                     "removed": names(c["removed"])} for c in changes["markers"]],
        "tiles_added": [tile_place(t) for t in changes["tiles_added"]],
        "tiles_removed": [tile_place(t) for t in changes["tiles_removed"]],
        "fleets": [{**c, "owner_player": owner(c["owner"])} for c in changes["fleets"]],
    }
