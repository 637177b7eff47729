"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md). The ``name=`` strings
are older than this app; beat's database schedule refers to them.

The round tasks each handle one round: they fail alone, are retried with exponential backoff,
and after the last retry mark the round "needs attention" (``round_mark_attention``), which
mails the campaign's admins once."""

from datetime import datetime

from celery import Task, shared_task
from django.conf import settings

from league.services import rounds


class RoundTask(Task):
    """A task whose first argument is a round id."""

    autoretry_for = (Exception,)
    retry_backoff = 2  # seconds: 2, 4, 8, ... (with jitter), at most retry_backoff_max
    retry_backoff_max = 300
    retry_jitter = True
    max_retries = settings.ROUND_JOB_MAX_RETRIES
    acks_late = True
    ignore_result = True  # nobody waits for it: enqueueing touches only the broker

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        round_id = kwargs.get("round_id", args[0] if args else None)
        if round_id is not None:
            rounds.round_mark_attention(round_id=round_id,
                                        error=f"{type(exc).__name__}: {exc}")


@shared_task(name="campaigns.advance_due_rounds", acks_late=True)
def advance_due_rounds() -> int:
    """Find the due rounds and enqueue one ``run_due_round`` each (R-RND-2)."""
    return rounds.advance_due_rounds()


@shared_task(name="campaigns.run_phase_job", base=RoundTask)
def run_phase_job(round_id: int, phase: str) -> str:
    return rounds.round_run_phase_job(round_id=round_id, phase=phase).phase


@shared_task(name="campaigns.run_due_round", base=RoundTask)
def run_due_round(round_id: int, phase: str, now: str | None = None) -> str | None:
    """One round the periodic job found due in ``phase`` at ``now`` (ISO 8601)."""
    when = datetime.fromisoformat(now) if now else None
    rnd = rounds.round_run_due(round_id=round_id, phase=phase, now=when)
    return rnd.phase if rnd is not None else None
