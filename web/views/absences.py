"""Absences on the pages (R-RND-3): the Away card of the campaign home (my
absences, withdraw, add; days left this season) and who is away when, for members. A note is
shown to its player and the campaign admins only [reading]. Each action calls the service the
API calls, then goes back; a refusal shows the campaign home again next to the form."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns import formats
from campaigns.errors import DomainError
from campaigns.models import Absence
from campaigns.selectors.absences import (
    absences_of,
    campaign_day,
    note_visible,
    player_absences,
    upcoming_absences,
)
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services import absences as services
from campaigns.zones import zone_name
from web.forms.absences import AbsenceForm
from web.templatetags.feldzug import explained
from web.views.actions import campaign_advance_if_ready, form_action
from web.views.scope import Scope, campaign_page


def away_rows(scope: Scope, today) -> list[dict]:
    """Current and future absences of the campaign (one query), notes only where allowed."""
    user = scope.request.user
    return [{"absence": a, "player": a.player, "current": a.starts_on <= today,
             "mine": scope.player is not None and a.player_id == scope.player.pk,
             "note": a.note if note_visible(a, user=user, is_admin=scope.is_admin) else ""}
            for a in upcoming_absences(scope.campaign, today)]


def away_context(scope: Scope, form: AbsenceForm | None = None) -> dict | None:
    """The Away card for members; None for other visitors."""
    if not scope.is_member:
        return None
    today = campaign_day(scope.campaign, timezone.now())
    cap = ruleset_of(scope.campaign).absence_days
    context = {"cap": cap, "today": today, "rows": away_rows(scope, today),
               "zone": zone_name(campaign=scope.campaign)}
    if scope.player is not None:
        mine = list(player_absences(scope.player))
        used = sum(a.days for a in mine)
        context.update(mine=[{"absence": a, "withdraw": a.ends_on >= today,
                              "current": a.starts_on <= today <= a.ends_on} for a in mine],
                       used=used, left=max(cap - used, 0),
                       form=form or (AbsenceForm() if cap else None))
    return context


def battle_away(battle) -> list[dict]:
    """Current and future absences of the battle's sides ([reading R-BAT-2]): shown
    next to the date; ``clash`` when one covers the agreed date (campaign calendar), so either
    side knows to propose another."""
    campaign = battle.campaign
    today = campaign_day(campaign, timezone.now())
    agreed = campaign_day(campaign, battle.scheduled_at) if battle.scheduled_at else None
    return [{"absence": a, "player": a.player,
             "clash": agreed is not None and a.starts_on <= agreed <= a.ends_on}
            for a in absences_of((battle.attacker_id, battle.defender_id), since=today)]


def _home(scope: Scope, anchor: str = "away"):
    response = redirect("campaigns:detail", scope.campaign.pk)
    response["Location"] += f"#{anchor}"
    return response


@require_POST
@campaign_page("player")
def absence_add(request, scope: Scope):
    from web.views.campaign import render_detail  # the home page imports away_context

    def add(data):
        absence = services.absence_add(player=scope.player, by=request.user, now=timezone.now(),
                                       **data)
        campaign_advance_if_ready(scope.campaign.pk)  # an away player is ready (R-RND-2)
        return _("You are marked away from %(start)s to %(end)s.") % {
            "start": formats.date_text(absence.starts_on),
            "end": formats.date_text(absence.ends_on)}

    return form_action(request, AbsenceForm(request.POST), add, done=lambda: _home(scope),
                       again=lambda bound: render_detail(request, scope, status=400,
                                                         away_form=bound))


@require_POST
@campaign_page("member")
def absence_withdraw(request, scope: Scope, absence_id: int):
    absence = get_object_or_404(Absence.objects.select_related("player__campaign"),
                                pk=absence_id, player__campaign=scope.campaign)
    try:
        cut = services.absence_delete(absence=absence, by=request.user, now=timezone.now())
    except DomainError as exc:
        messages.error(request, _("Refused: %(reason)s") % {"reason": explained(exc)})
    else:
        messages.success(request, _("Absence withdrawn.") if cut is None else _(
            "Absence cut short: it ended yesterday."))
    if request.POST.get("back") == "members" and scope.is_admin:
        response = redirect("campaigns:manage-members", scope.campaign.pk)
        response["Location"] += "#absences"
        return response
    return _home(scope)

