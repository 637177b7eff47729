"""Map history: the map as it stood when each round closed (``RoundMap``)
and what changed in a round. Public facts only (R-FLT-7): tile owners, marker codes, and each
fleet's area, owner and ship count; never names, values, orders or hazards.

Every read here takes a fixed number of queries whatever the map's size."""

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, OuterRef

from campaigns.models import Campaign, Marker, Round, RoundMap, Tile
from fleets.models import Area, Fleet

# What a round's changes are measured against.
PREVIOUS = "previous"  # the snapshot of the round before
START = "start"  # round 1: the map as set up was not recorded, so an empty map [decision]
UNRECORDED = "unrecorded"  # the round before closed without a snapshot: no changes listed


def map_state(campaign: Campaign) -> tuple[dict, list]:
    """The campaign's map now, in ``RoundMap``'s shape: ``({tile id (str): {"owner",
    "markers"}}, [{"area", "owner", "ships"}])``. Three queries."""
    markers = defaultdict(list)
    for tile_id, code in (Marker.objects.filter(campaign=campaign).order_by("id")
                          .values_list("tile_id", "type__code")):
        markers[tile_id].append(code)
    tiles = {str(tile_id): {"owner": owner, "markers": markers[tile_id]}
             for tile_id, owner in (Tile.objects.filter(campaign=campaign).order_by("id")
                                    .values_list("id", "owner_id"))}
    fleets = [{"area": area, "owner": owner, "ships": ships}
              for area, owner, ships in (Fleet.objects.filter(campaign=campaign).order_by("id")
                                         .annotate(ships_count=Count("ships"))
                                         .values_list("area_id", "owner_id", "ships_count"))]
    return tiles, fleets


@dataclass(frozen=True)
class ClosedRound:
    number: int
    recorded: bool


def closed_rounds(campaign: Campaign) -> list[ClosedRound]:
    """The campaign's closed rounds, oldest first, and whether their map was recorded."""
    snapshot = RoundMap.objects.filter(round=OuterRef("pk"))
    rows = (Round.objects.filter(campaign=campaign, phase=Round.Phase.CLOSED)
            .annotate(recorded=Exists(snapshot)).order_by("number")
            .values_list("number", "recorded"))
    return [ClosedRound(number, recorded) for number, recorded in rows]


@dataclass(frozen=True)
class RoundMapHistory:
    """Round ``number``'s map at its close. ``recorded`` False: the round closed before map
    history existed, so ``tiles``, ``fleets`` and ``changes`` are None (never guessed).
    ``tiles``: [{"id", "planet", "planet_name", "q", "r", "name", "owner", "markers"}] (a tile
    removed from the map since has None for its place); ``fleets``: [{"area", "area_name",
    "owner", "ships"}] one per fleet; ``changes`` (see ``_changes``) against ``basis``."""

    number: int
    closed_at: datetime | None
    recorded: bool
    basis: str | None
    tiles: list[dict] | None
    fleets: list[dict] | None
    changes: dict | None


def round_map_history(campaign: Campaign, number: int) -> RoundMapHistory | None:
    """Round ``number``'s map and changes, or None unless that round has closed."""
    rnd = (Round.objects.filter(campaign=campaign, number=number, phase=Round.Phase.CLOSED)
           .values("number", "closed_at").first())
    if rnd is None:
        return None
    snapshots = {n: (tiles, fleets) for n, tiles, fleets in
                 RoundMap.objects.filter(round__campaign=campaign,
                                         round__number__in=(number - 1, number))
                 .values_list("round__number", "tiles", "fleets")}
    if number not in snapshots:
        return RoundMapHistory(number, rnd["closed_at"], False, None, None, None, None)
    tiles, fleets = snapshots[number]
    info, areas = _tile_info(campaign), _area_names(campaign)
    if number == 1:  # set-up map unknown: every tile neutral and bare, no fleets [decision]
        basis, before = START, ({key: {"owner": None, "markers": []} for key in tiles}, [])
    elif number - 1 in snapshots:
        basis, before = PREVIOUS, snapshots[number - 1]
    else:
        basis, before = UNRECORDED, None
    changes = _changes(before, (tiles, fleets), info, areas) if before is not None else None
    return RoundMapHistory(
        number, rnd["closed_at"], True, basis,
        [{**_info(info, tile_id), "owner": state["owner"], "markers": state["markers"]}
         for tile_id, state in sorted(tiles.items(), key=lambda item: int(item[0]))],
        [{**fleet, "area_name": areas.get(fleet["area"], "")} for fleet in fleets],
        changes)


def _tile_info(campaign: Campaign) -> dict[int, dict]:
    rows = (Tile.objects.filter(campaign=campaign)
            .values_list("id", "planet_id", "planet__name", "q", "r", "name"))
    return {tile_id: {"id": tile_id, "planet": planet, "planet_name": planet_name, "q": q,
                      "r": r, "name": name}
            for tile_id, planet, planet_name, q, r, name in rows}


def _info(info: dict[int, dict], tile_id) -> dict:
    """A tile's place and name as the map has it now; a tile removed since has none."""
    tile_id = int(tile_id)
    return info.get(tile_id) or {"id": tile_id, "planet": None, "planet_name": None, "q": None,
                                 "r": None, "name": ""}


def _area_names(campaign: Campaign) -> dict[int, str]:
    return dict(Area.objects.filter(campaign=campaign).values_list("id", "name"))


def _changes(before: tuple[dict, list], after: tuple[dict, list], info: dict[int, dict],
             areas: dict[int, str]) -> dict:
    """What changed from ``before`` to ``after`` (both in ``RoundMap``'s shape):
    ``owners`` [{"tile", "from", "to"}] and ``markers`` [{"tile", "added", "removed"}] for
    tiles on both maps, ``tiles_added`` / ``tiles_removed`` (map corrections), and ``fleets``
    [{"area", "area_name", "owner", "fleets_before", "fleets_after", "ships_before",
    "ships_after"}] per area and owner whose fleet or ship count changed. ``tile`` is the
    tile's ``_info``."""
    old_tiles, new_tiles = before[0], after[0]
    owners, markers = [], []
    for key in sorted(set(old_tiles) & set(new_tiles), key=int):
        old, new = old_tiles[key], new_tiles[key]
        if old["owner"] != new["owner"]:
            owners.append({"tile": _info(info, key), "from": old["owner"], "to": new["owner"]})
        added = Counter(new["markers"]) - Counter(old["markers"])
        removed = Counter(old["markers"]) - Counter(new["markers"])
        if added or removed:
            markers.append({"tile": _info(info, key), "added": sorted(added.elements()),
                            "removed": sorted(removed.elements())})
    return {"owners": owners, "markers": markers,
            "tiles_added": [_info(info, key) for key in sorted(set(new_tiles) - set(old_tiles),
                                                               key=int)],
            "tiles_removed": [_info(info, key) for key in sorted(set(old_tiles) - set(new_tiles),
                                                                 key=int)],
            "fleets": _fleet_changes(before[1], after[1], areas)}


def _fleet_changes(before: list[dict], after: list[dict], areas: dict[int, str]) -> list[dict]:
    """Per (area, owner): fleets and ships before and after, where either changed."""
    def tally(fleets):
        counts, ships = Counter(), Counter()
        for fleet in fleets:
            key = (fleet["area"], fleet["owner"])
            counts[key] += 1
            ships[key] += fleet["ships"]
        return counts, ships

    (old_counts, old_ships), (new_counts, new_ships) = tally(before), tally(after)
    keys = sorted(set(old_counts) | set(new_counts),
                  key=lambda k: (k[0], k[1] is None, k[1] or 0))
    return [{"area": area, "area_name": areas.get(area, ""), "owner": owner,
             "fleets_before": old_counts[(area, owner)], "fleets_after": new_counts[(area, owner)],
             "ships_before": old_ships[(area, owner)], "ships_after": new_ships[(area, owner)]}
            for area, owner in keys
            if (old_counts[(area, owner)], old_ships[(area, owner)])
            != (new_counts[(area, owner)], new_ships[(area, owner)])]
