"""/campaigns/<id>/naval-battles/<nid>/: a naval battle report (R-INT-6, R-NAV-13) as the
reader may see it (R-FLT-7), from the same selector as the API (``naval_report``). Whoever may
read the campaign (its members; anyone if it is public) sees the battles of rounds past the
``fleets`` phase: where, who, the outcome and the ships lost per side; the two players who
fought it and the admin also the sides with their lines and every step in order
(``replay``). Any other battle finds no such page (404).

Without script the whole log is listed; ``static/feldzug.js`` adds a step-through."""

from types import SimpleNamespace

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from campaigns.selectors.campaigns import player_list
from fleets.models import Area
from fleets.selectors.fleets import SIDES, naval_report, visible_naval_battles
from web.presenters.replay import Names, replay
from web.views.scope import Scope, campaign_page

SHIP_STATES = {"afloat": gettext_lazy("afloat"), "sunk": gettext_lazy("sunk"),
               "captured": gettext_lazy("captured"), "retreated": gettext_lazy("retreated"),
               "destroyed": gettext_lazy("destroyed"), "active": gettext_lazy("afloat")}


def _side_labels(report: dict, players: dict) -> dict[str, str]:
    """Each side by its player's faction; a side without a player is the pirates."""
    labels = {}
    for key in SIDES:
        player = players.get(report[key])
        labels[key] = player.faction if player else _("the pirates")
    return labels


def _sides(report: dict, labels: dict, players: dict) -> list[dict]:
    """The replay's sides with each ship's state after the battle (``replay`` reports only)."""
    states = {s.get("id"): s for s in report["outcome"].get("ships", [])}
    sides = []
    for side in report["sides"]:
        ships = [{**ship, "state": SHIP_STATES.get(states.get(ship.get("id"), {}).get("state"),
                                                   "")}
                 for ship in side.get("ships", [])]
        sides.append({**side, "label": labels.get(side.get("key")), "ships": ships,
                      "player_obj": players.get(side.get("player"))})
    return sides


@require_GET
@campaign_page()
def naval_battle_page(request, scope: Scope, naval_id: int):
    battle = get_object_or_404(visible_naval_battles(scope.campaign), pk=naval_id)
    report = naval_report(battle, player=scope.player, is_admin=scope.is_admin)
    players = {p.pk: p for p in player_list(scope.campaign)}
    labels = _side_labels(report, players)
    areas = dict(Area.objects.filter(campaign=scope.campaign).values_list("id", "name"))
    losses = [{"key": key, "label": labels[key], "player_obj": players.get(report[key]),
               **report["losses"][key]} for key in SIDES]
    context = {"report": report, "area_name": areas.get(report["area"]), "losses": losses,
               "winner": labels.get(report["winner"]) if report["winner"] else None,
               "attacker_label": labels["attacker"], "defender_label": labels["defender"]}
    if report["replay"]:  # R-FLT-7: only from the report's replay keys
        logged = SimpleNamespace(sides=report["sides"], events=report["events"])
        pirates = frozenset(key for key in SIDES if players.get(report[key]) is None)
        rounds = replay(logged, Names(logged, labels, areas, pirates))
        context.update(sides=_sides(report, labels, players), rounds=rounds,
                       step_count=sum(len(r["steps"]) for r in rounds))
    return render(request, "web/naval_battle.html", scope.context(**context))
