"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from campaigns.models import JobRun


@shared_task(name="campaigns.ping")
def ping(key: str) -> int:
    """Write a row to prove a worker reaches the database; idempotent per key."""
    run, _ = JobRun.objects.get_or_create(name="ping", key=key)
    return run.pk


@shared_task(name="campaigns.send_mail", acks_late=True)
def send_mail(subject: str, body: str, to: list[str]) -> int:
    """Send one rendered mail (``campaigns.mail``) to each address on its own."""
    from django.core.mail import send_mail as django_send_mail

    return sum(django_send_mail(subject, body, None, [address]) for address in to)
