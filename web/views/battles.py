"""/campaigns/<id>/battles/ and /campaigns/<id>/battles/<bid>/: the member's battles and all
battles of a round (opponent, limits with their breakdown, status, date, lists handed in,
result), and one battle with its army lists (the opponent's only once revealed, R-ARM-3),
date proposals, result workflow, history and calendar feeds.

What a viewer may do is asked of the services' own checks (``battles.services.lists``,
``battles.services.schedule``, ``battles.services.results``), so a form shows exactly when the
service would take it.

Writes of the battle page: the army list (R-ARM-1..3), date proposal and acceptance
(R-BAT-2), result report, confirmation and dispute (R-BAT-3), the roll decision of a won chain
link (R-CON-6), and the personal calendar feed's secret (R-BAT-2).

Each calls its service. A refusal of a form lands next to the field it names (the battle page
again, 400); a refused button press is explained above the page; success redirects back."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from battles.models import Battle
from battles.selectors.battles import (
    campaign_battles,
    date_proposals,
    deadline_fate,
    immediate_roll_of,
    limit_breakdown,
    result_history,
    round_battles,
)
from battles.selectors.chains import chain_roll_odds, needs_decision
from battles.selectors.conquest import roll_dict
from battles.selectors.lists import lists_revealed, participants, visible_lists
from battles.services.chains import chain_decide
from battles.services.feeds import calendar_token_of, calendar_token_regenerate
from battles.services.lists import army_list_submit, check_list_phase
from battles.services.results import (
    battle_result_confirm,
    battle_result_dispute,
    battle_result_report,
    check_answer_state,
    check_report_state,
    check_reporter,
)
from battles.services.schedule import check_schedule_state, schedule_accept, schedule_propose
from campaigns.errors import DomainError
from campaigns.mail import absolute
from campaigns.models import Round
from campaigns.selectors.campaigns import ruleset_of
from campaigns.values import parse_number
from web.forms.battles import (
    AcceptDateForm,
    ArmyListForm,
    ChainDecisionForm,
    DisputeForm,
    ProposeDateForm,
)
from web.forms.corrections import ReasonForm, ResultCorrectForm
from web.forms.manage import ResultForm
from web.templatetags.feldzug import explained
from web.views.absences import battle_away
from web.views.actions import advance_if_ready, form_action
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
    number = parse_number(wanted)
    if number is None:
        raise Http404("No such round.")
    return get_object_or_404(scope.campaign.rounds.all(), number=number)


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


# R-CON-6 / R-RND-3 at the battles deadline, in the reader's words.
DEFAULT_DECISION = {"roll_all": gettext_lazy("the roll is made"),
                    "waive_all": gettext_lazy("the roll is waived")}
UNPLAYED_AS = {"defender_holds": gettext_lazy("a defeat of the attacker"),
               "attacker_wins": gettext_lazy("a victory of the attacker")}


def chain_context(battle: Battle, may: dict) -> dict | None:
    """A chain link's part of the page (R-CON-6): the exact odds and every modifier of the
    roll while its attacker decides (R-CON-7), the roll as it was made afterwards, and what
    the battles deadline (not extended for a chain) does to an open decision and to later
    links not yet played (R-RND-3)."""
    if battle.chain_length < 2:
        return None
    ruleset = ruleset_of(battle.campaign)
    made = immediate_roll_of(battle)
    return {"decision": battle.chain_decision,
            "odds": chain_roll_odds(battle) if may["decide"] else None,
            "roll": roll_dict(made) if made else None,
            "deadline_ahead": battle.round.phase not in (Round.Phase.CONQUEST,
                                                         Round.Phase.CLOSED),
            "default": DEFAULT_DECISION[ruleset.conquest_default],
            "unplayed": UNPLAYED_AS[ruleset.unplayed_outcome]}


def _correction_forms(scope: Scope, battle: Battle) -> dict:
    """The organiser's corrections of the result (R-SEC-2), admins only."""
    if not scope.is_admin:
        return {"correct_form": None, "void_form": None}
    initial = {"outcome": battle.outcome or "victory", "attacker_vp": battle.attacker_vp,
               "defender_vp": battle.defender_vp}
    return {"correct_form": ResultCorrectForm(prefix="correct", initial=initial),
            "void_form": ReasonForm(prefix="void") if battle.result_status else None}


def battle_context(scope: Scope, battle: Battle, **forms) -> dict:
    now = timezone.now()
    may = _may(scope, battle, now)
    lists = _lists(scope, battle, now)
    defaults = {"list_form": ArmyListForm() if may["submit_list"] else None,
                "propose_form": ProposeDateForm() if may["propose"] else None,
                "report_form": ResultForm() if may["report"] else None,
                "dispute_form": DisputeForm() if may["answer"] else None,
                **_correction_forms(scope, battle)}
    history = result_history(battle)
    disputed = battle.result_status == Battle.ResultStatus.DISPUTED and history
    fate = deadline_fate(battle)  # R-BAT-3, R-RND-3: what the battles deadline will do
    return scope.context(
        battle=battle, row=battle_row(battle, now), may=may, chain=chain_context(battle, may),
        deadline_fate=fate,
        unplayed=UNPLAYED_AS[ruleset_of(battle.campaign).unplayed_outcome] if fate else "",
        list_sections=_list_sections(battle, lists, scope.player if may["playing"] else None),
        proposals=date_proposals(battle), history=history,
        dispute=history[-1] if disputed else None,  # why, above the admin's link (R-BAT-3)
        away=battle_away(battle),
        **{**defaults, **forms})


def render_battle(request, scope: Scope, battle: Battle, status: int = 200, **forms):
    return render(request, "web/battle.html", battle_context(scope, battle, **forms),
                  status=status)


@require_GET
@campaign_page("member")
def battle_detail(request, scope: Scope, battle_id: int):
    return render_battle(request, scope, get_battle(scope, battle_id))


def _back(scope: Scope, battle, anchor: str):
    url = reverse("campaigns:battle", args=[scope.campaign.pk, battle.pk])
    return redirect(f"{url}#{anchor}")


def _refused(request, exc: DomainError) -> None:
    messages.error(request, _("Refused: %(reason)s") % {"reason": explained(exc)})


def _button_action(request, scope: Scope, battle, anchor: str, call):
    """Call the service (``call()`` returns the success message); a refusal is explained
    above the page. Back to the battle page either way."""
    try:
        message = call()
    except DomainError as exc:
        _refused(request, exc)
    else:
        messages.success(request, message)
    return _back(scope, battle, anchor)


def _form_action(request, scope: Scope, battle, form, form_name: str, anchor: str, call):
    """Validate ``form``, call the service (``call(cleaned_data)`` returns the success
    message); a refusal lands next to the field it names on the battle page again (400)."""
    return form_action(request, form, call, done=lambda: _back(scope, battle, anchor),
                       again=lambda bound: render_battle(request, scope, battle, status=400,
                                                         **{form_name: bound}))


@require_POST
@campaign_page("player")
def list_submit(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def submit(data):
        saved = army_list_submit(battle=battle, player=scope.player, parsed=data["parsed"])
        advance_if_ready(battle.round_id)  # early advance
        return _("Your army list is in: %(total)s points.") % {"total": saved.total}

    return _form_action(request, scope, battle, ArmyListForm(request.POST, request.FILES),
                        "list_form", "lists", submit)


@require_POST
@campaign_page("player")
def date_propose(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def propose(data):
        schedule_propose(battle=battle, player=scope.player, **data)
        return _("Date proposed; your opponent is told by e-mail.")

    return _form_action(request, scope, battle, ProposeDateForm(request.POST),
                        "propose_form", "schedule", propose)


@require_POST
@campaign_page("player")
def date_accept(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)
    form = AcceptDateForm(request.POST)
    proposal = form.cleaned_data["proposal"] if form.is_valid() else None

    def accept():
        schedule_accept(battle=battle, player=scope.player, proposal_id=proposal)
        return _("Date accepted; it is in the calendar feeds now.")

    return _button_action(request, scope, battle, "schedule", accept)


@require_POST
@campaign_page("player")
def result_report(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def report(data):
        battle_result_report(battle=battle, player=scope.player, **data)
        advance_if_ready(battle.round_id)  # early advance
        return _("Result reported; your opponent confirms or disputes it.")

    return _form_action(request, scope, battle, ResultForm(request.POST), "report_form",
                        "result", report)


@require_POST
@campaign_page("player")
def result_confirm(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def confirm():
        battle_result_confirm(battle=battle, player=scope.player)
        advance_if_ready(battle.round_id)  # early advance
        return _("Result confirmed.")

    return _button_action(request, scope, battle, "result", confirm)


@require_POST
@campaign_page("player")
def result_dispute(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def dispute(data):
        battle_result_dispute(battle=battle, player=scope.player, reason=data["reason"])
        return _("Result disputed; the league admin settles it.")

    return _form_action(request, scope, battle, DisputeForm(request.POST), "dispute_form",
                        "result", dispute)


@require_POST
@campaign_page("player")
def chain_decision(request, scope: Scope, battle_id: int):
    """R-CON-6: the winner of a chain link that is not the last rolls for the tile now or
    waives the roll."""
    battle = get_battle(scope, battle_id)
    form = ChainDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to roll or to waive."))
        return _back(scope, battle, "result")

    def decide():
        roll = chain_decide(battle=battle, player=scope.player,
                            roll=form.cleaned_data["decision"] == "roll")
        advance_if_ready(battle.round_id)  # early advance
        if roll is None:
            return _("Roll waived; the next attacker fights for the tile.")
        text = (_("Rolled %(dice)s = %(total)s against %(needed)s: the tile is yours.")
                if roll.success else
                _("Rolled %(dice)s = %(total)s against %(needed)s: not taken."))
        return text % {"dice": " + ".join(map(str, roll.dice)), "total": roll.total,
                       "needed": roll.threshold}

    return _button_action(request, scope, battle, "result", decide)


# --- the personal calendar feed -------------------------------------------------------------

def feed_url(request, token: str) -> str:
    return absolute(f"{reverse('api:my-calendar')}?token={token}")  # the site's address


@require_POST
@campaign_page("member")
def calendar_feed(request, scope: Scope):
    """Show the user's personal feed address (made on first use), or a new one when
    ``regenerate`` is posted: the old address stops working. Only on request, never in a
    page's HTML by default: the address is the user's secret."""
    now = timezone.now()
    if request.POST.get("regenerate"):
        token = calendar_token_regenerate(user=request.user, now=now)
    else:
        token = calendar_token_of(user=request.user, now=now)
    context = scope.context(feed=feed_url(request, token.token),
                            regenerated=bool(request.POST.get("regenerate")),
                            news_feed=absolute(  # the Atom feed's address
                                reverse("campaigns:news-feed", args=[scope.campaign.pk])
                                + f"?token={token.token}"))
    template = "web/_calendar_feed.html" if request.htmx else "web/calendar.html"
    return render(request, template, context)
