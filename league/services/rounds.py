"""Rounds: opening, advancing through the phases (R-RND-1..3), the periodic job (R-RND-2).
What runs at each phase change is the table in ``league.phases``. Advancing is idempotent and
concurrency-safe: the round row is locked and a caller states the phase it expects to leave; a
second caller finds the phase already left."""

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.errors import Conflict
from campaigns.models import Campaign, Round
from campaigns.selectors.rounds import current_round, phase_deadline
from league.phases import EVERY_MINUTE, TABLE
from rules.dice import commitment, new_seed
from rules.rounds import AUTOMATIC, WAITING, next_phase


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
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    existing = campaign.rounds.order_by("-number").first()
    if existing:
        return existing
    if not campaign.players.exists():
        raise Conflict("Add players before starting the campaign.", code="no_players")
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
    rnd.save(update_fields=["phase", "phase_started_at", "phase_deadline"])
    _run(TABLE[phase].start, rnd, now)


def _lock(round_id: int) -> Round:
    return Round.objects.select_for_update().select_related("campaign").get(pk=round_id)


@transaction.atomic
def round_advance(*, round_id: int, expected_phase: str | None = None,
                  now: datetime | None = None) -> Round:
    """Leave the current phase for the next (R-RND-2).

    With ``expected_phase``, a round that already left that phase is returned unchanged, so
    running the same advance twice, or twice at once, advances once."""
    now = now or timezone.now()
    rnd = _lock(round_id)
    if expected_phase is not None and rnd.phase != expected_phase:
        return rnd
    following = next_phase(rnd.phase)
    if following is None:
        raise Conflict("The round is closed; the next round is already open.")
    _run(TABLE[rnd.phase].end, rnd, now)
    _enter(rnd, following, now)
    if following in AUTOMATIC:
        _schedule_phase_job(rnd)
    elif following == Round.Phase.CLOSED:
        round_open(campaign=rnd.campaign, number=rnd.number + 1, now=now)
    return rnd


def campaign_advance(*, campaign: Campaign, expected_phase: str | None = None) -> Round:
    """The admin's "next phase" (R-RND-2): starts round 1 if none is open, else leaves the
    current phase; returns the campaign's current round. With ``expected_phase``, a round that
    already moved on is left as it is."""
    current = current_round(campaign)
    if current is None:
        return campaign_start(campaign=campaign)
    round_advance(round_id=current.pk, expected_phase=expected_phase or current.phase)
    return current_round(campaign)


def _schedule_phase_job(rnd: Round) -> None:
    from league.tasks import run_phase_job  # the task module imports this one

    round_id, phase = rnd.pk, rnd.phase
    transaction.on_commit(lambda: run_phase_job.delay(round_id, phase))


@transaction.atomic
def round_run_phase_job(*, round_id: int, phase: str, now: datetime | None = None) -> Round:
    """Run an automatic phase's job and advance (R-RND-2); a no-op once the phase is left."""
    now = now or timezone.now()
    rnd = _lock(round_id)
    if rnd.phase != phase or phase not in AUTOMATIC:
        return rnd
    _run(TABLE[phase].job, rnd, now)
    return round_advance(round_id=round_id, expected_phase=phase, now=now)


@transaction.atomic
def round_set_deadline(*, rnd: Round, deadline: datetime, now: datetime | None = None) -> Round:
    """The admin moves the current phase's deadline (R-RND-1). A lists deadline that has
    passed stays: the lists are visible from then on (R-ARM-3) and must not be hidden again
    and replaced; the periodic job moves the round on."""
    rnd = _lock(rnd.pk)
    if rnd.phase not in WAITING:
        raise Conflict(f"The {rnd.phase} phase has no deadline.")
    if rnd.phase == Round.Phase.LISTS and rnd.phase_deadline is not None \
            and rnd.phase_deadline <= (now or timezone.now()):
        raise Conflict("The lists deadline has passed and the army lists are revealed "
                       "(R-ARM-3); it cannot move any more.", code="lists_revealed")
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=deadline)
    rnd.phase_deadline = deadline
    return rnd


def due_rounds(now: datetime) -> list[tuple[int, str]]:
    """Rounds whose waiting phase passed its deadline, and rounds stuck in an automatic phase."""
    due = Q(phase__in=WAITING, phase_deadline__lte=now) | Q(phase__in=AUTOMATIC)
    return list(Round.objects.filter(due).order_by("pk").values_list("pk", "phase"))


def advance_due_rounds(now: datetime | None = None) -> int:
    """The periodic job (R-RND-2): advance every round whose deadline passed. Returns how many
    phases it moved."""
    now = now or timezone.now()
    moved = 0
    for round_id, phase in due_rounds(now):
        if phase in AUTOMATIC:
            rnd = round_run_phase_job(round_id=round_id, phase=phase, now=now)
        else:
            rnd = round_advance(round_id=round_id, expected_phase=phase, now=now)
            if rnd.phase in AUTOMATIC:  # the periodic job runs on a worker already
                rnd = round_run_phase_job(round_id=round_id, phase=rnd.phase, now=now)
        moved += rnd.phase != phase
    for step in EVERY_MINUTE:
        step(now=now)
    return moved
