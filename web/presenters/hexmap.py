"""Geometry and markup of the SVG hex maps: pointy-top hexes on axial coordinates (q, r) as the
rules number them (R-MAP-1), one drawing per planet with its orbit ring for the fleets around
it, plus the chart of sea and space areas (``web.presenters.theatre``).

Speed: a league map has hundreds of tiles, so each tile's markup is built here
once per drawing by string formatting (labels translated once, URLs from one reversed prefix,
numbers as locale-independent strings) instead of by template includes and tags in a loop.

Entry point: ``draw_map(document, ...)``, which is ``overlay(draw_public(document, ...))``: the
drawing everyone sees, in plain strings that the map page keeps per map revision and language,
then what one reader sees besides (their own fleets, orders, the selected tile and area), laid
over it per request. The map *state* (tile owners, markers by tile, fleets by area) is an
input, ``MapState``, that defaults to the state in ``document``: the map history draws a past
round by passing ``MapState.from_snapshot(...)`` of its ``RoundMap``
(``web.presenters.map_state``; both names are importable from here)."""

import math
from functools import lru_cache
from html import escape

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from web.presenters import theatre
from web.presenters.hex_text import label_band, layout
from web.presenters.map_state import MapState, Token, Viewer, joined, merged
from web.presenters.numbers import svg_number as num

__all__ = ["MapState", "Viewer", "draw_map", "draw_public", "legend_players", "marker_legend",
           "overlay", "owner_defs", "owner_labels"]

SIZE = 24  # hex radius in SVG units
ROOT3 = math.sqrt(3)
MARGIN = 10
RING_GAP = 22  # between the outermost tile and the orbit ring
NEUTRAL = "#d8d8d0"
UNOWNED = "#333333"
ICON_FEATURES = ("mountain", "spaceport", "macropole")  # defence lines are the tile's border
# the two marker types the rules name (R-MRK-1) have their own icons; other types share one
MARKER_ICONS = {"manufactorum": "manufactorum", "shield_generator": "shield"}
NAME_SIZE = 8.0  # a tile name's largest font size, the svg's font-size (FIGURE_OPEN)
LABEL_SIZE = 5.0  # an owner label's font size (static/map.css)
PATTERNS = 8  # owners' patterns (templates/web/_map_icons.html: own-0 ... own-7)
TOKEN_R = 8


def owner_labels(players: dict) -> dict:
    """Each player's short label on the map, unique in the campaign: the initials of its
    faction (``AM`` for Adeptus Mechanicus), the first three letters of a one-word faction
    (``ORK``), a number added where two would read the same. With each owner's pattern
    (``owner_slots``) the map can be read without telling colours apart."""
    out, taken = {}, set()
    for pk, player in players.items():
        words = [w for w in "".join(c if c.isalnum() else " " for c in player.faction).split()]
        if len(words) > 1:
            short = "".join(w[0] for w in words[:3]).upper()
        else:
            short = (words[0][:3] if words else "?").upper()
        label, n = short, 2
        while label in taken:
            label, n = f"{short[:2]}{n}", n + 1
        taken.add(label)
        out[pk] = label
    return out


def owner_slots(players: dict) -> dict:
    """Each player's pattern (0 to ``PATTERNS`` - 1), in the order of the players."""
    return {pk: index % PATTERNS for index, pk in enumerate(players)}


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


@lru_cache(maxsize=8192)
def hex_centre(q: int, r: int) -> tuple[float, float, str]:
    """(x, y, ``translate(x y)``) of a hex: pure, so kept across requests."""
    x, y = centre(q, r)
    return x, y, f"translate({num(x)} {num(y)})"


# Every tile is the same hexagon moved to its centre: one corners list, which compresses to
# almost nothing however many tiles the map has.
HEX = corners(0, 0)


def draw_map(document: dict, *, players: dict, marker_names: dict, map_url: str,
             state: MapState | None = None, viewer: Viewer | None = None,
             selected_tile: int | None = None, selected_area: int | None = None,
             interactive: bool = True, fleets_url: str | None = None) -> dict:
    """Everything the map page draws, as ready markup and strings.

    ``document``: the map document (planets with tiles and their ``name``, areas; fleets only
    matter through ``state``). ``players``: player id -> object with ``faction`` and ``colour``.
    ``marker_names``: marker type code -> name. ``map_url``: the map page's path, prefix of the
    tile URLs (``<map_url>tiles/<id>/``) and of the area links (``?area=<id>``). ``state``: the
    map state to draw (default: the document's, i.e. now). ``viewer``: what the reader may see
    of their own fleets (default: public facts only). ``interactive``: tiles ask for their
    panel when clicked (off for a past round). ``fleets_url``: the fleets page, linked from
    the reader's own fleets in the area list.

    Returns ``{"planets": [{"id", "name", "label", "view_box", "svg"}], "figures": the
    planets' ``<figure>`` elements in one safe string, "theatre": {"svg", "view_box"} or None,
    "areas": [{"id", "html"}] (``theatre.cards``), "tile_url": str}``; the SVGs are safe
    strings with every number locale-independent. It is ``overlay(draw_public(...))``."""
    drawing = draw_public(document, players=players, marker_names=marker_names,
                          map_url=map_url, state=state, interactive=interactive,
                          fleets_url=fleets_url)
    return overlay(drawing, viewer, selected_tile=selected_tile, selected_area=selected_area)


def draw_public(document: dict, *, players: dict, marker_names: dict, map_url: str,
                state: MapState | None = None, interactive: bool = True,
                fleets_url: str | None = None) -> dict:
    """The drawing before its reader is known: the same for everyone who may see the map
    (public facts only, R-FLT-7), plain strings and tuples, so the map page keeps it per map
    revision and language. Fleet tokens and fleet lines stay pieces (``Token``,
    ``theatre.FleetLine``) that ``overlay`` draws for the reader."""
    state = state or MapState.from_document(document)
    paint = Paint(players, marker_names)
    # a drawing that can not be clicked (a past round's) offers no buttons to the keyboard
    paint.pressable = ' tabindex="0" role="button"' if interactive else ""
    orbit_fleets = {}
    for area in document["areas"]:
        if area["kind"] == "orbit" and area["planet"] is not None:
            orbit_fleets.setdefault(area["planet"], []).extend(
                (area, f) for f in state.fleets.get(area["id"], ()))
    # tiles ask for their panel at <tile_url><id>/ (static/mapzoom.js, through htmx)
    tile_url = f"{map_url}tiles/" if interactive else ""
    planets = [_planet(planet, state, paint, orbit_fleets.get(planet["id"], ()))
               for planet in document["planets"]]
    if planets:
        _frame(planets, tile_url)
    return {"planets": planets, "tile_url": tile_url,
            "theatre": theatre.chart(document, state, paint, map_url),
            "areas": theatre.cards(document, state, paint, fleets_url)}


def overlay(drawing: dict, viewer: Viewer | None = None, *, selected_tile: int | None = None,
            selected_area: int | None = None) -> dict:
    """``draw_public``'s drawing for one reader (``draw_map``'s answer): their own fleets'
    tokens and area lines (R-FLT-7), their movement orders (R-FLT-4), the selected tile
    (pressed, with its anchor ``#tile-<id>``) and area. Costs a join of the drawing's strings
    and one pass per fleet, not per tile."""
    viewer = viewer or Viewer()
    planets, figures = [], []
    for planet in drawing["planets"]:
        svg = joined(planet["pieces"], lambda token: token.render(viewer))
        if selected_tile is not None:
            svg = _select_tile(svg, selected_tile)
        planets.append({"id": planet["id"], "name": planet["name"], "label": planet["label"],
                        "view_box": planet["view_box"], "svg": mark_safe(svg)})  # noqa: S308
        figures += (planet["open"], svg, planet["close"])
    return {"planets": planets, "tile_url": drawing["tile_url"],
            "figures": mark_safe("".join(figures)),  # noqa: S308 (escaped when drawn)
            "theatre": theatre.chart_for(drawing["theatre"], viewer, selected_area),
            "areas": theatre.cards_for(drawing["areas"], viewer, selected_area)}


def _select_tile(svg: str, tile_id: int) -> str:
    # only the selected tile carries its anchor (``#tile-<id>``, the links from battles and
    # conquest): an id on every tile would be the page's largest part after compression
    where = f'data-tile-id="{tile_id}"'
    return svg.replace(where, f'{where} id="tile-{tile_id}" aria-pressed="true"', 1)


class Paint:
    """A drawing's strings: players' escaped factions and colours, translated labels."""

    def __init__(self, players: dict, marker_names: dict):
        from web.templatetags.feldzug import feature_label  # the pages' one set of labels

        self.faction = {pk: escape(p.faction) for pk, p in players.items()}
        self.colour = {pk: escape(p.colour or UNOWNED) for pk, p in players.items()}
        self.slot = owner_slots(players)
        self.marker = {code: escape(name) for code, name in marker_names.items()}
        self.feature = {f: escape(str(feature_label(f))) for f in ("mountain", "spaceport",
                                                                 "macropole", "defence")}
        self.neutral = escape(_("neutral"))
        self.unowned = escape(_("Unowned fleet"))
        self.place = _("%(planet)s (%(q)s, %(r)s)")
        self.pressable = ' tabindex="0" role="button"'
        self._ships = {}

    def ships(self, count: int) -> str:
        if count not in self._ships:
            self._ships[count] = escape(ngettext("%(n)s ship", "%(n)s ships", count)
                                        % {"n": count})
        return self._ships[count]

    def owner(self, player_id) -> str:
        return self.faction.get(player_id, self.unowned) if player_id else self.unowned


TILE = ('<g transform="%s"><polygon class="tile%s" points="' + HEX + '" fill="%s" '
        'data-tile-id="%d"%s aria-label="%s">'
        '</polygon>')
# over a defence line (R-MAP-2), dark dashes on the tile's light border, seen on every colour
# (one hexagon from templates/web/_map_icons.html)
WALL = '<use class="wall" href="#hex" fill="none"/>'
USE = '<use class="icon icon-%s" href="#icon-%s" x="%s" y="%s" width="%s" height="%s"/>'
NAME = '<text class="tile-name" y="%s"%s>%s</text></g>'
LINES = '<text class="tile-name" font-size="%s">%s</text></g>'
LINE = '<tspan x="0" y="%s">%s</tspan>'


def _planet(planet: dict, state: MapState, paint: Paint, orbit_fleets) -> dict:
    """One planet's view box and SVG body as pieces: its tiles and its orbit ring with its
    fleets as tokens."""
    name = escape(planet["name"])
    parts, xs, ys = [], [], []
    for tile in planet["tiles"]:
        x, y, move = hex_centre(tile["q"], tile["r"])
        xs.append(x)
        ys.append(y)
        parts.append(_tile(tile, name, move, state, paint))
    if xs:
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        reach = max(math.hypot(x - cx, y - cy) for x, y in zip(xs, ys, strict=True)) + SIZE
    else:
        cx = cy = 0.0
        reach = SIZE
    ring = reach + RING_GAP
    extent = ring + MARGIN
    orbit = escape(_("Orbit of %(name)s") % {"name": planet["name"]})
    head = (f'<circle class="orbit" cx="{num(cx)}" cy="{num(cy)}" r="{num(ring)}">'
            f'<title>{orbit}</title></circle>')
    return {"id": planet["id"], "name": planet["name"],
            "label": _("Map of %(name)s") % {"name": planet["name"]},
            "view_box": f"{num(cx - extent)} {num(cy - extent)} {num(2 * extent)} "
                        f"{num(2 * extent)}",
            "pieces": merged([head, *parts, *_tokens(orbit_fleets, cx, cy, ring, paint)])}


def _tile(tile, planet_name, move, state, paint) -> str:
    """A tile as a group moved to its centre: the hexagon (a button with the tile's full
    label), its owner's pattern and short label, its feature and marker icons in a row, and
    its name (or coordinates) on up to three lines sized to stay inside the hexagon."""
    owner = state.owners.get(tile["id"])
    codes = state.markers.get(tile["id"], ())
    features = tile["features"]
    where = paint.place % {"planet": planet_name, "q": tile["q"], "r": tile["r"]}
    title = f"{escape(tile['name'])} — {where}" if tile.get("name") else where
    words = [paint.faction.get(owner, paint.neutral) if owner else paint.neutral]
    words += [paint.feature[f] for f in features if f in paint.feature]
    words += [paint.marker.get(code, escape(code)) for code in codes]
    label = f"{title}: {', '.join(words)}"
    defence = "defence" in features
    owned = owner in paint.slot
    # an owner's tile is filled with the owner's colour, pattern and label (``owner_defs``)
    out = [TILE % (move, " defence" if defence else "",
                   f"url(#owner-{owner})" if owned else NEUTRAL, tile["id"], paint.pressable,
                   label)]
    if defence:
        out.append(WALL)
    icons = [f for f in ICON_FEATURES if f in features] + [marker_icon(c) for c in codes]
    fit = layout(tile.get("name") or f"{tile['q']},{tile['r']}", radius=SIZE, label=owned,
                 icons=len(icons))
    size = num(fit.icon_size)
    out += [USE % (icon, icon, num(x), num(fit.icon_y), size, size)
            for icon, x in zip(icons, fit.icon_x, strict=True)]
    if len(fit.lines) == 1:
        # the svg's font size (NAME_SIZE) is written only where a name needs another
        font = "" if fit.size == NAME_SIZE else f' font-size="{num(fit.size)}"'
        out.append(NAME % (num(fit.line_ys[0]), font, escape(fit.lines[0])))
    else:
        out.append(LINES % (num(fit.size), "".join(
            LINE % (num(y), escape(line)) for line, y in zip(fit.lines, fit.line_ys,
                                                            strict=True))))
    return "".join(out)


def _tokens(fleets, cx: float, cy: float, ring: float, paint: Paint) -> list:
    """Fleet tokens spread evenly on the orbit ring, starting at the top (R-FLT-7: owner
    colour and ship count; ``Token`` puts the name on the reader's own fleets)."""
    count = len(fleets)
    out = []
    for index, (area, fleet) in enumerate(fleets):
        angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
        title_end = f": {paint.ships(fleet['ships'])} ({escape(area['name'])})</title></circle>"
        rest = (f'" cx="{num(cx + ring * math.cos(angle))}" '
                f'cy="{num(cy + ring * math.sin(angle))}" r="8" '
                f'fill="{paint.colour.get(fleet["owner"], UNOWNED)}" data-area-id="{area["id"]}"')
        who = paint.owner(fleet["owner"])
        if "id" not in fleet:  # a past round's fleet: nobody's own
            out.append(f'<circle class="fleet{rest}><title>{who}{title_end}')
            continue
        out.append(Token(fleet["id"], '<circle class="fleet',
                         f'{rest} data-fleet-id="{fleet["id"]}"><title>', who, title_end))
    return out


FIGURE_OPEN = ('<figure class="planet" id="planet-%s">\n  <figcaption><h2>%s</h2></figcaption>\n'
               '  <div class="zoomable" data-zoom>\n    <div class="zoom-view"><svg class="hexmap" '
               'viewBox="%s" font-size="8" role="group" aria-label="%s"%s>')
FIGURE_CLOSE = '</svg></div>\n    %s\n  </div>\n</figure>\n'


def _frame(planets: list[dict], tile_url: str) -> None:
    """Each planet's zoomable ``<figure>`` around its SVG, as ``open`` and ``close`` (issue
    21: the zoom controls rendered once, not a template include per planet)."""
    close = FIGURE_CLOSE % render_to_string("web/_map_zoom.html")
    url = f' data-tile-url="{escape(tile_url)}"' if tile_url else ""
    for p in planets:
        p["open"] = FIGURE_OPEN % (p["id"], escape(p["name"]), p["view_box"],
                                   escape(str(p["label"])), url)
        p["close"] = close


# one square the size of a hex, in the tile's own units (each tile is moved to its centre), so
# every tile of the owner shows it whole: colour, pattern (``owner_slots``), short label
OWNER_DEF = ('<pattern id="owner-%d" patternUnits="userSpaceOnUse" x="-24" y="-24" width="48" '
             'height="48"><rect width="48" height="48" fill="%s"/><rect width="48" height="48" '
             'fill="url(#own-%d)"/><text class="owner" x="24" y="%s">%s</text></pattern>')


def owner_defs(players: dict) -> str:
    """What fills every tile of an owner, drawn once per page: the owner's colour, pattern and
    short label in the label band at the top of the hex (``hex_text``)."""
    labels, slots = owner_labels(players), owner_slots(players)
    baseline = num(SIZE + label_band(SIZE, LABEL_SIZE)[0])
    body = "".join(OWNER_DEF % (pk, escape(p.colour or UNOWNED), slots[pk], baseline,
                                escape(labels[pk])) for pk, p in players.items())
    return mark_safe('<svg class="icon-defs owner-defs" aria-hidden="true" focusable="false" '  # noqa: S308
                     f'width="0" height="0"><defs>{body}</defs></svg>')


LEGEND_PLAYER = ('<li data-owner-slot="%d"><svg class="swatch-svg" viewBox="0 0 10 10" '
                 'aria-hidden="true" focusable="false"><rect width="10" height="10" fill="%s"/>'
                 '<rect width="10" height="10" fill="url(#own-%d)"/></svg> '
                 '<b class="owner-label">%s</b> %s</li>')


def legend_players(players: dict) -> str:
    """The owners of the legend, one ``<li>`` per player: colour, pattern, short label and
    faction (the map reads without telling colours apart)."""
    labels, slots = owner_labels(players), owner_slots(players)
    return mark_safe("".join(  # noqa: S308 (escaped)
        LEGEND_PLAYER % (slots[pk], escape(p.colour or UNOWNED), slots[pk], escape(labels[pk]),
                         escape(p.faction))
        for pk, p in players.items()))
