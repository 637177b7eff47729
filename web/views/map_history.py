"""/campaigns/<id>/map/history/?round=n: the map as it stood when round n
closed (the latest closed round without ``round``), a selector of the closed rounds and what
changed in that round. Whoever may see the map may see its history (R-SEC-1)."""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.values import parse_number
from league.selectors.map_history import RoundMapHistory, closed_rounds, round_map_history
from web.presenters.hexmap import MapState, draw_map, legend_players, marker_legend, owner_defs
from web.presenters.map_history import present_history
from web.views.map import map_inputs
from web.views.scope import Scope, campaign_page


def _drawing(scope: Scope, history: RoundMapHistory, document: dict, players: dict,
             marker_names: dict) -> dict:
    """The round's map drawn by the map presenter from the snapshot's state (public facts
    only: no viewer, R-FLT-7), for ``web/_history_map.html``. Only the tiles the snapshot
    holds are drawn, at their place and with their features as the map has them now."""
    kept = {tile["id"] for tile in history.tiles}
    planets = [{**planet, "tiles": [t for t in planet["tiles"] if t["id"] in kept]}
               for planet in document["planets"]]
    state = MapState.from_snapshot({str(t["id"]): t for t in history.tiles}, history.fleets)
    drawn = draw_map({**document, "planets": [p for p in planets if p["tiles"]]},
                     players=players, marker_names=marker_names,
                     map_url=reverse("campaigns:map", args=[scope.campaign.pk]), state=state,
                     interactive=False)
    return {"planets": drawn["planets"], "figures": drawn["figures"],
            "theatre": drawn["theatre"], "legend_players": legend_players(players),
            "owner_defs": owner_defs(players),
            "marker_legend": marker_legend(marker_names)}


def _wanted(request, rounds) -> int | None:
    """The round asked for, else the latest closed one; 404 for anything else."""
    wanted = request.GET.get("round", "")
    if not wanted:
        return rounds[-1].number if rounds else None
    number = parse_number(wanted)
    if number is None or number not in {r.number for r in rounds}:
        raise Http404("That round has not closed.")
    return number


@require_GET
@campaign_page()
def map_history_page(request, scope: Scope):
    rounds = closed_rounds(scope.campaign)
    number = _wanted(request, rounds)
    history = round_map_history(scope.campaign, number) if number is not None else None
    context = {"closed_rounds": rounds, "history": history}
    if history is not None and history.recorded:
        document, players, marker_names = map_inputs(scope.campaign)
        context["shown"] = present_history(history, players.values(), marker_names)
        context.update(_drawing(scope, history, document, players, marker_names))
    return render(request, "web/map_history.html", scope.context(**context))
