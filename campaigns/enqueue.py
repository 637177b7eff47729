"""Handing work to Celery without letting the broker reach the caller (item 3).

A request commits first and enqueues after; if the broker is down (kombu's
``OperationalError`` and friends, a socket timeout) or, in eager mode, the task itself fails,
the failure is logged and the request still answers. Work that was not enqueued is found again
by the periodic job (``league.services.rounds.due_rounds``, ``notifications_resend``)."""

import logging

from django.db import transaction

log = logging.getLogger(__name__)


def enqueue(task, *args) -> bool:
    """``task.delay(*args)``; False (logged) when it could not be handed out or, run eagerly,
    failed."""
    try:
        task.delay(*args)
    except Exception:  # the broker's or the eager task's problem, never the caller's
        log.exception("Could not enqueue %s%r; the periodic job picks the work up later",
                      task.name, args)
        return False
    return True


def enqueue_on_commit(task, *args) -> None:
    """Enqueue ``task`` once the current transaction commits, never raising into the caller."""
    transaction.on_commit(lambda: enqueue(task, *args))
