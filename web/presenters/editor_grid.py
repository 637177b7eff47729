"""The map editor's hex grid of one planet (issue 18): its tiles and the free hexes a few rings
around them, each with its SVG geometry (locale-independent numbers), a label for screen
readers and the address that selects it. Pointy-top hexes in axial coordinates (R-MAP-1)."""

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from web.presenters.numbers import svg_number

SIZE = 30  # a hex's corner radius in SVG units
RINGS = 2  # free hexes shown around the tiles
SLOT_LIMIT = 400  # never more free hexes than this (a huge planet stays a small page)
_SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class Cell:
    q: int
    r: int
    x: str
    y: str
    points: str
    label: str  # aria-label
    text: str  # what the hex shows
    tile_id: int | None = None
    fill: str = ""
    markers: int = 0
    marker_y: str = ""  # where the marker badge sits, under the text
    selected: bool = False


def centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * _SQRT3 * (q + r / 2), SIZE * 1.5 * r


def corners(x: float, y: float, size: float = SIZE - 1) -> str:
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{svg_number(x + size * math.cos(angle))},"
                      f"{svg_number(y + size * math.sin(angle))}")
    return " ".join(points)


def free_hexes(taken: set[tuple[int, int]], rings: int = RINGS) -> list[tuple[int, int]]:
    """The hexes within ``rings`` steps of a taken one (of (0, 0) on an empty planet) that are
    free, nearest rows first."""
    seeds = taken or {(0, 0)}
    free = set()
    for q, r in seeds:
        for dq in range(-rings, rings + 1):
            for dr in range(max(-rings, -dq - rings), min(rings, -dq + rings) + 1):
                if (q + dq, r + dr) not in taken:
                    free.add((q + dq, r + dr))
    return sorted(free, key=lambda hex_: (hex_[1], hex_[0]))[:SLOT_LIMIT]


def _short(text: str, limit: int = 7) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def tile_cell(tile, selected_id: int | None) -> Cell:
    x, y = centre(tile.q, tile.r)
    owner = tile.owner.faction if tile.owner_id else _("neutral")
    label = _("Tile (%(q)s, %(r)s)") % {"q": tile.q, "r": tile.r}
    if tile.name:
        label += f": {tile.name}"
    markers = len(tile.markers.all())
    return Cell(q=tile.q, r=tile.r, x=svg_number(x), y=svg_number(y), points=corners(x, y),
                label=f"{label}, {owner}", text=_short(tile.name or f"{tile.q},{tile.r}"),
                tile_id=tile.pk, fill=tile.owner.colour if tile.owner_id else "",
                markers=markers, marker_y=svg_number(y + SIZE * 0.5),
                selected=tile.pk == selected_id)


def slot_cell(q: int, r: int, selected: tuple[int, int] | None) -> Cell:
    x, y = centre(q, r)
    return Cell(q=q, r=r, x=svg_number(x), y=svg_number(y), points=corners(x, y),
                label=_("Empty hex (%(q)s, %(r)s): add a tile here") % {"q": q, "r": r},
                text="+", selected=(q, r) == selected)


def editor_grid(tiles, *, selected_tile: int | None = None,
                selected_slot: tuple[int, int] | None = None) -> dict:
    """The cells (tiles first, then free hexes) and the SVG viewBox around them."""
    tiles = list(tiles)
    cells = [tile_cell(tile, selected_tile) for tile in tiles]
    cells += [slot_cell(q, r, selected_slot)
              for q, r in free_hexes({(tile.q, tile.r) for tile in tiles})]
    xs = [centre(cell.q, cell.r)[0] for cell in cells]
    ys = [centre(cell.q, cell.r)[1] for cell in cells]
    margin = SIZE + 4
    left, top = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    return {"cells": cells,
            "view_box": " ".join(svg_number(v) for v in (left, top, width, height)),
            "width": svg_number(width), "height": svg_number(height)}
