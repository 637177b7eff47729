"""The organiser acts for a player (R-SEC-2 corrections): "done for this phase" and an
absence on the player's behalf. Each asks for a reason, is refused while an automatic phase
runs, is recorded in the audit log with who, when, before, after and the reason, and re-checks
early advance once committed (R-RND-2 [reading]): the organiser's action completes a phase as
the player's own would."""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import access
from campaigns.errors import Conflict
from campaigns.models import Absence, PhaseDone, Player
from campaigns.services import absences
from campaigns.services.admin_log import record
from campaigns.services.corrections import check_correctable, require_reason
from league.services.readiness import _check_open, advance_if_ready, campaign_advance_if_ready


def _check_admin(by, player: Player) -> None:
    if not access.is_campaign_admin(by, player.campaign):
        raise PermissionDenied(_("Only a campaign admin acts for a player."))


def phase_done_mark_for(*, player: Player, by, reason, phase: str | None = None,
                        now: datetime | None = None) -> tuple[bool, bool]:
    """Mark ``player`` done for the current round's phase (``phase``: the one the organiser
    saw; a phase that moved on is a 409), as ``phase_done_mark`` does for the player. Returns
    (mark new, phase advanced)."""
    reason = require_reason(reason)
    player = Player.objects.select_related("campaign").get(pk=player.pk)
    _check_admin(by, player)
    with transaction.atomic():
        rnd = check_correctable(player.campaign)
        if rnd is None:
            raise Conflict(_("The campaign has not started yet."), code="wrong_phase")
        rnd.campaign = player.campaign
        _check_open(rnd, player, phase)
        _mark, created = PhaseDone.objects.get_or_create(round=rnd, player=player,
                                                         phase=rnd.phase)
        if created:
            record(campaign=player.campaign, actor=by, kind="player.done",
                   target=player.faction, before={"done": False},
                   after={"done": True, "phase": rnd.phase}, round=rnd, reason=reason)
    return created, advance_if_ready(round_id=rnd.pk, phase=rnd.phase, now=now)


def absence_mark_for(*, player: Player, by, reason, starts_on: date, ends_on: date,
                     now: datetime | None = None) -> tuple[Absence, bool]:
    """Mark ``player`` away (``absences.absence_add`` with the organiser's reason). Returns
    (the absence, phase advanced)."""
    reason = require_reason(reason)
    now = now or timezone.now()
    player = Player.objects.select_related("campaign").get(pk=player.pk)
    _check_admin(by, player)
    with transaction.atomic():
        check_correctable(player.campaign)
        absence = absences.absence_add(player=player, by=by, starts_on=starts_on,
                                       ends_on=ends_on, now=now, reason=reason)
    return absence, campaign_advance_if_ready(campaign_id=player.campaign_id, now=now)
