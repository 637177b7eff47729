"""Thin Celery wrappers: load by id, call a service (ARCHITECTURE.md)."""

from celery import shared_task

from campaigns.tasks import OUTBOX_TASK


@shared_task(name="battles.send_notifications", acks_late=True, **OUTBOX_TASK)
def send_notifications(ids: list[int]) -> int:
    from battles.services.notifications import notifications_send

    return notifications_send(ids=ids)
