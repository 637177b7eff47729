"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from campaigns.models import JobRun


@shared_task(name="campaigns.ping")
def ping(key: str) -> int:
    """Write a row to prove a worker reaches the database; idempotent per key."""
    run, _ = JobRun.objects.get_or_create(name="ping", key=key)
    return run.pk
