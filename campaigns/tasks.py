"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from campaigns.models import JobRun


@shared_task(name="campaigns.ping")
def ping(key: str) -> int:
    """Write a row to prove a worker reaches the database; idempotent per key."""
    run, _ = JobRun.objects.get_or_create(name="ping", key=key)
    return run.pk


MAIL_RETRIES = 10  # spaced by ``mail_backoff``: about twelve hours in all
MAIL_RETRIES_IN_PROCESS = 2  # without a worker, a request waits for these only


def mail_backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 1, 2, 4 ... minutes, at most 4 hours."""
    return min(60 * 2 ** retries, 4 * 3600)


@shared_task(name="campaigns.send_mail", bind=True, acks_late=True, max_retries=MAIL_RETRIES)
def send_mail(self, subject: str, body: str, to: list[str]) -> int:
    """Send one rendered mail (``campaigns.mail``) to each address on its own. When the mail
    server fails, a worker retries later (``mail_backoff``) with the addresses not served yet,
    so nobody gets it twice; run in-process (no worker), it tries again at once, a few times
    (Celery's own eager retry would raise instead)."""
    from campaigns.mail import deliver

    pending, failures = list(to), 0
    while pending:
        try:
            deliver(subject, body, pending[0])
        except Exception as exc:  # the mail server's problem: try again
            failures += 1
            if not self.request.is_eager:
                raise self.retry(args=(subject, body, pending), exc=exc,
                                 countdown=mail_backoff(self.request.retries)) from exc
            if failures > MAIL_RETRIES_IN_PROCESS:
                raise
            continue
        pending.pop(0)
        failures = 0
    return len(to)


@shared_task(name="campaigns.deliver_webhooks", acks_late=True)
def deliver_webhooks(ids: list[int], now: str | None = None) -> int:
    """Send webhook deliveries (issue 20); each is locked and sent at most once, failures are
    rescheduled by the service and retried by the periodic job. ``now`` (ISO) is the time the
    caller acted at (tests drive time with it); a worker otherwise uses its clock."""
    from datetime import datetime

    from campaigns.services.webhooks import deliveries_send

    return deliveries_send(ids=ids, now=datetime.fromisoformat(now) if now else None)
