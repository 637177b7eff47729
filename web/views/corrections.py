"""The organiser's corrections on the pages (R-SEC-2), campaign admin only: a player's page of
corrections (requisition and armies, declarations cancelled for the player, "done" and an
absence for the player) and, on the battle page, a result corrected or voided. Each form asks
why; each action calls the service the API calls, then re-checks early advance at once
(R-RND-2); a refusal shows the page again (400/409) next to the field it names."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from battles.services import corrections as services
from battles.services.results import battle_result_correct, battle_result_void
from campaigns import formats
from campaigns.errors import DomainError
from campaigns.models import Attack, Player, Round
from league.services import corrections as acting
from web.forms.common import add_service_error
from web.forms.corrections import ArmiesForm, AwayForm, ReasonForm, ResultCorrectForm
from web.views.actions import advance_if_ready
from web.views.battles import get_battle, render_battle
from web.views.scope import Scope, campaign_page

FORMS = {"armies": ArmiesForm, "done": ReasonForm, "away": AwayForm, "cancel": ReasonForm}


def _player(scope: Scope, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("user", "campaign"),
                             campaign=scope.campaign, pk=player_id)


def _page(request, scope: Scope, player: Player, *, status: int = 200, bound=None):
    """The player's corrections; ``bound``: (kind, form) that came back with errors."""
    rnd = scope.round
    forms = {kind: form_class(prefix=kind) for kind, form_class in FORMS.items()}
    forms["armies"] = ArmiesForm(prefix="armies", initial={"requisition": player.requisition})
    if bound:
        forms[bound[0]] = bound[1]
    attacks = (Attack.objects.filter(round=rnd, player=player, status=Attack.Status.ACTIVE)
               .select_related("tile__planet").order_by("order") if rnd else [])
    context = scope.context(
        seat=player, forms=forms, attacks=attacks,
        declare=rnd is not None and rnd.phase == Round.Phase.DECLARE,
        armies_left=services.armies_unused(rnd, player) if rnd else None)
    return render(request, "web/corrections.html", context, status=status)


@require_GET
@campaign_page("admin")
def player_corrections(request, scope: Scope, player_id: int):
    return _page(request, scope, _player(scope, player_id))


def _post(request, scope: Scope, player_id: int, kind: str, call):
    """Bind the ``kind`` form, run ``call(player, data)`` -> success message; then early
    advance is re-checked (R-RND-2)."""
    player = _player(scope, player_id)
    form = FORMS[kind](request.POST, prefix=kind)
    if form.is_valid():
        try:
            message = call(player, form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc)
            return _page(request, scope, player, status=exc.status, bound=(kind, form))
        if scope.round is not None:
            advance_if_ready(scope.round.pk)
        messages.success(request, message)
        url = reverse("campaigns:player-corrections", args=[scope.campaign.pk, player.pk])
        return redirect(f"{url}#{kind}")
    return _page(request, scope, player, status=400, bound=(kind, form))


def admin_action(view):
    return require_POST(campaign_page("admin")(view))


@admin_action
def armies_adjust(request, scope: Scope, player_id: int):
    def adjust(player, data):
        values = services.player_armies_adjust(
            player=player, by=request.user, reason=data["reason"],
            requisition=data["requisition"], armies=data["armies"])
        return _("Saved: requisition %(requisition)s, attack armies left %(armies)s.") % values

    return _post(request, scope, player_id, "armies", adjust)


@admin_action
def done_mark(request, scope: Scope, player_id: int):
    def mark(player, data):
        acting.phase_done_mark_for(player=player, by=request.user, reason=data["reason"])
        return _("%(faction)s is marked done for this phase.") % {"faction": player.faction}

    return _post(request, scope, player_id, "done", mark)


@admin_action
def away_mark(request, scope: Scope, player_id: int):
    def away(player, data):
        absence, _advanced = acting.absence_mark_for(
            player=player, by=request.user, reason=data["reason"],
            starts_on=data["starts_on"], ends_on=data["ends_on"], now=timezone.now())
        return _("%(faction)s is marked away from %(start)s to %(end)s.") % {
            "faction": player.faction, "start": formats.date_text(absence.starts_on),
            "end": formats.date_text(absence.ends_on)}

    return _post(request, scope, player_id, "away", away)


@admin_action
def attack_cancel(request, scope: Scope, player_id: int, attack_id: int):
    def cancel(player, data):
        attack = get_object_or_404(Attack, player=player, pk=attack_id)
        services.attack_cancel(attack=attack, by=request.user, reason=data["reason"])
        return _("The declaration is cancelled; the army is back.")

    return _post(request, scope, player_id, "cancel", cancel)


# --- the battle page's corrections -----------------------------------------------------------

def _battle_post(request, scope: Scope, battle_id: int, form, form_name: str, call):
    battle = get_battle(scope, battle_id)
    if form.is_valid():
        try:
            message = call(battle, form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc)
            return render_battle(request, scope, battle, status=exc.status,
                                 **{form_name: form})
        advance_if_ready(battle.round_id)
        messages.success(request, message)
        url = reverse("campaigns:battle", args=[scope.campaign.pk, battle.pk])
        return redirect(f"{url}#corrections")
    return render_battle(request, scope, battle, status=400, **{form_name: form})


@admin_action
def result_correct(request, scope: Scope, battle_id: int):
    def correct(battle, data):
        battle_result_correct(battle=battle, by_admin_user=request.user, **data)
        return _("Result corrected.")

    return _battle_post(request, scope, battle_id, ResultCorrectForm(request.POST,
                                                                     prefix="correct"),
                        "correct_form", correct)


@admin_action
def result_void(request, scope: Scope, battle_id: int):
    def void(battle, data):
        battle_result_void(battle=battle, by_admin_user=request.user, reason=data["reason"])
        return _("Result voided: the battle is open again.")

    return _battle_post(request, scope, battle_id, ReasonForm(request.POST, prefix="void"),
                        "void_form", void)
