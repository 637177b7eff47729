"""/campaigns/<id>/manage/: the league admin's page. Each section posts to its own action in
``manage_actions``; an invalid form comes back here bound, its errors next to its fields."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from battles.models import Battle
from campaigns.selectors.campaigns import player_list
from campaigns.services.campaigns import current_ruleset
from web.forms import (
    AdvanceForm,
    CampaignForm,
    DeadlineForm,
    MapImportForm,
    PlayerAddForm,
    ResultForm,
    RulesetForm,
)
from web.views.scope import Scope, campaign_page


def _results_round(scope: Scope, wanted: str):
    """The round whose battles the results section lists: round ``wanted``, else the current
    one."""
    rounds = scope.campaign.rounds.all()
    if wanted.isdigit():
        return rounds.filter(number=int(wanted)).first()
    return scope.round


def _battles(rnd, bound: dict) -> list[dict]:
    """The round's battles, disputed ones first, each with its result form (``bound`` holds a
    submitted one that failed)."""
    if rnd is None:
        return []
    battles = (Battle.objects.filter(round=rnd)
               .select_related("tile__planet", "attacker__user", "defender__user")
               .order_by("attack__order"))
    rows = []
    for battle in battles:
        initial = {"outcome": battle.outcome or "victory", "attacker_vp": battle.attacker_vp,
                   "defender_vp": battle.defender_vp}
        form = bound.get(battle.pk) or ResultForm(initial=initial, prefix=f"b{battle.pk}")
        rows.append({"battle": battle, "form": form})
    rows.sort(key=lambda row: row["battle"].result_status != Battle.ResultStatus.DISPUTED)
    return rows


def render_manage(request, scope: Scope, *, status: int = 200, result_forms=None,
                  results_number: int | None = None, **forms):
    """The page with fresh forms, except those given bound in ``forms`` (by section name)."""
    campaign, rnd = scope.campaign, scope.round
    fresh = {
        "settings_form": lambda: CampaignForm(initial={"name": campaign.name,
                                                       "visibility": campaign.visibility}),
        "ruleset_form": lambda: RulesetForm(
            initial=RulesetForm.initial_from(current_ruleset(campaign))),
        "map_form": MapImportForm,
        "player_form": PlayerAddForm,
        "deadline_form": lambda: DeadlineForm(
            initial={"phase_deadline": rnd.phase_deadline if rnd else None}),
        "advance_form": lambda: AdvanceForm(initial={"expected_phase": rnd.phase if rnd else ""}),
    }
    for name, make in fresh.items():
        forms.setdefault(name, None)
        if forms[name] is None:
            forms[name] = make()
    wanted = str(results_number) if results_number else request.GET.get("round", "")
    results_round = _results_round(scope, wanted)
    context = scope.context(
        players=player_list(campaign), results_round=results_round,
        battles=_battles(results_round, result_forms or {}),
        round_numbers=list(campaign.rounds.order_by("number").values_list("number", flat=True)),
        **forms)
    return render(request, "web/manage.html", context, status=status)


@require_GET
@campaign_page("admin")
def manage_page(request, scope: Scope):
    return render_manage(request, scope)
