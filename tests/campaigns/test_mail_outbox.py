"""A mail server that never answers must not take the site down: every mail goes through one
durable outbox (``campaigns.services.outbox``). A request only writes the outbox row and
enqueues its sending; the sending task gives up on a silent server within ``EMAIL_TIMEOUT`` and
keeps the row for a retry; the periodic job sends what is due once the server answers; a broker
that is down loses nothing; mail and webhook tasks run on their own queue ("outbox")."""

import logging
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import get_connection
from django.test import Client
from django.utils import timezone

from campaigns.models import OutboxMail
from campaigns.services.outbox import (
    GIVE_UP_AFTER,
    LEASE,
    mail_outbox_add,
    mail_outbox_deliver,
    mail_outbox_send,
)
from campaigns.tasks import send_outbox_mail
from config.celery import app as celery_app
from league.phases import EVERY_MINUTE
from tests.factories import UserFactory
from tests.mail_servers import silent_smtp as silent_smtp_server
from tests.test_redis_down import take_redis_down, timed

pytestmark = pytest.mark.django_db

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def silent_smtp(settings):
    with silent_smtp_server(settings) as accepted:
        yield accepted


@pytest.fixture
def member(db):
    return UserFactory(username="member", email="member@example.org")


def reset(client: Client | None = None):
    return (client or Client()).post("/accounts/password_reset/",
                                     {"email": "member@example.org"})


def test_mail_has_a_timeout_by_default():
    backend = get_connection("django.core.mail.backends.smtp.EmailBackend")
    assert backend.timeout is not None and 0 < backend.timeout <= 30


def test_password_reset_answers_at_once_and_only_queues_the_mail(
        member, silent_smtp, monkeypatch, django_capture_on_commit_callbacks):
    """Production (a broker and a worker): the request writes the row and enqueues, nothing
    more; the silent server is never asked."""
    enqueued = []  # what went to the broker: (task, arguments)
    monkeypatch.setattr("campaigns.enqueue.enqueue",
                        lambda task, *args: enqueued.append((task.name, args)))
    client = Client()
    client.get("/accounts/password_reset/")  # templates and URLs loaded: time the POST only
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        response = reset(client)
    assert time.monotonic() - started < 1.0  # the server's timeout is one second
    assert response.status_code == 302 and silent_smtp == []
    (row,) = OutboxMail.objects.all()
    assert row.to == "member@example.org" and row.sent_at is None
    assert "/accounts/reset/" in row.body
    assert enqueued == [("campaigns.send_outbox_mail", ([row.pk],))]


def test_the_send_task_gives_up_within_the_timeout_and_keeps_the_row(member, silent_smtp):
    (pk,) = mail_outbox_add(mails=[("Subject", "Body", "member@example.org")])
    started = time.monotonic()
    assert send_outbox_mail.apply(args=([pk],)).get() == 0
    assert time.monotonic() - started < 3.0  # the one-second timeout, not for ever
    row = OutboxMail.objects.get(pk=pk)
    assert row.sent_at is None and row.gave_up_at is None and row.attempts == 1
    assert row.due_at > timezone.now() and row.last_error


def test_the_periodic_step_sends_it_once_the_server_answers(
        member, silent_smtp, settings, django_capture_on_commit_callbacks):
    assert mail_outbox_send in EVERY_MINUTE
    (pk,) = mail_outbox_add(mails=[("Subject", "Body", "member@example.org")])
    mail_outbox_deliver(ids=[pk])  # the silent server: kept for the retry
    settings.EMAIL_BACKEND = LOCMEM  # the server answers again
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_outbox_send(now=now) == []  # not due yet: backing off
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_outbox_send(now=now + timedelta(minutes=2)) == [pk]
    assert [m.to for m in mail.outbox] == [["member@example.org"]]
    assert OutboxMail.objects.get(pk=pk).sent_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_outbox_send(now=now + timedelta(hours=1)) == []
    assert len(mail.outbox) == 1  # sent once


def test_in_eager_mode_a_silent_server_delays_the_request_only_by_the_timeout(
        member, silent_smtp, settings, django_capture_on_commit_callbacks):
    """Without a broker (``make run``) the task runs right after commit: one attempt, bounded
    by the timeout; the periodic job retries."""
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        response = reset()
    assert response.status_code == 302 and time.monotonic() - started < 3.0
    (row,) = OutboxMail.objects.all()
    assert row.sent_at is None and row.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_loses_no_mail(member, settings, monkeypatch, caplog):
    settings.EMAIL_BACKEND = LOCMEM
    take_redis_down(settings, monkeypatch)
    with caplog.at_level(logging.WARNING):
        response = timed(reset)
    assert response.status_code == 302
    (row,) = OutboxMail.objects.all()
    assert row.sent_at is None and mail.outbox == []
    assert any("Could not enqueue campaigns.send_outbox_mail" in r.getMessage()
               for r in caplog.records)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)  # the broker is back
    assert mail_outbox_send(now=timezone.now()) == [row.pk]
    row.refresh_from_db()
    assert row.sent_at is not None and [m.to for m in mail.outbox] == [["member@example.org"]]


def test_a_claimed_mail_is_not_sent_again_before_its_lease_ends(member, settings,
                                                                 monkeypatch):
    """A worker that dies after sending and before recording: the mail goes out a second time
    once the lease ends, never while another task may still be sending it."""
    settings.EMAIL_BACKEND = LOCMEM
    (pk,) = mail_outbox_add(mails=[("Subject", "Body", "member@example.org")])
    now = timezone.now()

    def dies_after_sending(*args, **kwargs):
        mail.outbox.append("sent")
        raise SystemExit  # the worker is gone before it records the mail

    monkeypatch.setattr("campaigns.services.outbox.deliver", dies_after_sending)
    with pytest.raises(SystemExit):
        mail_outbox_deliver(ids=[pk], now=now)
    monkeypatch.undo()
    assert mail_outbox_deliver(ids=[pk], now=now + LEASE - timedelta(seconds=1)) == 0
    assert mail_outbox_deliver(ids=[pk], now=now + LEASE + timedelta(seconds=1)) == 1
    assert mail_outbox_deliver(ids=[pk], now=now + 2 * LEASE) == 0
    assert len(mail.outbox) == 2  # at most twice


def test_mail_that_fails_for_a_day_is_given_up_and_logged(member, monkeypatch, caplog):
    (pk,) = mail_outbox_add(mails=[("Subject", "Body", "member@example.org")])

    def refused(*args, **kwargs):
        raise ConnectionRefusedError("SMTP down")

    monkeypatch.setattr("campaigns.services.outbox.deliver", refused)
    later = timezone.now() + GIVE_UP_AFTER + timedelta(minutes=1)
    with caplog.at_level(logging.ERROR):
        assert mail_outbox_deliver(ids=[pk], now=later) == 0
    row = OutboxMail.objects.get(pk=pk)
    assert row.gave_up_at is not None and row.sent_at is None
    assert any("member@example.org" in r.getMessage() for r in caplog.records)
    assert mail_outbox_send(now=later + timedelta(hours=5)) == []  # never tried again


def test_mail_never_attempted_for_a_day_is_given_up_by_the_periodic_job(member, caplog):
    (pk,) = mail_outbox_add(mails=[("Subject", "Body", "member@example.org")])
    with caplog.at_level(logging.ERROR):
        assert mail_outbox_send(now=timezone.now() + GIVE_UP_AFTER + timedelta(minutes=1)) \
            == []
    assert OutboxMail.objects.get(pk=pk).gave_up_at is not None
    assert any("member@example.org" in r.getMessage() for r in caplog.records)


# --- queues and time limits --------------------------------------------------------------------

OUTBOX_TASKS = ("campaigns.send_outbox_mail", "campaigns.send_mail",
                "campaigns.deliver_webhooks", "battles.send_notifications")
ROUND_TASKS = ("campaigns.advance_due_rounds", "campaigns.run_phase_job",
               "campaigns.run_due_round")


def queue_of(name: str) -> str:
    return celery_app.amqp.router.route({}, name, args=(), kwargs={})["queue"].name


def test_mail_and_webhook_tasks_run_on_the_outbox_queue_and_round_jobs_do_not():
    celery_app.loader.import_default_modules()
    for name in OUTBOX_TASKS:
        task = celery_app.tasks[name]
        assert queue_of(name) == "outbox", name
        assert (task.soft_time_limit, task.time_limit) == (30, 60), name
    for name in ROUND_TASKS:
        task = celery_app.tasks[name]
        assert queue_of(name) == "celery", name
        limits = (task.soft_time_limit or celery_app.conf.task_soft_time_limit,
                  task.time_limit or celery_app.conf.task_time_limit)
        assert limits == (1500, 1800), name
