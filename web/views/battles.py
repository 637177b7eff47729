"""/campaigns/<id>/battles/ and /campaigns/<id>/battles/<bid>/: the member's battles and all
battles of a round (opponent, limits with their breakdown, status, date, lists handed in,
result), and one battle with its army lists (the opponent's only once revealed, R-ARM-3),
date proposals, result workflow, history and calendar feeds.

What a viewer may do is asked of the services' own checks (``battles.services.lists``,
``battles.services.schedule``, ``battles.services.results``), so a form shows exactly when the
service would take it."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from battles.models import Battle
from battles.selectors.battles import (
    campaign_battles,
    date_proposals,
    limit_breakdown,
    result_history,
    round_battles,
)
from battles.services.chains import needs_decision
from battles.services.lists import check_list_phase, lists_revealed, participants, visible_lists
from battles.services.results import check_answer_state, check_report_state, check_reporter
from battles.services.schedule import check_schedule_state
from campaigns.errors import DomainError
from web.forms import (
    ArmyListForm,
    DisputeForm,
    ProposeDateForm,
    ResultForm,
)
from web.views.scope import Scope, campaign_page


def _sides(battle: Battle) -> list:
    return [battle.attacker] + ([battle.defender] if battle.defender_id else [])


def limit_rows(battle: Battle) -> list[dict]:
    """R-BON-1: base, tile bonus, marker bonus and limit of each side that has a limit."""
    breakdown = limit_breakdown(battle)
    return [{"player": side, **breakdown[str(side.pk)]} for side in _sides(battle)
            if str(side.pk) in breakdown]


def battle_row(battle: Battle, now) -> dict:
    handed_in = {row.player_id for row in battle.handed_in}
    return {"battle": battle, "limits": limit_rows(battle),
            "proposal": battle.open_proposals[0] if battle.open_proposals else None,
            "lists_in": [{"player": side, "in": side.pk in handed_in}
                         for side in _sides(battle)],
            "revealed": lists_revealed(battle, battle.round, now)}


def _round(scope: Scope, wanted: str):
    if not wanted:
        return scope.round
    if not wanted.isdigit():
        raise Http404("No such round.")
    return get_object_or_404(scope.campaign.rounds.all(), number=int(wanted))


@require_GET
@campaign_page("member")
def battle_list(request, scope: Scope):
    rnd = _round(scope, request.GET.get("round", ""))
    now = timezone.now()
    rows = [battle_row(battle, now) for battle in round_battles(scope.campaign, rnd)]
    me = scope.player.pk if scope.player else None
    mine = [me in participants(row["battle"]) for row in rows]
    context = scope.context(
        shown_round=rnd, rows=rows,
        my_rows=[row for row, own in zip(rows, mine, strict=True) if own],
        other_rows=[row for row, own in zip(rows, mine, strict=True) if not own],
        round_numbers=list(scope.campaign.rounds.order_by("number")
                           .values_list("number", flat=True)))
    return render(request, "web/battles.html", context)


# --- one battle ---------------------------------------------------------------------------

def get_battle(scope: Scope, battle_id: int) -> Battle:
    return get_object_or_404(campaign_battles(scope.campaign).select_related("reported_by"),
                             pk=battle_id)


def _allowed(check, *args) -> bool:
    """Would the service take it now? Its own check says (a refusal is an exception)."""
    try:
        check(*args)
    except (DomainError, PermissionDenied):
        return False
    return True


def _lists(scope: Scope, battle: Battle, now) -> dict | None:
    """The lists the viewer may see (R-ARM-3), by player id; None when it sees none."""
    try:
        rows = visible_lists(battle, battle.round, scope.request.user, now)
    except PermissionDenied:
        return None
    return {row.player_id: row for row in rows}


def _list_sections(battle: Battle, lists: dict | None, me) -> list[dict]:
    """Each side's list box: the list if the viewer may see it, else whether it is in."""
    handed_in = {row.player_id for row in battle.handed_in}
    sections = []
    for side in _sides(battle):
        sections.append({"player": side, "mine": me is not None and side.pk == me.pk,
                         "in": side.pk in handed_in,
                         "list": (lists or {}).get(side.pk)})
    return sections


def _may(scope: Scope, battle: Battle, now) -> dict:
    rnd, player = battle.round, scope.player
    playing = player is not None and player.pk in participants(battle)
    reporter = playing and _allowed(check_reporter, battle, player)
    proposal = battle.open_proposals[0] if battle.open_proposals else None
    schedule = playing and _allowed(check_schedule_state, battle, rnd)
    return {
        "playing": playing,
        "submit_list": playing and _allowed(check_list_phase, battle, rnd, now),
        "propose": schedule,
        "accept": schedule and proposal is not None and proposal.proposed_by_id != player.pk,
        "report": reporter and _allowed(check_report_state, battle, rnd, player),
        "answer": reporter and _allowed(check_answer_state, battle, rnd, player),
        "decide": playing and battle.attacker_id == player.pk and needs_decision(battle),
    }


def battle_context(scope: Scope, battle: Battle, **forms) -> dict:
    now = timezone.now()
    may = _may(scope, battle, now)
    lists = _lists(scope, battle, now)
    defaults = {"list_form": ArmyListForm() if may["submit_list"] else None,
                "propose_form": ProposeDateForm() if may["propose"] else None,
                "report_form": ResultForm() if may["report"] else None,
                "dispute_form": DisputeForm() if may["answer"] else None}
    return scope.context(
        battle=battle, row=battle_row(battle, now), may=may,
        list_sections=_list_sections(battle, lists, scope.player if may["playing"] else None),
        proposals=date_proposals(battle), history=result_history(battle),
        **{**defaults, **forms})


def render_battle(request, scope: Scope, battle: Battle, status: int = 200, **forms):
    return render(request, "web/battle.html", battle_context(scope, battle, **forms),
                  status=status)


@require_GET
@campaign_page("member")
def battle_detail(request, scope: Scope, battle_id: int):
    return render_battle(request, scope, get_battle(scope, battle_id))
