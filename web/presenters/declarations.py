"""The map page's list of the round's declarations (a league round has hundreds):
each line formatted from a plain row with labels translated once per request, instead of a
template loop with a translation block, two filters, a URL and a CSRF token per line."""

from html import escape

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from campaigns.labels import place_label
from campaigns.models import Attack

# what ``rows`` reads of each visible declaration (``battles.selectors.attacks``)
FIELDS = ("id", "order", "player_id", "player__faction", "tile__planet__name", "tile__q",
          "tile__r", "tile__name", "source", "status")
LINE = '<li data-attack-id="%d">%s — %s, %s%s</li>\n'
# data-confirm: the server asks first, what withdrawing costs (web/views/confirm.py, R-ATK-5)
WITHDRAW = ('\n<form method="post" action="%s" class="inline" data-confirm><input type="hidden" '
            'name="csrfmiddlewaretoken" value="%s"><button type="submit" class="secondary">%s'
            '</button></form>')


def declarations_html(rows, *, withdraw_url=None, csrf_token: str = "", own=None) -> str:
    """``<li>`` items of the declarations ``rows`` (``values_list(*FIELDS)``), or the one
    item saying there are none. ``own``: the reader's player id; with ``withdraw_url``
    (attack id -> URL; given only during declare) their active declarations get a withdraw
    form (R-ATK-5)."""
    line = _("#%(order)s %(faction)s on %(tile)s")
    sources = {code: escape(str(label)) for code, label in Attack.Source.choices}
    statuses = {code: escape(str(label)) for code, label in Attack.Status.choices}
    button = escape(_("Withdraw"))
    out = []
    for pk, order, player, faction, planet, q, r, name, source, status in rows:
        form = ""
        if withdraw_url and player == own and status == Attack.Status.ACTIVE:
            form = WITHDRAW % (escape(withdraw_url(pk)), escape(csrf_token), button)
        tile = place_label(planet=planet, q=q, r=r, name=name)
        text = line % {"order": order, "faction": escape(faction), "tile": escape(tile)}
        out.append(LINE % (pk, text, sources.get(source, escape(source)),
                           statuses.get(status, escape(status)), form))
    if not out:
        none = escape(_("No declarations."))  # outside an f-string: makemessages finds it
        out.append(f"<li>{none}</li>")
    return mark_safe("".join(out))  # noqa: S308 (every text escaped above)
