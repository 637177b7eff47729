"""Geometry of the SVG hex maps: pointy-top hexes on axial coordinates (q, r) as the rules
number them (R-MAP-1), one drawing per planet with its orbit ring for the areas around it."""

import math

SIZE = 24  # hex radius in SVG units
ROOT3 = math.sqrt(3)
MARGIN = 10
RING_GAP = 22  # between the outermost tile and the orbit ring
NEUTRAL = "#d8d8d0"
ICON = 12  # icon width; icons sit in a row across the tile's middle
ICON_FEATURES = ("mountain", "spaceport", "macropole")  # defence lines are the tile's border


def centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r


def corners(x: float, y: float, size: float = SIZE) -> str:
    """The six corners as an SVG ``points`` list."""
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{x + size * math.cos(angle):.1f},{y + size * math.sin(angle):.1f}")
    return " ".join(points)


def planet_drawing(planet: dict, colours: dict, orbit_fleets: list[dict]) -> dict:
    """``planet`` from the map document, with each tile's centre, corners and fill, an orbit
    ring around the tiles carrying ``orbit_fleets`` as tokens, and the SVG view box."""
    tiles = []
    for tile in planet["tiles"]:
        x, y = centre(tile["q"], tile["r"])
        tiles.append({**tile, "x": round(x, 1), "y": round(y, 1), "points": corners(x, y),
                      "fill": colours.get(tile["owner"], NEUTRAL), "icons": _icons(tile, x, y)})
    if tiles:
        cx = (min(t["x"] for t in tiles) + max(t["x"] for t in tiles)) / 2
        cy = (min(t["y"] for t in tiles) + max(t["y"] for t in tiles)) / 2
        reach = max(math.hypot(t["x"] - cx, t["y"] - cy) for t in tiles) + SIZE
    else:
        cx = cy = 0.0
        reach = SIZE
    ring = reach + RING_GAP
    extent = ring + MARGIN
    tokens = _tokens(orbit_fleets, cx, cy, ring)
    return {**planet, "tiles": tiles, "ring": {"x": round(cx, 1), "y": round(cy, 1),
                                               "r": round(ring, 1)},
            "tokens": tokens,
            "view_box": f"{cx - extent:.1f} {cy - extent:.1f} {2 * extent:.1f} "
                        f"{2 * extent:.1f}"}


def _icons(tile: dict, x: float, y: float) -> list[dict]:
    """Feature icons then one per marker, centred in a row on the tile."""
    names = [f for f in ICON_FEATURES if f in tile["features"]]
    names += ["marker"] * len(tile.get("markers", ()))
    left = x - len(names) * ICON / 2
    return [{"name": name, "x": round(left + i * ICON, 1), "y": round(y - ICON / 2, 1),
             "size": ICON} for i, name in enumerate(names)]


def _tokens(fleets: list[dict], cx: float, cy: float, ring: float) -> list[dict]:
    """Fleet tokens spread evenly on the orbit ring, starting at the top."""
    count = len(fleets)
    tokens = []
    for index, fleet in enumerate(fleets):
        angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
        tokens.append({**fleet, "x": round(cx + ring * math.cos(angle), 1),
                       "y": round(cy + ring * math.sin(angle), 1)})
    return tokens
