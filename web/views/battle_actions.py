"""Writes of the battle page: the army list (R-ARM-1..3), date proposal and acceptance
(R-BAT-2), result report, confirmation and dispute (R-BAT-3), the roll decision of a won chain
link (R-CON-6), and the personal calendar feed's secret (R-BAT-2).

Each calls its service. A refusal of a form lands next to the field it names (the battle page
again, 400); a refused button press is explained above the page; success redirects back."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from battles.services.chains import chain_decide
from battles.services.feeds import calendar_token_of, calendar_token_regenerate
from battles.services.lists import army_list_submit
from battles.services.results import (
    battle_result_confirm,
    battle_result_dispute,
    battle_result_report,
)
from battles.services.schedule import schedule_accept, schedule_propose
from campaigns.errors import DomainError
from web.forms import (
    AcceptDateForm,
    ArmyListForm,
    ChainDecisionForm,
    DisputeForm,
    ProposeDateForm,
    ResultForm,
)
from web.templatetags.feldzug import explained
from web.views.actions import form_action
from web.views.battles import get_battle, render_battle
from web.views.scope import Scope, campaign_page


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
        return _("Result reported; your opponent confirms or disputes it.")

    return _form_action(request, scope, battle, ResultForm(request.POST), "report_form",
                        "result", report)


@require_POST
@campaign_page("player")
def result_confirm(request, scope: Scope, battle_id: int):
    battle = get_battle(scope, battle_id)

    def confirm():
        battle_result_confirm(battle=battle, player=scope.player)
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
    return request.build_absolute_uri(f"{reverse('api:my-calendar')}?token={token}")


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
                            regenerated=bool(request.POST.get("regenerate")))
    template = "web/_calendar_feed.html" if request.htmx else "web/calendar.html"
    return render(request, template, context)
