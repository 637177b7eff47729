"""The mail outbox: every mail of ``campaigns.mail`` (invitations, join mails, password
resets, e-mail change confirmations, round alerts, webhook notices) goes through here.

A request (or job) renders the mail for its recipient and writes an ``OutboxMail`` row in its
own transaction (``mail_outbox_add``); after commit, ``campaigns.tasks.send_outbox_mail``
sends it on the Celery queue "outbox" (``CELERY_TASK_ROUTES``), so neither a slow mail server
nor a slow broker reaches the request, and mail never takes a round job's place. A broker that
cannot take the task, or a mail server that fails (each attempt bounded by ``EMAIL_TIMEOUT``),
loses nothing: the row stays, and the periodic job (``mail_outbox_send``, every minute) hands
what is due to the task again, backing off (``campaigns.tasks.mail_backoff``) and giving up,
logged, after ``GIVE_UP_AFTER``.

[decision] At least once, at most twice: a task claims a row (pushes ``due_at`` by ``LEASE``,
longer than the task's hard time limit) before sending and records it right after. A worker
that dies between the two sends that mail again once the lease ends.

[decision] Without a broker (eager mode, ``make run``) the task runs in-process right after
commit, as every task does there: a mail server that never answers delays that request by one
attempt (``EMAIL_TIMEOUT``), never more; the clock's tick retries. Production (``REDIS_URL``
and a worker for the "outbox" queue) never sends inside a request.

Battle notifications keep their own outbox (``battles.services.notifications``): its rows are
the record of what a player was told (once per event, switches respected) and are sent on the
same queue with the same timeout."""

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from campaigns.enqueue import enqueue_on_commit
from campaigns.mail import deliver
from campaigns.models import OutboxMail

log = logging.getLogger(__name__)
LEASE = timedelta(minutes=5)  # above the send task's hard time limit (60 s)
GIVE_UP_AFTER = timedelta(days=1)
PER_MINUTE = 50  # due mails the periodic job hands out per run ...
PER_TASK = 10  # ... in tasks of this many: each stays well inside its time limit


def _task():
    from campaigns.tasks import send_outbox_mail  # the task module imports this one

    return send_outbox_mail


@transaction.atomic
def mail_outbox_add(*, mails: Iterable[Sequence], now: datetime | None = None) -> list[int]:
    """Queue rendered mails - (subject, body, address[, headers]) each - in the caller's
    transaction; the sending task takes them after commit. Returns the rows' ids."""
    now = now or timezone.now()
    rows = OutboxMail.objects.bulk_create([_row(mail, now) for mail in mails])
    ids = [row.pk for row in rows]
    if ids:
        enqueue_on_commit(_task(), ids)
    return ids


def _row(mail: Sequence, now: datetime) -> OutboxMail:
    subject, body, address = mail[:3]
    headers = mail[3] if len(mail) > 3 else None
    return OutboxMail(subject=subject[:255], body=body, to=address,
                      headers=dict(headers or {}), created_at=now, due_at=now)


def _pending():
    return OutboxMail.objects.filter(sent_at__isnull=True, gave_up_at__isnull=True)


def _claim(pk: int, now: datetime) -> OutboxMail | None:
    """The row, pushed by ``LEASE`` so no other task sends it meanwhile; None when it is
    sent, given up, not due, or a twin task holds it."""
    with transaction.atomic():
        row = _pending().select_for_update(skip_locked=True).filter(
            pk=pk, due_at__lte=now).first()
        if row is not None:
            row.due_at = now + LEASE
            row.save(update_fields=["due_at"])
        return row


def _failed(row: OutboxMail, exc: BaseException, now: datetime) -> None:
    """Keep the row for a retry with backoff, or give up on it after ``GIVE_UP_AFTER``."""
    from campaigns.tasks import mail_backoff

    row.attempts += 1
    row.last_error = f"{type(exc).__name__}: {exc}"[:300]
    row.due_at = now + timedelta(seconds=mail_backoff(row.attempts - 1))
    fields = ["attempts", "last_error", "due_at"]
    if now - row.created_at >= GIVE_UP_AFTER:
        row.gave_up_at = now
        fields.append("gave_up_at")
        log.error("Gave up on mail %s to %s after %s attempts: %s", row.pk, row.to,
                  row.attempts, row.last_error)
    else:
        log.warning("Mail %s to %s failed (attempt %s), retried later: %s", row.pk, row.to,
                    row.attempts, row.last_error)
    OutboxMail.objects.filter(pk=row.pk).update(**{f: getattr(row, f) for f in fields})


def mail_outbox_deliver(*, ids: Iterable[int], now: datetime | None = None) -> int:
    """The task's service: send each due row, recording it right after. The first failure
    (the server down or silent, or the task's soft time limit) ends the batch: that row backs
    off, the rest stay due for the periodic job. Returns how many were sent."""
    sent = 0
    for pk in ids:
        # a task that waited in the queue claims with the real clock (tests drive it forward)
        when = max(now, timezone.now()) if now else timezone.now()
        row = _claim(pk, when)
        if row is None:
            continue
        try:
            deliver(row.subject, row.body, row.to, headers=row.headers)
        except Exception as exc:  # the mail server's problem, never the caller's
            _failed(row, exc, when)
            break
        OutboxMail.objects.filter(pk=pk).update(sent_at=timezone.now())
        sent += 1
    return sent


def mail_outbox_send(*, now: datetime) -> list[int]:
    """The periodic job's part: give up (logged) on mail older than ``GIVE_UP_AFTER`` that
    never went out, and hand what is due to the sending task after this step commits."""
    stale = _pending().filter(created_at__lt=now - GIVE_UP_AFTER)
    for pk, address, attempts in stale.values_list("pk", "to", "attempts"):
        log.error("Gave up on mail %s to %s after %s attempts", pk, address, attempts)
    stale.update(gave_up_at=now)
    ids = list(_pending().filter(due_at__lte=now).order_by("due_at", "pk")
               .values_list("pk", flat=True)[:PER_MINUTE])
    for start in range(0, len(ids), PER_TASK):
        enqueue_on_commit(_task(), ids[start:start + PER_TASK], now.isoformat())
    return ids
