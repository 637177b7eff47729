"""/campaigns/<id>/manage/: the league admin's page, and its actions (POST, then back to
/manage/): campaign settings, ruleset, map import, players, the current deadline, advancing the
phase, and entering or correcting battle results. Each action calls the service the API calls;
an invalid form comes back here bound, its errors next to the fields they name."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from battles.models import Battle
from battles.selectors.battles import campaign_battles, disputes_of, round_battles
from battles.services.results import battle_result_enter, check_result_phase
from campaigns.errors import DomainError
from campaigns.selectors.campaigns import player_list, ruleset_of
from campaigns.selectors.clock import clock_state
from campaigns.services import campaigns as campaign_services
from campaigns.values import parse_number
from league.services import rounds as round_services
from rules.rounds import AUTOMATIC
from web.forms.common import add_service_error
from web.forms.home import CampaignForm, campaign_fields
from web.forms.manage import (
    AdvanceForm,
    DeadlineForm,
    ExtendForm,
    MapImportForm,
    PauseForm,
    PlayerAddForm,
    ResultForm,
    RulesetForm,
)
from web.presenters.clock import clock_facts
from web.templatetags.feldzug import explained, phase_label
from web.views.actions import advance_if_ready, form_action
from web.views.confirm import ask, confirmed
from web.views.deadlines import weekly_preview
from web.views.map_import import import_upload
from web.views.scope import Scope, campaign_page


def _results_round(scope: Scope, wanted: str):
    """The round whose battles the results section lists: round ``wanted``, else the current
    one."""
    rounds = scope.campaign.rounds.all()
    if parse_number(wanted) is not None:
        return rounds.filter(number=parse_number(wanted)).first()
    return scope.round


def _battles(campaign, rnd, bound: dict) -> list[dict]:
    """The round's battles, disputed ones first, each with its result form (``bound`` holds a
    submitted one that failed)."""
    rows = []
    battles = list(round_battles(campaign, rnd))
    disputes = disputes_of(battles)  # the reason shown where the admin settles it (R-BAT-3)
    for battle in battles:
        initial = {"outcome": battle.outcome or "victory", "attacker_vp": battle.attacker_vp,
                   "defender_vp": battle.defender_vp}
        form = bound.get(battle.pk) or ResultForm(initial=initial, prefix=f"b{battle.pk}")
        rows.append({"battle": battle, "form": form, "dispute": disputes.get(battle.pk)})
    rows.sort(key=lambda row: row["battle"].result_status != Battle.ResultStatus.DISPUTED)
    return rows


def render_manage(request, scope: Scope, *, status: int = 200, result_forms=None,
                  results_number: int | None = None, **forms):
    """The page with fresh forms, except those given bound in ``forms`` (by section name)."""
    campaign, rnd = scope.campaign, scope.round
    fresh = {
        "settings_form": lambda: CampaignForm(initial={"name": campaign.name,
                                                       "visibility": campaign.visibility,
                                                       "time_zone": campaign.time_zone,
                                                       "language": campaign.language}),
        "ruleset_form": lambda: RulesetForm(
            initial=RulesetForm.initial_from(ruleset_of(campaign).as_dict())),
        "map_form": MapImportForm,
        "player_form": PlayerAddForm,
        "deadline_form": lambda: DeadlineForm(
            initial={"phase_deadline": rnd.phase_deadline if rnd else None}),
        "advance_form": lambda: AdvanceForm(initial={"expected_phase": rnd.phase if rnd else ""}),
        "pause_form": PauseForm, "extend_form": ExtendForm,
    }
    for name, make in fresh.items():
        forms.setdefault(name, None)
        if forms[name] is None:
            forms[name] = make()
    wanted = str(results_number) if results_number else request.GET.get("round", "")
    results_round = _results_round(scope, wanted)
    battles = _battles(campaign, results_round, result_forms or {})
    context = scope.context(
        players=player_list(campaign), results_round=results_round, battles=battles,
        round_numbers=list(campaign.rounds.order_by("number").values_list("number", flat=True)),
        round_automatic=rnd is not None and rnd.phase in AUTOMATIC,
        weekly_preview=weekly_preview(campaign), clock=_clock(),
        open_sections=_open_sections(request, scope, forms, battles), **forms)
    return render(request, "web/manage.html", context, status=status)


# The section each of the page's forms sits in.
FORM_SECTIONS = {"settings_form": "settings", "ruleset_form": "ruleset", "map_form": "map",
                 "player_form": "players", "deadline_form": "round", "advance_form": "round",
                 "extend_form": "round", "pause_form": "pause"}


def _open_sections(request, scope: Scope, forms: dict, battles: list[dict]) -> set[str]:
    """The page's sections shown unfolded (the others fold to their heading, so the page stays
    short on a phone; a link to a section's #anchor unfolds it): the round always; before the
    first round the players and the map as well; a section whose form came back with errors;
    the results when a round is picked or a battle is disputed or its form failed; the pause
    while the campaign is paused."""
    shown = {"round"}
    if scope.round is None:
        shown |= {"players", "map"}
    shown |= {section for name, section in FORM_SECTIONS.items()
              if forms.get(name) is not None and forms[name].is_bound}
    if request.GET.get("round") or any(
            row["form"].is_bound or row["battle"].result_status == Battle.ResultStatus.DISPUTED
            for row in battles):
        shown.add("results")
    if scope.campaign.paused_at:
        shown.add("pause")
    return shown


def _clock() -> dict:
    """When the clock that advances deadlines last ran, late or not (R-RND-2)."""
    now = timezone.now()
    return clock_facts(clock_state(now), now)


@require_GET
@campaign_page("admin")
def manage_page(request, scope: Scope):
    return render_manage(request, scope)


def _back(scope: Scope, anchor: str = ""):
    response = redirect("campaigns:manage", scope.campaign.pk)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


def _done(request, scope: Scope, message: str, anchor: str):
    messages.success(request, message)
    return _back(scope, anchor)


def _form_action(request, scope: Scope, form, form_name: str, anchor: str, call,
                 refusal=add_service_error):
    """``form_action`` on the manage page: back to section ``anchor``, or the page again with
    the bound form as ``form_name``."""
    return form_action(request, form, call, done=lambda: _back(scope, anchor),
                       again=lambda bound: render_manage(request, scope, status=400,
                                                         **{form_name: bound}),
                       refusal=refusal)


def admin_action(view):
    return require_POST(campaign_page("admin")(view))


@admin_action
def settings_save(request, scope: Scope):
    def save(data):
        campaign_services.campaign_update(campaign=scope.campaign, actor=request.user,
                                          **campaign_fields(data))
        return _("Campaign settings saved.")

    return _form_action(request, scope, CampaignForm(request.POST), "settings_form", "settings",
                        save)


@admin_action
def ruleset_save(request, scope: Scope):
    form = RulesetForm(request.POST)

    def save(data):
        campaign_services.campaign_update(campaign=scope.campaign, ruleset=form.ruleset(),
                                          actor=request.user)
        return _("Ruleset saved.")

    def refusal(form, exc):
        add_service_error(form, exc, {exc.field: RulesetForm.field_for(exc.field)})

    return _form_action(request, scope, form, "ruleset_form", "ruleset", save, refusal=refusal)


@admin_action
def map_upload(request, scope: Scope):
    """Replace the whole map; a rejected document lists every problem by its path."""
    form, errors, status = import_upload(request, scope)
    if status is None:
        return _done(request, scope, _("Map imported."), "map")
    return render_manage(request, scope, status=status, map_form=form, map_errors=errors)


@admin_action
def player_add(request, scope: Scope):
    def add(data):
        player = campaign_services.player_add(campaign=scope.campaign, actor=request.user,
                                              **data)
        return _("%(user)s joined as %(faction)s.") % {"user": player.user.username,
                                                        "faction": player.faction}

    def refusal(form, exc):
        add_service_error(form, exc, {"user": "username"})

    return _form_action(request, scope, PlayerAddForm(request.POST), "player_form", "players",
                        add, refusal=refusal)


@admin_action
def deadline_set(request, scope: Scope):
    form = DeadlineForm(request.POST)
    if form.is_valid():
        if scope.round is None:
            form.add_error(None, _("The campaign has not started yet."))
        else:
            try:
                round_services.round_set_deadline(rnd=scope.round,
                                                  deadline=form.cleaned_data["phase_deadline"],
                                                  by=request.user)
            except DomainError as exc:
                add_service_error(form, exc)
            else:
                return _done(request, scope, _("Deadline set."), "round")
    return render_manage(request, scope, status=400, deadline_form=form)


def _phase_ends() -> dict[str, str]:
    """What ending each phase means for the players (R-RND-1, R-RND-3)."""
    return {
        "declare": _("Players can no longer buy attack armies, declare or withdraw attacks or "
                     "change fleet orders; unused attack armies lapse without refund (R-ECO-1). "
                     "Every declaration becomes visible to all, and the fleet phase is "
                     "resolved: fleets move, intercept and fight (R-FLT)."),
        "fleets": _("Fleet movement, interceptions and naval battles are resolved now, in this "
                    "request; orbital attacks no longer covered are cancelled and their armies "
                    "lost (R-ATK-3). Then the army lists phase opens."),
        "lists": _("Players can no longer submit or replace army lists: every list is revealed "
                   "to the opponent, and a missing list means playing with the allowed points, "
                   "list unrecorded (R-ARM-3, R-RND-3)."),
        "battles": _("Players can no longer report results: battles not played or still in "
                     "dispute take the ruleset's outcome for unplayed battles (R-RND-3, "
                     "R-BAT-3). Then winners choose their conquest rolls."),
        "conquest": _("Players can no longer choose their conquest rolls: choices not made take "
                      "the default and every roll is made at once (R-CON-4, R-RND-3). Then the "
                      "round closes: its seed is revealed, income is paid and the next round "
                      "opens for declarations."),
    }


def advance_question(rnd) -> dict:
    """The question before the phase moves on: which phase ends and what that means."""
    if rnd is None:
        return {"question": _("Start round 1?"),
                "consequence": _("Players can then buy attack armies and declare attacks. "
                                 "A player can no longer be removed once the campaign runs, "
                                 "only replaced."),
                "yes": _("Yes, start round 1")}
    phase = phase_label(rnd.phase)
    return {"question": _("End the %(phase)s phase of round %(n)s?")
            % {"phase": phase, "n": rnd.number},
            "consequence": _phase_ends().get(rnd.phase, ""),
            "yes": _("Yes, end the %(phase)s phase") % {"phase": phase}}


@admin_action
def advance(request, scope: Scope):
    """Start round 1, or move the current round on from the phase the admin saw (R-RND-2);
    a repeated click finds that phase left already and changes nothing."""
    form = AdvanceForm(request.POST)
    if not form.is_valid():
        return render_manage(request, scope, status=400, advance_form=form)
    expected, current = form.cleaned_data["expected_phase"], scope.round
    try:
        if current is not None and expected != current.phase:
            messages.info(request, _("The round had moved on already; nothing changed."))
            return _back(scope, "round")
        if not confirmed(request):
            return ask(request, scope, **advance_question(current),
                       back=reverse("campaigns:manage", args=[scope.campaign.pk]) + "#round")
        round_services.campaign_advance(campaign=scope.campaign, expected_phase=expected or None,
                                        by=request.user)
    except DomainError as exc:
        form.add_error(None, explained(exc))
        return render_manage(request, scope, status=400, advance_form=form)
    return _done(request, scope, _("The campaign moved on to the next phase."), "round")


@admin_action
def result_enter(request, scope: Scope, battle_id: int):
    """Enter or correct a result, confirmed at once (R-BAT-3, R-BAT-4); settles a dispute."""
    battle = get_object_or_404(campaign_battles(scope.campaign), pk=battle_id)
    number = battle.round.number

    def enter(data):
        check_result_phase(battle.round, battle)
        battle_result_enter(battle=battle, by_admin_user=request.user, **data)
        advance_if_ready(battle.round_id)  # a settled dispute may complete the phase (R-RND-2)
        return _("Result saved.")

    def done():
        response = _back(scope)
        response["Location"] += f"?round={number}#battle-{battle.pk}"
        return response

    return form_action(request, ResultForm(request.POST, prefix=f"b{battle.pk}"), enter,
                       done=done, again=lambda form: render_manage(
                           request, scope, status=400, result_forms={battle.pk: form},
                           results_number=number))
