"""/campaigns/<id>/naval-battles/<nid>/: a naval battle report (R-INT-6, R-NAV-13) as a replay:
the sides with their lines, then every step in order (``replay``). Visible as in the API: to
its participants and the admin at once, to every member once the round closed; anyone else
finds no such page (404), an anonymous visitor is asked to log in first.

Without script the whole log is listed; ``static/feldzug.js`` adds a step-through."""

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from campaigns.selectors.campaigns import player_list
from fleets.models import Area
from fleets.selectors.fleets import visible_naval_battles
from web.presenters.replay import Names, replay
from web.views.scope import Scope, campaign_page

SHIP_STATES = {"afloat": gettext_lazy("afloat"), "sunk": gettext_lazy("sunk"),
               "captured": gettext_lazy("captured"), "retreated": gettext_lazy("retreated"),
               "destroyed": gettext_lazy("destroyed"), "active": gettext_lazy("afloat")}


def _side_labels(battle, players: dict) -> dict[str, str]:
    labels = {}
    for side in battle.sides:
        player = players.get(side.get("player"))
        labels[side.get("key")] = player.faction if player else _("the pirates")
    return labels


def _sides(battle, labels: dict, players: dict) -> list[dict]:
    states = {int(s["id"]): s for s in battle.outcome.get("ships", []) if "id" in s}
    sides = []
    for side in battle.sides:
        ships = [{**ship, "state": SHIP_STATES.get(states.get(int(ship["id"]), {}).get("state"),
                                                   "")}
                 for ship in side.get("ships", [])]
        sides.append({**side, "label": labels.get(side.get("key")), "ships": ships,
                      "player_obj": players.get(side.get("player"))})
    return sides


@require_GET
@campaign_page()
def naval_battle_page(request, scope: Scope, naval_id: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not scope.is_member:
        raise Http404("No such naval battle.")
    battles = visible_naval_battles(scope.campaign, player=scope.player, is_admin=scope.is_admin)
    battle = get_object_or_404(battles.select_related("area"), pk=naval_id)
    players = {p.pk: p for p in player_list(scope.campaign)}
    labels = _side_labels(battle, players)
    areas = dict(Area.objects.filter(campaign=scope.campaign).values_list("id", "name"))
    rounds = replay(battle, Names(battle, labels, areas))
    winner = battle.outcome.get("winner")
    context = scope.context(
        naval=battle, sides=_sides(battle, labels, players), rounds=rounds,
        step_count=sum(len(r["steps"]) for r in rounds),
        winner=labels.get(winner) if winner else None,
        attacker_label=labels.get("attacker"), defender_label=labels.get("defender"))
    return render(request, "web/naval_battle.html", context)
