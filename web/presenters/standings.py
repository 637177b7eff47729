"""The standings table's rows (R-VP-2) as one markup string: a league has 64 players and eight
figures each, so the rows are formatted here once per request instead of by template
tags and filters per cell. Figures are whole numbers, written the same in every language. The
links to the closed rounds likewise: one translation, not a ``blocktranslate`` per round."""

from html import escape

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from web.presenters.chart import NO_COLOUR, swatch

ROW = ('<tr data-player-id="%s"><td>%s</td><td>%s %s <span class="muted">(%s)</span></td>'
       '<td>%s</td><td>%s</td><td>%s/%s/%s</td><td>%s</td><td>%s</td><td>%s</td></tr>')


# frozen rows of an older version may lack a figure: its cell stays empty, as before
FIGURES = ("tiles", "planets", "battles_won", "battles_drawn", "battles_lost", "victory_points",
           "fleets", "ships")


def standings_rows(rows: list[dict], colours: dict) -> str:
    """``rows``: ranked standings rows (live or frozen); ``colours``: player id -> colour."""
    from web.templatetags.feldzug import member  # the pages' one way to name a member

    return mark_safe("".join(  # noqa: S308 (every value escaped)
        ROW % (escape(str(row["player"])), escape(str(row.get("rank", ""))),
               swatch(colours.get(row["player"], NO_COLOUR)), escape(row.get("faction", "")),
               escape(member(row.get("display_name") or row.get("username") or "")),
               *(escape(str(row.get(key, ""))) for key in FIGURES))
        for row in rows))


def round_links(rounds: list[int], shown: int | None) -> str:
    """The links to the standings frozen at each closed round, ``shown``'s marked current."""
    label, current = _("round %(n)s"), ' aria-current="page"'
    return mark_safe("".join(  # noqa: S308 (escaped)
        f'<a href="?round={n}"{current if n == shown else ""}>{escape(label % {"n": n})}</a>'
        for n in rounds))


def map_links(rounds: list[int], map_url: str) -> str:
    """The links to the map as it was after each closed round (``map_url``: its page)."""
    label, url = _("map after round %(n)s"), escape(map_url)
    return mark_safe("".join(  # noqa: S308 (escaped)
        f'<a href="{url}?round={n}" data-map-round="{n}">{escape(label % {"n": n})}</a>'
        for n in rounds))
