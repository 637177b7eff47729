"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from campaigns.models import JobRun


@shared_task(name="campaigns.ping", ignore_result=False)
def ping(key: str) -> int:
    """Write a row to prove a worker reaches the database; idempotent per key. The one task
    whose result is read (the wiring test), so it keeps it (``CELERY_TASK_IGNORE_RESULT``)."""
    run, _ = JobRun.objects.get_or_create(name="ping", key=key)
    return run.pk


# Mail and webhook deliveries run on the queue "outbox" (``CELERY_TASK_ROUTES``), never in a
# round job's place, each within a short time limit (one mail waits ``EMAIL_TIMEOUT`` at most).
# Nobody waits for their results: enqueueing touches only the broker.
OUTBOX_TASK = {"soft_time_limit": 30, "time_limit": 60, "ignore_result": True}


def mail_backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 1, 2, 4 ... minutes, at most 4 hours."""
    return min(60 * 2 ** retries, 4 * 3600)


@shared_task(name="campaigns.send_outbox_mail", acks_late=True, **OUTBOX_TASK)
def send_outbox_mail(ids: list[int], now: str | None = None) -> int:
    """Send mails of the outbox (``campaigns.services.outbox``); ``now`` (ISO) is the periodic
    job's time (tests drive time with it), else the worker's clock."""
    from datetime import datetime

    from campaigns.services.outbox import mail_outbox_deliver

    return mail_outbox_deliver(ids=ids, now=datetime.fromisoformat(now) if now else None)


@shared_task(name="campaigns.send_mail", acks_late=True, **OUTBOX_TASK)
def send_mail(subject: str, body: str, to: list[str]) -> int:
    """A mail enqueued before the outbox existed (still in a broker's queue after an update):
    written to the outbox, which sends it."""
    from campaigns.services.outbox import mail_outbox_add

    return len(mail_outbox_add(mails=[(subject, body, address) for address in to]))


@shared_task(name="campaigns.deliver_webhooks", acks_late=True, **OUTBOX_TASK)
def deliver_webhooks(ids: list[int], now: str | None = None) -> int:
    """Send webhook deliveries; each is locked and sent at most once, failures are
    rescheduled by the service and retried by the periodic job. ``now`` (ISO) is the time the
    caller acted at (tests drive time with it); a worker otherwise uses its clock."""
    from datetime import datetime

    from campaigns.services.webhooks import deliveries_send

    return deliveries_send(ids=ids, now=datetime.fromisoformat(now) if now else None)
