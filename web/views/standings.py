"""/campaigns/<id>/standings/: live standings or those frozen at round n (?round=n, R-VP-2),
with a chart of tiles held per player over the rounds."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from campaigns.models import Player
from campaigns.values import parse_number
from league.selectors.standings import live_standings
from league.selectors.standings_history import standings_history
from web.presenters.chart import tiles_chart
from web.presenters.standings import standings_rows
from web.views.scope import Scope, campaign_page


@require_GET
@campaign_page()
def standings_page(request, scope: Scope):
    frozen = standings_history(scope.campaign)
    live = live_standings(scope.campaign)
    wanted = request.GET.get("round", "")
    if wanted:
        shown = parse_number(wanted)
        rows = dict(frozen).get(shown) if shown is not None else None
        if rows is None:
            raise Http404("No standings were frozen for that round.")
    else:
        rows, shown = live, None
    # issue 21: plain values, and the rows and chart as markup built once (web/presenters/)
    players = list(Player.objects.filter(campaign=scope.campaign).order_by("id")
                   .values("id", "faction", "colour"))
    colours = {p["id"]: p["colour"] for p in players}
    history = [(str(number), frozen_rows) for number, frozen_rows in frozen]
    history.append((_("now"), live))
    context = scope.context(
        rows=standings_rows(rows, colours), shown_round=shown,
        frozen_rounds=[number for number, _rows in frozen], chart=tiles_chart(history, players))
    return render(request, "web/standings.html", context)
