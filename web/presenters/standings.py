"""The standings table's rows (R-VP-2) as one markup string: a league has 64 players and eight
figures each, so the rows are formatted here once per request (issue 21) instead of by template
tags and filters per cell. Figures are whole numbers, written the same in every language."""

from html import escape

from django.utils.safestring import mark_safe

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
