"""The map editor's hex grid of one planet: its tiles and the free hexes a few rings
around them, each with its SVG geometry (locale-independent numbers), a label for screen
readers and the address that selects it. Pointy-top hexes in axial coordinates (R-MAP-1)."""

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from web.presenters.hex_text import layout
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
    selected: bool = False
    # a tile's name on up to three lines sized to stay inside the hex (``hex_text``):
    # (x, y, text) each at font size ``size``; its terrain and marker icons in a row:
    # (icon, x, y, size); its defence line (R-MAP-2)
    lines: tuple = ()
    size: str = ""
    icons: tuple = ()
    defence: bool = False


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


ICON_FEATURES = ("mountain", "spaceport", "macropole")  # the map's icons (hexmap)


def tile_cell(tile, selected_id: int | None) -> Cell:
    from web.templatetags.feldzug import feature_label  # the pages' one set of labels

    x, y = centre(tile.q, tile.r)
    owner = tile.owner.faction if tile.owner_id else _("neutral")
    label = _("Tile (%(q)s, %(r)s)") % {"q": tile.q, "r": tile.r}
    if tile.name:
        label += f": {tile.name}"
    markers = len(tile.markers.all())
    features = tile.features or []
    icons = [f for f in ICON_FEATURES if f in features] + ["marker"] * markers
    text = tile.name or f"{tile.q},{tile.r}"
    fit = layout(text, radius=SIZE - 1, icons=len(icons), max_size=10.0, pad=2.5)
    size = svg_number(fit.icon_size)
    return Cell(q=tile.q, r=tile.r, x=svg_number(x), y=svg_number(y), points=corners(x, y),
                label=", ".join([label, owner, *(str(feature_label(f)) for f in features)]),
                text=text,
                tile_id=tile.pk, fill=tile.owner.colour if tile.owner_id else "",
                markers=markers, selected=tile.pk == selected_id,
                lines=tuple((svg_number(x), svg_number(y + ly), line)
                            for line, ly in zip(fit.lines, fit.line_ys, strict=True)),
                size=svg_number(fit.size),
                icons=tuple((icon, svg_number(x + ix), svg_number(y + fit.icon_y), size)
                            for icon, ix in zip(icons, fit.icon_x, strict=True)),
                defence="defence" in features)


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
