"""Marker effects (R-MRK): army point bonus (R-MRK-2) and conquest protection (R-MRK-3)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import Board


@dataclass(frozen=True)
class Protection:
    """The marker protecting a tile (R-MRK-3): the strongest one, they do not stack."""

    marker: int
    code: str
    tile: int
    modifier: int
    rule: str = "R-MRK-3"


def marker_bonus(board: Board, player: int, planet: int | None) -> int:
    """R-MRK-2: ``army_points_bonus`` of every marker on ``player``'s tiles on ``planet``."""
    if planet is None:
        return 0
    return sum(board.marker_type(m.type).army_points_bonus
               for m in board.planet_markers(planet) if board.marker_owner(m) == player)


def protection(board: Board, tile_id: int) -> Protection | None:
    """R-MRK-3: the strongest (most negative) conquest modifier among the markers of the tile's
    owner on the same planet within their ``radius`` hex steps of the tile.

    A marker belongs to whoever owns its tile (R-MRK-4): on a neutral tile it has no owner and
    protects nothing, and a neutral tile is protected by no marker (R-MRK-3: tiles of its
    owner)."""
    tile = board.tile(tile_id)
    if tile.owner is None:
        return None
    best: Protection | None = None
    for m in board.planet_markers(tile.planet):
        mtype = board.marker_type(m.type)
        if mtype.conquest_modifier == 0 or board.marker_owner(m) != tile.owner:
            continue
        if board.distance(m.tile, tile_id) > mtype.radius:
            continue
        if best is None or (mtype.conquest_modifier, m.id) < (best.modifier, best.marker):
            best = Protection(m.id, m.type, m.tile, mtype.conquest_modifier)
    return best
