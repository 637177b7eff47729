"""The small SVG line chart of tiles held per player over the rounds (standings page). Every
coordinate is a locale-independent string (``svg_number``).

a league has 64 players and a dot per player and round, so the chart is built here as
one markup string (labels translated once, numbers formatted once) instead of template loops."""

from html import escape

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from web.presenters.numbers import svg_number as num

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 14, 34
NO_COLOUR = "#888888"

SWATCH = ('<svg class="swatch-svg" viewBox="0 0 10 10" aria-hidden="true" focusable="false">'
          '<rect width="10" height="10" fill="%s"/></svg>')
DOT = '<circle cx="%s" cy="%s" r="4" fill="%s"><title>%s, %s: %s</title></circle>'


def swatch(colour: str | None) -> str:
    """The colour square of ``web/_swatch.html`` as markup (``colour`` escaped here)."""
    return SWATCH % escape(colour or NO_COLOUR)


def _y_ticks(top: int) -> list[int]:
    step = max(1, -(-top // 4))  # about four steps, whole numbers
    return list(range(0, top + 1, step))


def tiles_chart(history: list[tuple[str, list[dict]]], players) -> dict:
    """``history``: (x label, standings rows) oldest first; ``players``: who gets a line, each
    ``{"id", "faction", "colour"}``. A player missing from a round's rows (joined later) has no
    point there. Returns ``{"width", "height", "svg", "legend"}``: the drawing inside the
    ``<svg>`` and the legend's ``<li>`` items, safe strings."""
    labels = [escape(str(label)) for label, _rows in history]
    held = [{row["player"]: row["tiles"] for row in rows} for _label, rows in history]
    top = max([1, *(n for column in held for n in column.values())])
    ticks = _y_ticks(top)
    top = max(top, ticks[-1])
    span_x = (WIDTH - LEFT - RIGHT) / max(1, len(labels) - 1)
    xs = [num(LEFT + i * span_x) for i in range(len(labels))]

    def y(value: int) -> str:
        return num(HEIGHT - BOTTOM - value * (HEIGHT - TOP - BOTTOM) / top)

    desc = escape(_("Line chart: tiles held by each player after each round, and now."))
    out = [f'<desc id="chart-desc">{desc}</desc>']
    left, right, axis_x = num(LEFT), num(WIDTH - RIGHT), num(LEFT - 6)
    for tick in ticks:
        ty = y(tick)
        out.append(f'<line class="grid" x1="{left}" x2="{right}" y1="{ty}" y2="{ty}"/>'
                   f'<text class="axis" x="{axis_x}" y="{ty}" text-anchor="end" '
                   f'dominant-baseline="middle">{tick}</text>')
    label_y = num(HEIGHT - BOTTOM + 18)
    out += [f'<text class="axis" x="{x}" y="{label_y}" text-anchor="middle">{text}</text>'
            for x, text in zip(xs, labels, strict=True)]
    legend = []
    for player in players:
        out.append(_series(player, held, xs, labels, y))
        legend.append(f'<li>{swatch(player["colour"])} {escape(player["faction"])}</li>')
    return {"width": num(WIDTH), "height": num(HEIGHT), "svg": mark_safe("".join(out)),  # noqa: S308
            "legend": mark_safe("".join(legend))}  # noqa: S308 (escaped above)


def _series(player: dict, held: list[dict], xs: list[str], labels: list[str], y) -> str:
    """One player's line (when it has two points or more) and dots."""
    pk, colour = player["id"], escape(player["colour"] or NO_COLOUR)
    faction = escape(player["faction"])
    dots = [(xs[i], y(column[pk]), column[pk], labels[i])
            for i, column in enumerate(held) if pk in column]
    out = [f'<g class="series" data-player-id="{pk}">']
    if len(dots) > 1:
        points = " ".join(f"{x},{dy}" for x, dy, _n, _label in dots)
        out.append(f'<polyline points="{points}" stroke="{colour}"/>')
    out += [DOT % (x, dy, colour, faction, label, n) for x, dy, n, label in dots]
    out.append("</g>")
    return "".join(out)
