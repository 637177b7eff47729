"""The admin pauses and resumes a campaign, and extends the current deadline
by hours in one click.

[reading R-RND-1, R-RND-2] A pause holds the round: the current deadline stops and keeps the
time it had left (``Round.deadline_left``; ``phase_deadline`` is cleared, so no deadline passes,
no reminder is due and no lists are revealed by the clock), nothing advances (the periodic job
skips paused campaigns and ``round_advance`` refuses them), players can read but not write
(``campaigns.pausing``). A deadline that had passed already when the pause began stays as it
was (the lists it revealed stay revealed) and the round moves on right after the resume.
Resuming sets the deadline to now plus the time left, and the battles phase's own windows
(``confirm_hours``, late lists) start later by the pause's length (``battles.services.windows``).

Pausing a paused campaign, or resuming a running one, is refused with 409 (``already_paused``,
``not_paused``): a second click must not restart the pause clock [decision]. Every call locks
the campaign row, then its current round (``campaigns.locking``, the order every advance
keeps), so a pause and an advance are ordered: the round advanced before the pause, or not at
all."""

from datetime import UTC, datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.services.feeds import calendar_deadline_follow
from battles.services.windows import battle_windows_shift
from campaigns import access
from campaigns.enqueue import enqueue_on_commit
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_current_round, retry_on_deadlock
from campaigns.models import Campaign, Round
from campaigns.services import admin_log
from campaigns.services.events import event_emit
from league.services.rounds import check_deadline_movable
from rules.rounds import AUTOMATIC
from rules.ruleset import PHASE_HOURS_RANGE

REASON_MAX = Campaign._meta.get_field("pause_reason").max_length
ZERO = timedelta(0)


def _lock(campaign: Campaign, by) -> tuple[Campaign, Round | None]:
    """The campaign and its current round, both locked in the order of ``campaigns.locking``
    (as every advance locks them), once ``by`` is known to administer the campaign (403
    otherwise)."""
    if not access.is_campaign_admin(by, campaign):
        raise PermissionDenied(_("Only a campaign admin pauses, resumes or extends."))
    return lock_current_round(campaign)


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment else None


def _reason(reason) -> str:
    if not isinstance(reason, str):
        raise RuleViolation(_("The reason is text."), field="reason")
    reason = " ".join(reason.split())  # one line: it heads every page
    if len(reason) > REASON_MAX:
        raise RuleViolation(_("At most %(n)s characters.") % {"n": REASON_MAX}, field="reason")
    return reason


@retry_on_deadlock
@transaction.atomic
def campaign_pause(*, campaign: Campaign, by, reason: str = "",
                   now: datetime | None = None) -> Campaign:
    """Pause the campaign (module docstring); logged as ``campaign.pause``."""
    now = now or timezone.now()
    campaign, rnd = _lock(campaign, by)
    if campaign.paused_at is not None:
        raise Conflict(_("The campaign is paused already; resume it first."),
                       code="already_paused")
    reason = _reason(reason)  # state first, then the input (API.md General)
    if rnd is not None and rnd.phase_deadline is not None:
        left = rnd.phase_deadline - now
        rnd.deadline_left = max(left, ZERO)
        if left > ZERO:
            rnd.phase_deadline = None  # the clock stands
        rnd.save(update_fields=["deadline_left", "phase_deadline"])
    campaign.paused_at, campaign.pause_reason = now, reason
    campaign.save(update_fields=["paused_at", "pause_reason"])
    if rnd is not None:  # R-BAT-2: the deadline's event shows the clock standing
        calendar_deadline_follow(round=rnd, now=now)
    admin_log.record(campaign=campaign, actor=by, kind="campaign.pause",
                     target=campaign.name, round=rnd, after={"reason": reason})
    event_emit(campaign=campaign, kind="campaign_paused",  # webhooks, feed
               key=f"paused:{int(now.timestamp())}", facts={"reason": reason},
               audience="public", now=now)
    return campaign


@retry_on_deadlock
@transaction.atomic
def campaign_resume(*, campaign: Campaign, by, now: datetime | None = None) -> Campaign:
    """Resume the campaign: the deadline gets the time it had left; logged as
    ``campaign.resume``."""
    now = now or timezone.now()
    campaign, rnd = _lock(campaign, by)
    paused_at = campaign.paused_at
    if paused_at is None:
        raise Conflict(_("The campaign is not paused."), code="not_paused")
    if rnd is not None:
        _restart_clocks(rnd, paused_at, now)
    campaign.paused_at, campaign.pause_reason = None, ""
    campaign.save(update_fields=["paused_at", "pause_reason"])
    if rnd is not None:  # R-BAT-2: the deadline's event takes the resumed time
        calendar_deadline_follow(round=rnd, now=now)
    admin_log.record(campaign=campaign, actor=by, kind="campaign.resume", target=campaign.name,
                     round=rnd, before={"paused_at": _iso(paused_at)})
    event_emit(campaign=campaign, kind="campaign_resumed",  # webhooks, feed
               key=f"resumed:{int(now.timestamp())}", facts={}, audience="public", now=now)
    return campaign


def _restart_clocks(rnd: Round, paused_at: datetime, now: datetime) -> None:
    if rnd.deadline_left is not None:
        if rnd.deadline_left > ZERO:
            rnd.phase_deadline = now + rnd.deadline_left
        rnd.deadline_left = None
        rnd.save(update_fields=["deadline_left", "phase_deadline"])
    battle_windows_shift(round=rnd, paused_at=paused_at, delta=now - paused_at)
    if rnd.phase in AUTOMATIC:  # its job was held by the pause
        from league.tasks import run_phase_job  # the task module imports the services

        enqueue_on_commit(run_phase_job, rnd.pk, rnd.phase)


def _hours(hours) -> int:
    low, high = PHASE_HOURS_RANGE
    if type(hours) is not int or not low <= hours <= high:
        raise RuleViolation(_("Extend by a whole number of hours from %(low)s to %(high)s "
                              "(R-RND-1).") % {"low": low, "high": high},
                            code="R-RND-1", field="hours")
    return hours


@retry_on_deadlock
@transaction.atomic
def round_extend_deadline(*, campaign: Campaign, by, hours: int,
                          now: datetime | None = None) -> Round:
    """Move the current deadline ``hours`` later (R-RND-1), refused like ``round_set_deadline``
    for a phase without a deadline or a lists deadline that passed. While the campaign is
    paused, the time left grows instead. Logged as ``round.extend``."""
    now = now or timezone.now()
    campaign, rnd = _lock(campaign, by)
    if rnd is None:
        raise Conflict(_("The campaign has not started yet."), code="no_round")
    check_deadline_movable(rnd, now)
    hours = _hours(hours)  # state first, then the input (API.md General)
    extra = timedelta(hours=hours)
    if campaign.paused_at is not None:
        rnd.deadline_left = (rnd.deadline_left or ZERO) + extra
        rnd.phase_deadline = None  # a deadline that had passed waits again
    elif rnd.phase_deadline is None:
        raise Conflict(_("The phase has no deadline to extend."), code="no_deadline")
    else:
        rnd.phase_deadline += extra
    rnd.save(update_fields=["deadline_left", "phase_deadline"])
    calendar_deadline_follow(round=rnd, now=now)  # R-BAT-2
    after = {"hours": hours, "deadline": _iso(rnd.phase_deadline)}
    if rnd.deadline_left is not None:
        after["left_seconds"] = int(rnd.deadline_left.total_seconds())
    admin_log.record(campaign=campaign, actor=by, kind="round.extend",
                     target=f"round {rnd.number}", round=rnd, after=after)
    return rnd
