"""Rounds: opening, advancing through the phases (R-RND-1..3), the periodic job (R-RND-2).
What runs at each phase change is the table in ``league.phases``. Advancing is idempotent and
concurrency-safe: the round row is locked and a caller states the phase it expects to leave; a
second caller finds the phase already left. An automatic phase is only ever left by running its
job (idempotent), whoever advances.

The periodic job only finds due rounds and hands each to its own task
(``league.tasks.run_due_round``), which claims the round's row, fails alone, is retried with
backoff and at last marks the round "needs attention" (``round_mark_attention``)."""

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.services.feeds import calendar_deadline_follow
from campaigns import pausing
from campaigns.enqueue import enqueue, enqueue_on_commit
from campaigns.errors import Conflict
from campaigns.labels import phase_label
from campaigns.locking import lock_campaign, lock_round, retry_on_deadlock
from campaigns.mail import absolute, mail_users_after_commit
from campaigns.models import Campaign, Round
from campaigns.selectors.rounds import current_round, phase_deadline
from campaigns.services import admin_log
from campaigns.services import clock as clock_beat
from league.phases import EVERY_MINUTE, TABLE
from rules.dice import commitment, new_seed
from rules.rounds import AUTOMATIC, WAITING, next_phase

log = logging.getLogger(__name__)


def round_open(*, campaign: Campaign, number: int, now: datetime | None = None) -> Round:
    """Open round ``number`` in ``declare`` with a fresh secret seed (R-DICE-2)."""
    now = now or timezone.now()
    seed = new_seed()
    rnd = Round.objects.create(
        campaign=campaign, number=number, phase=Round.Phase.DECLARE,
        phase_started_at=now, phase_deadline=phase_deadline(campaign, "declare", now),
        server_seed=seed, seed_commitment=commitment(seed))
    _run(TABLE["declare"].start, rnd, now)
    return rnd


@transaction.atomic
def campaign_start(*, campaign: Campaign, now: datetime | None = None) -> Round:
    """Start the campaign: round 1 opens in ``declare``. Starting twice changes nothing."""
    campaign = lock_campaign(campaign.pk)  # rounds open only under it (campaigns.locking)
    existing = campaign.rounds.order_by("-number").first()
    if existing:
        return existing
    if not campaign.players.exists():
        raise Conflict(_("Add players before starting the campaign."), code="no_players")
    campaign.status = Campaign.Status.RUNNING
    campaign.save(update_fields=["status"])
    return round_open(campaign=campaign, number=1, now=now)


def _run(steps, rnd: Round, now: datetime) -> None:
    for step in steps:
        step(round=rnd, now=now)


def _enter(rnd: Round, phase: str, now: datetime) -> None:
    rnd.phase = phase
    rnd.phase_started_at = now
    rnd.phase_deadline = phase_deadline(rnd.campaign, phase, now)
    rnd.attention_at, rnd.attention_error = None, ""  # the round moved on
    rnd.save(update_fields=["phase", "phase_started_at", "phase_deadline", "attention_at",
                            "attention_error"])
    _run(TABLE[phase].start, rnd, now)


def _pass_over_undue(rnd: Round, phase: str, now: datetime) -> str:
    """The phase the round opens next: ``phase``, or the first after it that is due
    (``league.phases.Phase.due``). [reading R-RND-1, R-CON-4] A waiting phase in which
    nobody has anything to do (a conquest phase without a won attack to roll) would only
    mail the players and stand in their calendars for nothing: it is passed over, without
    its start steps (no mail, no calendar entry, no deadline), but its end steps run as at
    its deadline (``conquest_resolve`` marks the round's conquest resolved), and a public
    note in the audit log says why."""
    while TABLE[phase].due is not None and not TABLE[phase].due(rnd):
        rnd.phase, rnd.phase_started_at, rnd.phase_deadline = phase, now, None
        _run(TABLE[phase].end, rnd, now)
        admin_log.record(campaign=rnd.campaign, actor=None, kind=f"round.skip_{phase}",
                         target=f"round {rnd.number}", round=rnd)
        phase = next_phase(phase)
    return phase


def _lock(round_id: int) -> Round:
    return lock_round(round_id)  # the campaign first (campaigns.locking)


@retry_on_deadlock
@transaction.atomic
def round_advance(*, round_id: int, expected_phase: str | None = None,
                  now: datetime | None = None) -> Round:
    """Leave the current phase for the next (R-RND-2).

    With ``expected_phase``, a round that already left that phase is returned unchanged, so
    running the same advance twice, or twice at once, advances once. Leaving an automatic
    phase runs its job first (a no-op if it ran already): no advance skips it."""
    now = now or timezone.now()
    rnd = _lock(round_id)
    if expected_phase is not None and rnd.phase != expected_phase:
        return rnd
    check_not_advancing_paused(rnd.campaign)  # nothing advances while paused
    following = next_phase(rnd.phase)
    if following is None:
        raise Conflict(_("The round is closed; the next round is already open."))
    _run(TABLE[rnd.phase].job, rnd, now)
    _run(TABLE[rnd.phase].end, rnd, now)
    following = _pass_over_undue(rnd, following, now)
    _enter(rnd, following, now)
    if following in AUTOMATIC:
        _schedule_phase_job(rnd)
    elif following == Round.Phase.CLOSED:
        round_open(campaign=rnd.campaign, number=rnd.number + 1, now=now)
    return rnd


@retry_on_deadlock
@transaction.atomic
def campaign_advance(*, campaign: Campaign, expected_phase: str | None = None,
                     now: datetime | None = None, by=None) -> Round:
    """The admin's "next phase" (R-RND-2): starts round 1 if none is open, else leaves the
    current phase (running an automatic phase's job first); returns the campaign's current
    round. With ``expected_phase``, a round that already moved on is left as it is; without
    it, an advance within ``ROUND_ADVANCE_MIN_SECONDS`` of the campaign's previous one is
    refused, so repeated or parallel calls cannot skip phases. Refused while the campaign is
    paused; logged as ``round.advance`` by ``by``."""
    now = now or timezone.now()
    campaign = lock_campaign(campaign.pk)  # one advance at a time; then the round
    check_not_advancing_paused(campaign)
    if expected_phase is None:
        _refuse_too_soon(campaign, now)
    current = current_round(campaign)
    if current is None:
        campaign_start(campaign=campaign, now=now)
    elif expected_phase is not None and current.phase != expected_phase:
        return current
    else:
        round_advance(round_id=current.pk, expected_phase=current.phase, now=now)
    Campaign.objects.filter(pk=campaign.pk).update(last_advanced_at=now)
    result = current_round(campaign)
    admin_log.record(campaign=campaign, actor=by, kind="round.advance",
                     target=f"round {result.number}", round=result,
                     before={"phase": current.phase if current else None},
                     after={"phase": result.phase})
    return result


def check_not_advancing_paused(campaign: Campaign) -> None:
    """A paused campaign's round stays where it is [reading R-RND-2]."""
    if campaign.paused_at is not None:
        raise Conflict(_("The campaign is paused; resume it first, then advance."),
                       code=pausing.CODE)


def _refuse_too_soon(campaign: Campaign, now: datetime) -> None:
    limit = settings.ROUND_ADVANCE_MIN_SECONDS
    last = campaign.last_advanced_at
    if last is not None and abs((now - last).total_seconds()) < limit:
        raise Conflict(
            _("The campaign advanced less than %(seconds)s seconds ago (R-RND-2). Send "
              "expected_phase, the phase you want to leave, to advance again at once.")
            % {"seconds": limit},
            code="advance_too_soon", field="expected_phase")


def _schedule_phase_job(rnd: Round) -> None:
    from league.tasks import run_phase_job  # the task module imports this one

    enqueue_on_commit(run_phase_job, rnd.pk, rnd.phase)


@retry_on_deadlock
@transaction.atomic
def round_run_phase_job(*, round_id: int, phase: str, now: datetime | None = None) -> Round:
    """Run an automatic phase's job and advance (R-RND-2); a no-op once the phase is left."""
    now = now or timezone.now()
    rnd = _lock(round_id)
    if rnd.phase != phase or phase not in AUTOMATIC:
        return rnd
    if rnd.campaign.paused_at is not None:  # the resume schedules it again
        return rnd
    moved = round_advance(round_id=round_id, expected_phase=phase, now=now)  # runs the job
    _log_automatic(moved, "round.job_advance", phase)
    return moved


def _log_automatic(rnd: Round, kind: str, left: str) -> None:
    """An advance nobody clicked, in the audit log as "automatic" (actor None): the periodic
    job at a deadline, or an automatic phase's job (R-RND-2). The admin's and the early
    advance log their own (``round.advance``, ``round.early_advance``), so none is logged
    twice."""
    admin_log.record(campaign=rnd.campaign, actor=None, kind=kind, target=f"round {rnd.number}",
                     round=rnd, before={"phase": left}, after={"phase": rnd.phase})


@retry_on_deadlock
@transaction.atomic
def round_set_deadline(*, rnd: Round, deadline: datetime, now: datetime | None = None,
                       by=None) -> Round:
    """The admin moves the current phase's deadline (R-RND-1). A lists deadline that has
    passed stays: the lists are visible from then on (R-ARM-3) and must not be hidden again
    and replaced; the periodic job moves the round on. While the campaign is paused the
    deadline only grows by hours (``league.services.pause.round_extend_deadline``). Logged as
    ``round.deadline``."""
    rnd = _lock(rnd.pk)
    check_deadline_movable(rnd, now or timezone.now())
    if rnd.campaign.paused_at is not None:
        raise Conflict(_("The campaign is paused: its deadline resumes with the time it had "
                         "left. Extend it by hours, or resume first and then set it."),
                       code=pausing.CODE)
    before = rnd.phase_deadline
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=deadline)
    rnd.phase_deadline = deadline
    calendar_deadline_follow(round=rnd, now=now or timezone.now())  # R-BAT-2
    admin_log.record(campaign=rnd.campaign, actor=by, kind="round.deadline",
                     target=f"round {rnd.number}", round=rnd,
                     before={"deadline": _iso(before)}, after={"deadline": _iso(deadline)})
    return rnd


def check_deadline_movable(rnd: Round, now: datetime) -> None:
    """The current phase's deadline may move: the phase waits for players (R-RND-1) and it is
    not a lists deadline that passed (R-ARM-3)."""
    if rnd.phase not in WAITING:
        raise Conflict(_("The %(phase)s phase has no deadline.")
                       % {"phase": phase_label(rnd.phase)})
    if rnd.phase == Round.Phase.LISTS and rnd.phase_deadline is not None \
            and rnd.phase_deadline <= now:
        raise Conflict(_("The lists deadline has passed and the army lists are revealed "
                         "(R-ARM-3); it cannot move any more."), code="lists_revealed")


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment else None


def due_rounds(now: datetime) -> list[tuple[int, str]]:
    """Rounds whose waiting phase passed its deadline, and rounds in an automatic phase whose
    job has not finished ``ROUND_STUCK_AFTER_SECONDS`` after the phase began (its task was never
    enqueued, or its worker died). A round that needs attention is tried again every
    ``ROUND_ATTENTION_RETRY_SECONDS``."""
    stuck = now - timedelta(seconds=settings.ROUND_STUCK_AFTER_SECONDS)
    retry = now - timedelta(seconds=settings.ROUND_ATTENTION_RETRY_SECONDS)
    due = (Q(phase__in=WAITING, phase_deadline__lte=now)
           | Q(phase__in=AUTOMATIC, phase_started_at__lte=stuck)
           | Q(phase__in=AUTOMATIC, phase_started_at__isnull=True))
    calm = Q(attention_at__isnull=True) | Q(attention_at__lte=retry)
    running = Q(campaign__paused_at__isnull=True)  # a paused campaign waits
    return list(Round.objects.filter(due & calm & running).order_by("pk")
                .values_list("pk", "phase"))


def _claim(round_id: int) -> Round | None:
    """The round's row, locked with its campaign's (``campaigns.locking``); None while
    another transaction holds either (a worker on the job, an admin's advance or pause)."""
    return lock_round(round_id, skip_locked=True)


@retry_on_deadlock
@transaction.atomic
def _advance_if_due(round_id: int, phase: str, now: datetime) -> Round | None:
    rnd = _claim(round_id)
    if rnd is None or rnd.phase != phase or phase not in WAITING:
        return rnd
    if rnd.campaign.paused_at is not None:  # paused since it was found due
        return rnd
    if rnd.phase_deadline is None or rnd.phase_deadline > now:  # the admin moved it
        return rnd
    moved = round_advance(round_id=round_id, expected_phase=phase, now=now)
    _log_automatic(moved, "round.deadline_advance", phase)
    return moved


@retry_on_deadlock
@transaction.atomic
def _job_if_due(round_id: int, phase: str, now: datetime) -> Round | None:
    rnd = _claim(round_id)
    if rnd is None:
        return None
    return round_run_phase_job(round_id=round_id, phase=phase, now=now)


def round_run_due(*, round_id: int, phase: str, now: datetime | None = None) -> Round | None:
    """One due round, as the periodic job found it in ``phase`` (R-RND-2): leave a waiting
    phase whose deadline passed, then run the job of the automatic phase it is in, each in its
    own transaction with the round claimed. Idempotent: a round that moved on, or that another
    worker holds, is left alone (None when held)."""
    now = now or timezone.now()
    if phase in WAITING:
        rnd = _advance_if_due(round_id, phase, now)
        if rnd is None or rnd.phase not in AUTOMATIC:
            return rnd
        phase = rnd.phase  # the periodic job runs on a worker already: the job follows
    return _job_if_due(round_id, phase, now)


def round_mark_attention(*, round_id: int, error: str, now: datetime | None = None) -> bool:
    """The round's background work failed after its retries: mark it "needs attention" with
    the error, and mail the campaign's admins the first time. Returns whether it was new."""
    now = now or timezone.now()
    with transaction.atomic():
        if not Round.objects.filter(pk=round_id).exists():
            return False
        rnd = lock_round(round_id)
        new = rnd.attention_at is None
        rnd.attention_at, rnd.attention_error = now, error[:4000]
        rnd.save(update_fields=["attention_at", "attention_error"])
    log.error("Round %s (campaign %s, %s) needs attention: %s", rnd.number, rnd.campaign_id,
              rnd.phase, error)
    if new:
        _mail_admins(rnd, error)
    return new


def _mail_admins(rnd: Round, error: str) -> None:
    """Each admin in their language and zone, with the manage page's link; a mail
    server that is down never reaches the caller (``campaigns.mail``)."""
    mail_users_after_commit(users=list(rnd.campaign.admins.all()), name="round_attention",
                            context={"campaign": rnd.campaign, "round": rnd, "error": error,
                                     "link": absolute(reverse("campaigns:manage",
                                                              args=[rnd.campaign_id]))})


def _run_every_minute(now: datetime) -> None:
    for step in EVERY_MINUTE:
        try:
            with transaction.atomic():
                step(now=now)
        except Exception:  # one failing step must not stop the others
            log.exception("Every-minute step %s failed", getattr(step, "__name__", step))


def advance_due_rounds(now: datetime | None = None, *, clock: str = clock_beat.BEAT) -> int:
    """The periodic job (R-RND-2): hand every due round to its own task
    (``league.tasks.run_due_round``), then run the every-minute steps, each on its own.
    Without a broker (eager mode), or when the broker cannot take the task, the round is run
    here, in-process, and fails alone. Leaves ``clock``'s heartbeat (celery beat and ``tick``:
    "beat"; ``league.clock``: "in-process"). Returns how many rounds were due."""
    from league.services.readiness import readiness_sweep  # it imports this module
    from league.tasks import run_due_round  # the task module imports this one

    now = now or timezone.now()
    due = due_rounds(now)
    for round_id, phase in due:
        if run_due_round.app.conf.task_always_eager \
                or not enqueue(run_due_round, round_id, phase, now.isoformat()):
            _run_locally(round_id, phase, now)
    _run_every_minute(now)
    readiness_sweep(now=now)  # early advance of phases everyone is done with
    clock_beat.clock_beat_record(name=clock, due_rounds=len(due), now=now)
    return len(due)


def _run_locally(round_id: int, phase: str, now: datetime) -> None:
    """``run_due_round`` in this process: retried at once up to ``ROUND_JOB_MAX_RETRIES``
    times, then the round needs attention. Never raises."""
    error = None
    for _attempt in range(1 + settings.ROUND_JOB_MAX_RETRIES):
        try:
            round_run_due(round_id=round_id, phase=phase, now=now)
            return
        except Exception as exc:  # this round's problem only
            log.warning("Round %s (%s) failed in the periodic job", round_id, phase,
                        exc_info=True)
            error = exc
    round_mark_attention(round_id=round_id, error=f"{type(error).__name__}: {error}")
