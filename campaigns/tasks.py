"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from .models import JobRun


@shared_task(name="campaigns.ping")
def ping(key: str) -> int:
    """Write a row to prove a worker reaches the database; idempotent per key."""
    run, _ = JobRun.objects.get_or_create(name="ping", key=key)
    return run.pk


@shared_task(name="campaigns.advance_due_rounds", acks_late=True)
def advance_due_rounds() -> int:
    from .services.rounds import advance_due_rounds as advance

    return advance()


@shared_task(name="campaigns.run_phase_job", acks_late=True)
def run_phase_job(round_id: int, phase: str) -> str:
    from .services.rounds import round_run_phase_job

    return round_run_phase_job(round_id=round_id, phase=phase).phase
