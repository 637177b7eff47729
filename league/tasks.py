"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md). The ``name=`` strings
are older than this app; beat's database schedule refers to them."""

from celery import shared_task

from league.services import rounds


@shared_task(name="campaigns.advance_due_rounds", acks_late=True)
def advance_due_rounds() -> int:
    return rounds.advance_due_rounds()


@shared_task(name="campaigns.run_phase_job", acks_late=True)
def run_phase_job(round_id: int, phase: str) -> str:
    return rounds.round_run_phase_job(round_id=round_id, phase=phase).phase
