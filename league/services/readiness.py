"""Early advance (R-RND-2 [reading]): "done for this phase" marks and the
advance of a waiting phase once everyone who can act in it has acted or said done. What
counts as ready is read in ``league.selectors.readiness`` (its docstring holds the readings).

Safe under races like every advance: ``round_advance_if_ready`` locks the round, checks again
and leaves the phase through ``round_advance(expected_phase=...)``, so two players saying done
at once, or a done racing the deadline, advance once. The mark is committed on its own before
the advance is tried; a failing advance never loses it (the periodic job tries again:
``readiness_sweep``, called every minute by ``league.services.rounds.advance_due_rounds``)."""

import logging
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import Conflict
from campaigns.labels import phase_label
from campaigns.locking import lock_round, retry_on_deadlock
from campaigns.models import PhaseDone, Player, Round
from campaigns.pausing import check_not_paused
from campaigns.services.admin_log import record
from league.selectors.readiness import early_advance_on, readiness
from league.services.rounds import round_advance
from rules.rounds import WAITING

log = logging.getLogger(__name__)


def _lock(round_id: int) -> Round:
    return lock_round(round_id)  # the campaign first (campaigns.locking)


@retry_on_deadlock
@transaction.atomic
def round_advance_if_ready(*, round_id: int, phase: str | None = None,
                           now: datetime | None = None) -> bool:
    """Leave the round's waiting phase if it is ready (R-RND-2 [reading]); log it in the
    campaign's audit log. With ``phase``, a round that already left that phase is left as it
    is. Returns whether this call advanced it."""
    now = now or timezone.now()
    rnd = _lock(round_id)
    if phase is not None and rnd.phase != phase:
        return False
    phase = rnd.phase
    if not readiness(rnd, now=now).ready:
        return False
    moved = round_advance(round_id=rnd.pk, expected_phase=phase, now=now)
    if moved.phase == phase:  # cannot happen under the lock; never log an advance twice
        return False
    record(campaign=rnd.campaign, actor=None, kind="round.early_advance",
           target=f"round {rnd.number}", before={"phase": phase}, after={"phase": moved.phase},
           public=True, round=rnd)
    log.info("Round %s of campaign %s left %s early: everyone is done", rnd.number,
             rnd.campaign_id, phase)
    return True


def advance_if_ready(*, round_id: int, phase: str | None = None,
                     now: datetime | None = None) -> bool:
    """``round_advance_if_ready`` after a player's input, in its own transaction; a failure
    is logged and leaves the round to the periodic job, never to the caller. Call it after
    the input's transaction committed."""
    try:
        return round_advance_if_ready(round_id=round_id, phase=phase, now=now)
    except Exception:  # the input stands; the periodic job tries again
        log.exception("Early advance of round %s failed", round_id)
        return False


def campaign_advance_if_ready(*, campaign_id: int, now: datetime | None = None) -> bool:
    """``advance_if_ready`` for the campaign's current round: after an input that names no
    round (an absence, a seat handed over). Call it after the input's transaction committed."""
    rnd = Round.objects.filter(campaign_id=campaign_id).order_by("-number").first()
    return rnd is not None and advance_if_ready(round_id=rnd.pk, now=now)


def readiness_sweep(*, now: datetime) -> int:
    """The periodic job's part (R-RND-2 [reading]): every waiting round of an unpaused
    campaign with ``early_advance`` on, before its deadline, that is ready advances, each in
    its own transaction and failing alone. Inputs given anywhere (a list, a confirmation, a
    conquest choice) thus complete a phase within a minute at the latest. Rounds are read
    unlocked first; only a ready one is locked and checked again. Returns how many moved."""
    moved = 0
    try:
        candidates = _candidates(now)
    except Exception:  # never stops the periodic job's other work
        log.exception("The readiness sweep could not list its rounds")
        return 0
    for rnd in candidates:
        try:
            if readiness(rnd, now=now).ready and round_advance_if_ready(
                    round_id=rnd.pk, phase=rnd.phase, now=now):
                moved += 1
        except Exception:  # this round's problem only
            log.exception("Readiness check of round %s failed", rnd.pk)
    return moved


def _candidates(now: datetime) -> list[Round]:
    rounds = (Round.objects.filter(phase__in=WAITING, campaign__paused_at__isnull=True)
              .filter(Q(phase_deadline__isnull=True) | Q(phase_deadline__gt=now))
              .exclude(campaign__ruleset__early_advance=False)
              .select_related("campaign").order_by("pk"))
    return [rnd for rnd in rounds if early_advance_on(rnd.campaign)]


# --- "done for this phase" --------------------------------------------------------------------

def _check_open(rnd: Round, player: Player | None, phase: str | None) -> None:
    """Refuse a mark or its removal unless the player may say done now (R-RND-2 [reading])."""
    if player is None or player.campaign_id != rnd.campaign_id:
        raise PermissionDenied(_("Only the campaign's players say they are done for a phase."))
    if phase is not None and phase != rnd.phase:
        raise Conflict(_("The %(phase)s phase is over: the round is in %(current)s now "
                         "(R-RND-2).") % {"phase": phase_label(phase),
                                          "current": phase_label(rnd.phase)},
                       code="phase_over", field="phase")
    if rnd.phase not in WAITING:
        raise Conflict(_("The %(phase)s phase waits for no player; there is nothing to be "
                         "done for (R-RND-2).") % {"phase": phase_label(rnd.phase)},
                       code="wrong_phase")
    check_not_paused(rnd.campaign)  # 409 naming the pause's reason
    if not early_advance_on(rnd.campaign):
        raise Conflict(_("This campaign does not advance early (ruleset key early_advance "
                         "is off, R-RND-2): the phase ends at its deadline."),
                       code="early_advance_off")


def _lock_open(round_id: int, player: Player | None, phase: str | None) -> Round:
    rnd = lock_round(round_id)  # the campaign first: a pause or an advance may hold it
    _check_open(rnd, player, phase)
    return rnd


def phase_done_mark(*, round: Round, player: Player | None,  # noqa: A002
                    phase: str | None = None, now: datetime | None = None) -> tuple[bool, bool]:
    """The player is done for the round's current phase (``phase``: the one they saw; a
    phase that moved on is a 409). The mark is committed first; then the phase advances if
    everyone is ready. Returns (mark new, phase advanced)."""
    now = now or timezone.now()
    rnd, created = _mark(round.pk, player, phase)
    return created, advance_if_ready(round_id=round.pk, phase=rnd.phase, now=now)


@retry_on_deadlock
@transaction.atomic
def _mark(round_id: int, player: Player | None, phase: str | None) -> tuple[Round, bool]:
    rnd = _lock_open(round_id, player, phase)
    _done, created = PhaseDone.objects.get_or_create(round=rnd, player=player, phase=rnd.phase)
    return rnd, created


@retry_on_deadlock
@transaction.atomic
def phase_done_clear(*, round: Round, player: Player | None,  # noqa: A002
                     phase: str | None = None) -> bool:
    """Take a "done" back while its phase is open. Returns whether there was one."""
    rnd = _lock_open(round.pk, player, phase)
    deleted, _ = PhaseDone.objects.filter(round=rnd, player=player, phase=rnd.phase).delete()
    return deleted > 0
