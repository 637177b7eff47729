"""Geometry of the SVG hex maps: pointy-top hexes on axial coordinates (q, r) as the rules
number them (R-MAP-1), one drawing per planet with its orbit ring for the areas around it."""

import math

from web.presenters.numbers import svg_number as num

SIZE = 24  # hex radius in SVG units
ROOT3 = math.sqrt(3)
MARGIN = 10
RING_GAP = 22  # between the outermost tile and the orbit ring
NEUTRAL = "#d8d8d0"
ICON = 12  # icon width; icons sit in a row across the tile's middle
ICON_FEATURES = ("mountain", "spaceport", "macropole")  # defence lines are the tile's border
# the two marker types the rules name (R-MRK-1) have their own icons; other types share one
MARKER_ICONS = {"manufactorum": "manufactorum", "shield_generator": "shield"}


def marker_icon(code: str) -> str:
    return MARKER_ICONS.get(code, "marker")


def marker_legend(names: dict[str, str]) -> list[dict]:
    """One legend entry per marker type of the campaign: its icon and name."""
    return [{"icon": marker_icon(code), "name": name} for code, name in names.items()]


def centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r


def corners(x: float, y: float, size: float = SIZE) -> str:
    """The six corners as an SVG ``points`` list."""
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{num(x + size * math.cos(angle))},{num(y + size * math.sin(angle))}")
    return " ".join(points)


def planet_drawing(planet: dict, colours: dict, orbit_fleets: list[dict]) -> dict:
    """``planet`` from the map document, with each tile's centre, corners and fill, an orbit
    ring around the tiles carrying ``orbit_fleets`` as tokens, and the SVG view box. Every
    coordinate is a locale-independent string (``svg_number``)."""
    tiles, centres = [], []
    for tile in planet["tiles"]:
        x, y = centre(tile["q"], tile["r"])
        centres.append((x, y))
        tiles.append({**tile, "x": num(x), "y": num(y), "points": corners(x, y),
                      "fill": colours.get(tile["owner"], NEUTRAL), "icons": _icons(tile, x, y)})
    if centres:
        cx = (min(x for x, _ in centres) + max(x for x, _ in centres)) / 2
        cy = (min(y for _, y in centres) + max(y for _, y in centres)) / 2
        reach = max(math.hypot(x - cx, y - cy) for x, y in centres) + SIZE
    else:
        cx = cy = 0.0
        reach = SIZE
    ring = reach + RING_GAP
    extent = ring + MARGIN
    tokens = _tokens(orbit_fleets, cx, cy, ring)
    return {**planet, "tiles": tiles, "ring": {"x": num(cx), "y": num(cy), "r": num(ring)},
            "tokens": tokens,
            "view_box": f"{num(cx - extent)} {num(cy - extent)} {num(2 * extent)} "
                        f"{num(2 * extent)}"}


def _icons(tile: dict, x: float, y: float) -> list[dict]:
    """Feature icons then one per marker (by its type), centred in a row on the tile."""
    names = [f for f in ICON_FEATURES if f in tile["features"]]
    names += [marker_icon(m.get("type", "")) for m in tile.get("markers", ())]
    left = x - len(names) * ICON / 2
    return [{"name": name, "x": num(left + i * ICON), "y": num(y - ICON / 2), "size": num(ICON)}
            for i, name in enumerate(names)]


def _tokens(fleets: list[dict], cx: float, cy: float, ring: float) -> list[dict]:
    """Fleet tokens spread evenly on the orbit ring, starting at the top."""
    count = len(fleets)
    tokens = []
    for index, fleet in enumerate(fleets):
        angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
        tokens.append({**fleet, "x": num(cx + ring * math.cos(angle)),
                       "y": num(cy + ring * math.sin(angle))})
    return tokens
