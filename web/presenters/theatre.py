"""The chart of the theatre: planets as discs, the sea and space areas around them (R-MAP-3)
with their links, the fleets in each area (public facts only, R-FLT-7) and the reader's own
movement orders as arrows (R-FLT-4). Laid out deterministically from the map alone: orbit and
coastal areas next to their planet, planets on an inner ring, the other areas on an outer ring
ordered by the angle of their placed neighbours."""

import math
from html import escape
from typing import NamedTuple

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from web.presenters.map_state import Token, joined, merged
from web.presenters.numbers import svg_number as num

PLANET_R = 36
AREA_R = 28
TETHER = 90  # planet centre to an attached area's centre
CLUSTER = 2 * (TETHER + AREA_R) + 40  # room one planet with its areas needs on the ring
FREE_GAP = 110  # room one free area needs on the outer ring
MARGIN = 50
SHOWN = 6  # fleet tokens drawn in an area; more are summed up as "+n"
NAME_CHARS = 16


def layout(document: dict) -> tuple[dict, dict, dict]:
    """(planet id -> (x, y), area id -> (x, y), area id -> planet id it hangs on)."""
    planets = [p["id"] for p in document["planets"]]
    tile_planet = {t["id"]: p["id"] for p in document["planets"] for t in p["tiles"]}
    attached = {}
    for area in document["areas"]:
        if area["kind"] == "orbit" and area["planet"] in planets:
            attached[area["id"]] = area["planet"]
        elif area["kind"] == "coastal":
            owners = [tile_planet[t] for t in area["borders_tiles"] if t in tile_planet]
            if owners:
                attached[area["id"]] = min(owners, key=lambda p: (-owners.count(p), p))
    planet_at, angle_of = _planet_ring(planets)
    area_at = {}
    for planet in planets:
        hanging = [a for a in document["areas"] if attached.get(a["id"]) == planet]
        hanging.sort(key=lambda a: (a["kind"] != "orbit", a["id"]))
        _around(planet_at[planet], angle_of[planet], hanging, area_at, len(planets) == 1)
    free = [a for a in document["areas"] if a["id"] not in area_at]
    _outer_ring(free, planet_at, area_at, len(planets))
    return planet_at, area_at, attached


def _planet_ring(planets: list) -> tuple[dict, dict]:
    count = len(planets)
    if count == 1:
        return {planets[0]: (0.0, 0.0)}, {planets[0]: -math.pi / 2}
    radius = max(130.0, count * CLUSTER / (2 * math.pi))
    at, angles = {}, {}
    for index, planet in enumerate(planets):  # from the left: two planets side by side
        angle = math.pi + 2 * math.pi * index / count
        at[planet] = (radius * math.cos(angle), radius * math.sin(angle))
        angles[planet] = angle
    return at, angles


def _around(centre, outward: float, areas: list, area_at: dict, alone: bool) -> None:
    """Attached areas around their planet: fanned out away from the middle, or all round."""
    count = len(areas)
    step = 2 * math.pi / max(count, 1) if alone or count > 4 else 1.05
    first = outward - step * (count - 1) / 2 if not alone else outward
    for index, area in enumerate(areas):
        angle = first + step * index
        area_at[area["id"]] = (centre[0] + TETHER * math.cos(angle),
                               centre[1] + TETHER * math.sin(angle))


def _outer_ring(free: list, planet_at: dict, area_at: dict, planets: int) -> None:
    if not free:
        return
    inner = max((math.hypot(*p) for p in [*planet_at.values(), *area_at.values()]), default=0)
    radius = max(inner + (2 * AREA_R + 50 if planets else 0),
                 len(free) * FREE_GAP / (2 * math.pi), 120.0 if len(free) > 1 else 0.0)
    wanted = {}
    for area in free:
        near = [area_at[a] for a in area["adjacent"] if a in area_at]
        if near:
            wanted[area["id"]] = math.atan2(sum(y for _, y in near), sum(x for x, _ in near))
    for area in free:  # no placed neighbour: go by the free neighbours that have an angle
        if area["id"] not in wanted:
            near = [wanted[a] for a in area["adjacent"] if a in wanted]
            if near:
                wanted[area["id"]] = math.atan2(sum(map(math.sin, near)),
                                                sum(map(math.cos, near)))
    # more places on the ring than areas, each area taking the free place nearest the angle it
    # wants (those with placed neighbours first): neighbours end up next to each other
    count = max(len(free), int(2 * math.pi * radius / FREE_GAP))
    places = [math.pi + 2 * math.pi * i / count for i in range(count)]
    taken = set()
    for area in sorted(free, key=lambda a: (a["id"] not in wanted, a["id"])):
        goal = wanted.get(area["id"])
        place = min((i for i in range(count) if i not in taken),
                    key=lambda i: _apart(places[i], goal) if goal is not None else i)
        taken.add(place)
        area_at[area["id"]] = (radius * math.cos(places[place]),
                               radius * math.sin(places[place]))


def _apart(a: float, b: float) -> float:
    """The angle between two directions, 0 to pi."""
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


LINK = '<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>'
CURVE = '<path class="link" d="M%s %s Q%s %s %s %s"/>'
CLEAR = PLANET_R + 24  # a link passing closer to a planet's centre bends around it
PLANET = ('<a href="#planet-%d" aria-label="%s"><circle class="planet-disc" cx="%s" cy="%s" '
          'r="36"/><text class="planet-name" x="%s" y="%s">%s</text></a>')
AREA = ('<g class="area-node area-%s" id="chart-area-%d" data-area-id="%d">'
        '<a href="%s?area=%d#area-%d" aria-label="%s"><circle class="area-disc" cx="%s" '
        'cy="%s" r="28"/><text class="area-name" x="%s" y="%s">%s</text></a>')
MORE = '<text class="more" x="%s" y="%s">+%d</text>'
ORDER = ('<path class="order" d="%s" marker-end="url(#order-arrow)" data-fleet-id="%d">'
         '<title>%s</title></path>')
DEFS = ('<defs><marker id="order-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z"/></marker>'
        '</defs>')


def chart(document: dict, state, paint, map_url: str) -> dict | None:
    """The chart as everyone sees it (``chart_for`` draws it for a reader): its SVG body as
    pieces (``Token`` for fleets that may be the reader's), its view box and what the
    reader's orders are drawn on; ``None`` for a map without areas."""
    if not document["areas"]:
        return None
    planet_at, area_at, attached = layout(document)
    names = {a["id"]: a["name"] for a in document["areas"]}
    out = [DEFS]
    for a, b in sorted({tuple(sorted((area["id"], other))) for area in document["areas"]
                        for other in area["adjacent"] if other in area_at}):
        bend = _bend(area_at[a], area_at[b], planet_at.values())
        if bend is None:
            out.append(LINK % ("link", *_xy(area_at[a]), *_xy(area_at[b])))
        else:
            out.append(CURVE % (*_xy(area_at[a]), *_xy(bend), *_xy(area_at[b])))
    for area_id, planet in attached.items():
        out.append(LINK % ("tether", *_xy(planet_at[planet]), *_xy(area_at[area_id])))
    for planet in document["planets"]:
        x, y = planet_at[planet["id"]]
        name = escape(planet["name"])
        out.append(PLANET % (planet["id"], escape(_("Map of %(name)s") % {"name": planet["name"]}),
                             num(x), num(y), num(x), num(y + 4), _cut(name, planet["name"])))
    kinds = _kind_labels()
    for area in document["areas"]:
        out += _area(area, area_at[area["id"]], state.fleets.get(area["id"], ()), paint,
                     map_url, kinds)
    xs = [x for x, _ in [*planet_at.values(), *area_at.values()]]
    ys = [y for _, y in [*planet_at.values(), *area_at.values()]]
    left, top = min(xs) - MARGIN, min(ys) - MARGIN
    where = {f["id"]: area for area, fleets in state.fleets.items() for f in fleets if "id" in f}
    return {"pieces": merged(out),
            "view_box": f"{num(left)} {num(top)} {num(max(xs) + MARGIN - left)} "
                        f"{num(max(ys) + MARGIN + 14 - top)}",
            "orders_on": {"area_at": area_at, "names": names, "where": where,
                          "planets": list(planet_at.values())}}


def chart_for(drawn: dict | None, viewer, selected) -> dict | None:
    """``chart``'s drawing for one reader: their own fleets (R-FLT-7), their movement orders
    as arrows (R-FLT-4) and the selected area; ``{"svg", "view_box"}``."""
    if drawn is None:
        return None
    svg = joined(drawn["pieces"], lambda token: token.render(viewer))
    if selected is not None:
        where = f'" id="chart-area-{selected}"'
        svg = svg.replace(where, f" selected{where}", 1)
    svg += "".join(_orders(viewer, **drawn["orders_on"]))
    return {"svg": mark_safe(svg), "view_box": drawn["view_box"]}  # noqa: S308 (escaped)


def _xy(point) -> tuple[str, str]:
    return num(point[0]), num(point[1])


def _cut(escaped: str, raw: str) -> str:
    """A planet's name inside its disc: one line, cut with "…" (the hex maps name it whole)."""
    return escaped if len(raw) <= NAME_CHARS else escape(raw[:NAME_CHARS - 1] + "…")


def _name_lines(raw: str) -> list[str]:
    """An area's name in lines of at most ``NAME_CHARS`` characters, broken between words;
    at most two lines, the second cut with "…" only when the name is longer still."""
    lines: list[str] = []
    for word in raw.split():
        if lines and len(lines[-1]) + 1 + len(word) <= NAME_CHARS:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) <= 2 and all(len(line) <= NAME_CHARS for line in lines):
        return lines or [raw]
    first = lines[0][:NAME_CHARS]
    rest = raw[len(first):].strip()
    return [first, rest if len(rest) <= NAME_CHARS else rest[:NAME_CHARS - 1] + "…"]


def _name_text(raw: str, x: str) -> str:
    """The name under an area's disc: one line, or two ``tspan`` lines (SVG has no wrapping)."""
    lines = _name_lines(raw)
    if len(lines) == 1:
        return escape(lines[0])
    return "".join(f'<tspan x="{x}" dy="{dy}">{escape(line)}</tspan>'
                   for dy, line in zip(("0", "1.1em"), lines, strict=True))


def _kind_labels() -> dict:
    from web.templatetags.feldzug import area_kind_label

    return {kind: escape(str(area_kind_label(kind))) for kind in ("ocean", "coastal", "orbit",
                                                             "island")}


def _area(area, at, fleets, paint, map_url, kinds) -> list:
    x, y = at
    count = len(fleets)
    fleets_text = ngettext("%(n)s fleet", "%(n)s fleets", count) % {"n": count}
    label = f"{escape(area['name'])}, {kinds.get(area['kind'], '')}: {escape(fleets_text)}"
    out = [AREA % (escape(area["kind"]), area["id"], area["id"], map_url, area["id"],
                   area["id"], label, num(x), num(y), num(x), num(y + AREA_R + 14),
                   _name_text(area["name"], num(x)))]
    shown = fleets if count <= SHOWN else fleets[:SHOWN - 1]
    slots = _slots(min(count, SHOWN))
    for (dx, dy), fleet in zip(slots, shown, strict=False):
        rest = (f'<circle class="fleet" cx="{num(x + dx)}" cy="{num(y + dy)}" r="8" '
                f'fill="{paint.colour.get(fleet["owner"], "#333333")}"/><text class="ships" '
                f'x="{num(x + dx)}" y="{num(y + dy + 3)}">{fleet["ships"]}</text><title>')
        end = f": {paint.ships(fleet['ships'])}</title></g>"
        if "id" not in fleet:  # a past round's fleet: nobody's own
            out.append(f'<g class="fleet-token">{rest}{paint.owner(fleet["owner"])}{end}')
            continue
        out.append(Token(fleet["id"], '<g class="fleet-token',
                         f'" data-fleet-id="{fleet["id"]}">{rest}', paint.owner(fleet["owner"]),
                         end))
    if count > SHOWN:
        dx, dy = slots[SHOWN - 1]
        out.append(MORE % (num(x + dx), num(y + dy + 3), count - SHOWN + 1))
    out.append("</g>")
    return out


def _slots(count: int) -> list[tuple[float, float]]:
    """Token places inside an area's disc: one centred row of up to three, else two rows."""
    rows = [count] if count <= 3 else [3, count - 3]
    out = []
    for row, size in enumerate(rows):
        dy = 0 if len(rows) == 1 else (-9, 9)[row]
        out += [((i - (size - 1) / 2) * 17, dy) for i in range(size)]
    return out


def _bend(a, b, planets) -> tuple[float, float] | None:
    """The control point of a quadratic curve from ``a`` to ``b`` that clears every planet
    disc, or None when the straight line does (two areas on opposite sides of the chart)."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / length, (bx - ax) / length  # the line's normal
    push = 0.0
    for px, py in planets:
        along = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length ** 2
        if not 0 < along < 1:
            continue
        side = (px - ax) * nx + (py - ay) * ny  # the planet's distance from the line, signed
        if abs(side) < CLEAR:
            need = (CLEAR - side) if side >= 0 else -(CLEAR + side)  # to the far side
            push = max(push, need, key=abs)
    if not push:
        return None
    # a quadratic curve reaches half its control point's distance from the line
    return ((ax + bx) / 2 - 2 * push * nx, (ay + by) / 2 - 2 * push * ny)


def _orders(viewer, *, area_at: dict, names: dict, where: dict, planets: list) -> list[str]:
    """The reader's own movement orders (R-FLT-4) as arrows from the fleet's area along its
    path, following the links' curves; each fleet's arrow shifted a little so that two orders
    on one link stay apart."""
    if not viewer.orders:
        return []
    out = []
    for index, (fleet_id, path) in enumerate(sorted(viewer.orders.items())):
        stops = [where.get(fleet_id), *path]
        if None in stops or any(s not in area_at for s in stops) or len(stops) < 2:
            continue
        shift = 4 * (index % 5) - 8
        at = [(area_at[s][0] + shift, area_at[s][1] + shift) for s in stops]
        steps = [f"M{num(at[0][0])} {num(at[0][1])}"]
        for start, end in zip(at, at[1:], strict=False):
            bend = _bend(start, end, planets)
            via = f"Q{num(bend[0])} {num(bend[1])} " if bend else "L"
            steps.append(f"{via}{num(end[0])} {num(end[1])}")
        route = " → ".join(names[s] for s in stops)
        title = f"{viewer.own_fleets.get(fleet_id, '')}: {route}"
        out.append(ORDER % (" ".join(steps), fleet_id, escape(title)))
    return out


FLEET_LINE = ('<li data-fleet-id="%s"><svg class="swatch-svg" viewBox="0 0 10 10" '
              'aria-hidden="true" focusable="false"><rect width="10" height="10" fill="%s"/>'
              '</svg> %s</li>')
CARD = ('<li class="card area" id="area-%d" data-area-id="%d"><h3>%s <small>%s</small></h3>'
        '%s<ul class="fleets">')
OWN_LINE = ('<li data-fleet-id="%s"><svg class="swatch-svg" viewBox="0 0 10 10" '
            'aria-hidden="true" focusable="false"><rect width="10" height="10" fill="%s"/>'
            '</svg> %s%s</li>')


class FleetLine(NamedTuple):
    """A fleet's line in the area list: ``public`` (R-FLT-7), or in full for a reader who may
    see it (``Viewer.details``)."""

    fleet_id: int
    colour: str
    public: str


def cards(document: dict, state, paint, fleets_url: str | None) -> dict:
    """The area list under the chart as everyone sees it (``cards_for`` draws it for a
    reader): per area its facts and its fleets' public lines, as pieces; ``link`` goes to a
    fleet's orders on the fleets page (``fleets_url``)."""
    from web.templatetags.feldzug import area_kind_label, fleet_kind_label

    label = escape(_("Orders and cargo"))  # outside the f-string, where makemessages finds it
    link = f' <a href="{escape(fleets_url)}#fleet-%s">{label}</a>' if fleets_url else ""
    fleet_kinds = {k: escape(str(fleet_kind_label(k))) + ", " for k in ("regular", "pirate")}
    names = {a["id"]: a["name"] for a in document["areas"]}
    planet_names = {p["id"]: p["name"] for p in document["planets"]}
    next_to = escape(_("Next to"))
    rows = []
    for area in document["areas"]:
        kind = escape(str(area_kind_label(area["kind"])))
        planet = planet_names.get(area["planet"])
        facts = []
        adjacent = ", ".join(names[a] for a in area["adjacent"] if a in names)
        if adjacent:
            facts.append(f'<p class="muted">{next_to}: {escape(adjacent)}</p>')
        if area["borders_tiles"]:
            borders = len(area["borders_tiles"])
            text = ngettext("Borders %(n)s tile", "Borders %(n)s tiles", borders) % {"n": borders}
            facts.append(f'<p class="muted">{escape(text)}</p>')
        pieces = [CARD % (area["id"], area["id"], escape(area["name"]),
                          f"{kind}: {escape(planet)}" if planet else kind, "".join(facts))]
        for fleet in state.fleets.get(area["id"], ()):
            colour = paint.colour.get(fleet["owner"], "#333333")
            text = (f"{paint.owner(fleet['owner'])}: {fleet_kinds.get(fleet.get('kind'), '')}"
                    f"{paint.ships(fleet['ships'])}")
            line = FLEET_LINE % (fleet.get("id", ""), colour, text)
            pieces.append(FleetLine(fleet["id"], colour, line) if "id" in fleet else line)
        pieces.append("</ul></li>")
        rows.append({"id": area["id"], "pieces": merged(pieces)})
    return {"rows": rows, "link": link}


def cards_for(drawn: dict, viewer, selected) -> list[dict]:
    """``cards`` for one reader, one card's markup (``html``) per area: the fleets the reader
    may see (``viewer.details``: their own, all for the admin) in full with a link to their
    orders, the others by their public line (R-FLT-7); the selected area marked."""
    from web.presenters.fleet_details import FleetDetails

    details_of, link = None, drawn["link"]

    def line(piece: FleetLine) -> str:
        nonlocal details_of
        details = viewer.details.get(piece.fleet_id)
        if details is None:
            return piece.public
        details_of = details_of or FleetDetails()
        return OWN_LINE % (piece.fleet_id, piece.colour, details_of.html(details),
                           link % piece.fleet_id if link else "")

    rows = []
    for row in drawn["rows"]:
        html = joined(row["pieces"], line)
        if row["id"] == selected:
            html = html.replace('class="card area"', 'class="card area selected"', 1)
        rows.append({"id": row["id"], "html": mark_safe(html)})  # noqa: S308 (escaped)
    return rows
