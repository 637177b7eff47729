"""/campaigns/<id>/standings/: live standings or those frozen at round n (?round=n, R-VP-2),
with a chart of tiles held per player over the rounds.

the finished markup (rows, chart, round links) is kept per campaign revision and
language (``campaigns/cache.py``): standings are public (R-VP-2), the same for every reader,
and closing a round, a result, a conquest or a name change bumps the revision."""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from campaigns.cache import cached
from campaigns.models import Campaign, Player
from campaigns.values import parse_number
from league.selectors.standings import standings
from league.selectors.standings_history import frozen_standings, standings_history
from web.presenters.chart import tiles_chart
from web.presenters.standings import map_links, round_links, standings_rows
from web.views.scope import Scope, campaign_page


def _colours(campaign: Campaign) -> list[dict]:
    return list(Player.objects.filter(campaign=campaign).order_by("id")
                .values("id", "faction", "colour"))


def _overview(campaign: Campaign) -> dict:
    """What every version of the page shares: the chart, the closed rounds and the colours."""
    frozen = standings_history(campaign)
    players = _colours(campaign)
    history = [(str(number), frozen_rows) for number, frozen_rows in frozen]
    history.append((_("now"), standings(campaign)))
    rounds = [number for number, _rows in frozen]
    return {"chart": tiles_chart(history, players), "frozen_rounds": rounds,
            "map_links": map_links(rounds, reverse("campaigns:map-history", args=[campaign.pk])),
            "colours": {p["id"]: p["colour"] for p in players}}


def _rows(campaign: Campaign, shown: int | None, colours: dict) -> str:
    rows = standings(campaign) if shown is None else frozen_standings(campaign, shown) or []
    return standings_rows(rows, colours)


@require_GET
@campaign_page()
def standings_page(request, scope: Scope):
    campaign, language = scope.campaign, get_language()
    wanted = request.GET.get("round", "")
    shown = parse_number(wanted) if wanted else None
    overview = cached("standings-page", campaign, lambda: _overview(campaign), language)
    if wanted and shown not in overview["frozen_rounds"]:
        raise Http404("No standings were frozen for that round.")
    rows = cached("standings-rows", campaign,
                  lambda: _rows(campaign, shown, overview["colours"]), language, shown)
    context = scope.context(
        rows=rows, shown_round=shown, frozen_rounds=overview["frozen_rounds"],
        round_links=round_links(overview["frozen_rounds"], shown),
        map_links=overview["map_links"], chart=overview["chart"])
    return render(request, "web/standings.html", context)
