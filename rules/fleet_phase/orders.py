"""What a player may order for a fleet in the ``declare`` phase: movement orders (R-FLT-4),
standing orders (R-FLT-5) and embarking or disembarking detachments (R-FLT-8).

Each check returns None when the order is legal, else an ``OrderError`` naming the rule, the
offending field and the reason (in plain English, and as ``key`` and ``params`` so a caller with
translations, ``fleets.messages``, can say it in the reader's language); the caller turns it
into a 400."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from rules.interception import BENEFITS, POLICIES
from rules.naval import AUTO, STANCES
from rules.ship_values import MIN_DETACHMENT_POINTS

DEFAULT_STANDING_ORDERS = {"interception": "always", "benefits": list(BENEFITS), "stance": AUTO}
EMBARK_AREA_KINDS = ("coastal", "orbit")  # R-FLT-8


class OrderError(NamedTuple):
    rule: str
    field: str
    message: str
    key: str = ""
    params: Mapping = MappingProxyType({})


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- R-FLT-4 movement orders ------------------------------------------------------------------


def path_error(current: int, path: Sequence, adjacency: Mapping[int, Collection[int]],
               max_moves: int | None) -> OrderError | None:
    """R-FLT-4: ``path`` lists the areas to enter in order; the first is adjacent to
    ``current`` (which is not repeated), each next one adjacent to the one before, no area
    twice, at most ``max_moves`` areas (None: unlimited). An empty path orders no move."""
    if max_moves is not None and len(path) > max_moves:
        return OrderError("R-FLT-4", "path",
                          f"at most {max_moves} moves per round (max_fleet_moves)",
                          "max_moves", {"most": max_moves, "count": len(path)})
    seen = {current}
    here = current
    for index, area in enumerate(path):
        where = f"path[{index}]"
        if not _is_int(area) or area not in adjacency:
            return OrderError("R-FLT-4", where, f"no area {area!r} in this campaign",
                              "no_area", {"area": repr(area)})
        if area in seen:
            if area == current:
                return OrderError("R-FLT-4", where, f"area {area} is the fleet's current "
                                  f"area: no area twice", "current_area", {"area": area})
            return OrderError("R-FLT-4", where, f"area {area} is an area already in the path: "
                              f"no area twice", "area_twice", {"area": area})
        if area not in adjacency.get(here, ()):
            return OrderError("R-FLT-4", where, f"area {area} is not adjacent to area {here}",
                              "not_adjacent", {"area": area, "here": here})
        seen.add(area)
        here = area
    return None


# --- R-FLT-5 standing orders ------------------------------------------------------------------


def standing_orders_error(orders: Mapping, ship_ids: Sequence[int]) -> OrderError | None:
    """R-FLT-5: interception policy, benefit preference (an ordered subset of a-d, each at
    most once), battle stance, and the battle line (a permutation of the fleet's ship ids).
    Only the keys present are checked (a partial change)."""
    if "interception" in orders and orders["interception"] not in POLICIES:
        return OrderError("R-FLT-5", "interception", f"must be one of {', '.join(POLICIES)}",
                          "choice", {"choices": ", ".join(POLICIES)})
    if "benefits" in orders:
        benefits = orders["benefits"]
        if not isinstance(benefits, list | tuple):
            return OrderError("R-FLT-5", "benefits", "must be a list of benefits a-d",
                              "benefits_list")
        for index, wish in enumerate(benefits):
            if wish not in BENEFITS:
                return OrderError("R-FLT-5", f"benefits[{index}]",
                                  f"{wish!r} is not a benefit (a, b, c, d)", "not_benefit",
                                  {"value": repr(wish)})
            if wish in benefits[:index]:
                return OrderError("R-FLT-5", f"benefits[{index}]", f"{wish!r} is listed twice",
                                  "benefit_twice", {"value": repr(wish)})
    if "stance" in orders and orders["stance"] not in STANCES:
        return OrderError("R-FLT-5", "stance", f"must be one of {', '.join(STANCES)}",
                          "choice", {"choices": ", ".join(STANCES)})
    if "line" in orders:
        line = orders["line"]
        if not isinstance(line, list | tuple) or not all(_is_int(s) for s in line):
            return OrderError("R-FLT-5", "line", "must be a list of the fleet's ship ids",
                              "line_list")
        if sorted(line) != sorted(ship_ids):
            return OrderError("R-FLT-5", "line",
                              "must list every ship of the fleet exactly once", "line_ships")
    return None


def standing_orders(stored: Mapping | None) -> dict:
    """The standing orders in force: the stored ones over the defaults; a stored value that is
    not valid (e.g. edited by hand) falls back to its default."""
    merged = dict(DEFAULT_STANDING_ORDERS)
    if isinstance(stored, Mapping):
        for key in DEFAULT_STANDING_ORDERS:
            if key in stored and standing_orders_error({key: stored[key]}, ()) is None:
                merged[key] = list(stored[key]) if key == "benefits" else stored[key]
    return merged


# --- R-FLT-8 transport ------------------------------------------------------------------------


def transport_area_error(area_kind: str, borders_own_tile: bool) -> OrderError | None:
    """R-FLT-8: detachments embark and disembark in a coastal or orbit area bordering one of
    the player's tiles."""
    if area_kind not in EMBARK_AREA_KINDS:
        return OrderError("R-FLT-8", "area",
                          "detachments embark and disembark only in a coastal or orbit area",
                          "transport_area")
    if not borders_own_tile:
        return OrderError("R-FLT-8", "area", "the fleet's area borders none of your tiles",
                          "no_own_tile")
    return None


def embark_error(*, area_kind: str, borders_own_tile: bool, capacity: int, aboard: int,
                 points, detachment_points: int) -> OrderError | None:
    """R-FLT-8 with R-FLT-2: one more detachment of ``points`` (1..``detachment_points``, as
    ``rules.ship_values``) on a ship carrying ``aboard`` detachments of its ``capacity``."""
    error = transport_area_error(area_kind, borders_own_tile)
    if error:
        return error
    if not _is_int(points) or not MIN_DETACHMENT_POINTS <= points <= detachment_points:
        return OrderError("R-FLT-8", "points",
                          f"a detachment has {MIN_DETACHMENT_POINTS} to {detachment_points} "
                          f"army points (detachment_points)", "detachment_points",
                          {"low": MIN_DETACHMENT_POINTS, "high": detachment_points})
    if aboard >= capacity:
        return OrderError("R-FLT-8", "ship", f"the ship carries {aboard} of its capacity "
                                             f"{capacity} detachments already", "ship_full",
                          {"aboard": aboard, "capacity": capacity})
    return None


def disembark_error(*, area_kind: str, borders_own_tile: bool, index, aboard: int
                    ) -> OrderError | None:
    """R-FLT-8: a detachment aboard disembarks (and disbands) where it could embark."""
    error = transport_area_error(area_kind, borders_own_tile)
    if error:
        return error
    if not _is_int(index) or not 0 <= index < aboard:
        if not aboard:
            return OrderError("R-FLT-8", "index", "the ship carries no detachment", "no_cargo")
        return OrderError("R-FLT-8", "index", f"the ship carries {aboard} detachments; "
                                              f"give an index from 0 to {aboard - 1}",
                          "cargo_index", {"aboard": aboard, "last": aboard - 1})
    return None
