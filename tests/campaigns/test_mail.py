"""The campaigns layer's mail (invitations, join requests) and the
account mails: the recipient's language and time zone, display names, absolute ``SITE_URL``
links to the page where they act, the settings link - and a mail server or broker that fails
never loses an invitation or a join request, nor sends it twice: the mail waits in the outbox
(``campaigns.services.outbox``) for the periodic job."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError

from campaigns.models import Campaign, Profile
from campaigns.services import invitations as services
from campaigns.services.outbox import mail_outbox_send
from campaigns.tasks import mail_backoff, send_mail, send_outbox_mail
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SITE = "https://feldzug.example"
SETTINGS_LINK = f"{SITE}/accounts/profile/#notifications"
EXPIRY = datetime(2027, 1, 15, 12, 0, tzinfo=UTC)  # 13:00 in Berlin, 07:00 in New York


@pytest.fixture
def lg(league, settings):
    settings.SITE_URL = SITE
    league.admin.email = "orga@example.org"
    league.admin.save()
    Profile.objects.create(user=league.admin, display_name="Die Orga", language="de",
                           time_zone="Europe/Berlin")
    return league


@pytest.fixture
def open_lg(lg):
    lg.campaign.visibility = Campaign.Visibility.PUBLIC
    lg.campaign.join_requests_open = True
    lg.campaign.save()
    return lg


def links(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


def test_invitation_to_a_known_german_account_in_german_and_berlin_time(
        lg, django_capture_on_commit_callbacks):
    known = UserFactory(username="bekannt", email="bekannt@example.org")
    Profile.objects.create(user=known, language="de", time_zone="Europe/Berlin",
                           display_name="Bea Bekannt")
    stranger_zone = "America/New_York"
    lg.campaign.time_zone = stranger_zone  # an address without account: the campaign's zone
    lg.campaign.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.invitations_create(campaign=lg.campaign, by=lg.admin, expires_at=EXPIRY,
                                    emails="bekannt@example.org, neu@example.org")
    german, english = (next(m for m in mail.outbox if m.to == [address])
                       for address in ("bekannt@example.org", "neu@example.org"))
    assert "Hallo Bea Bekannt," in german.body and "Die Orga lädt dich" in german.body
    assert "Fr. 15. Jan. 2027, 13:00 MEZ (Europe/Berlin)" in german.body
    assert "Die Orga invites you" in english.body and "Hello," in english.body
    assert f"Fri 15 Jan 2027, 07:00 EST ({stranger_zone})" in english.body
    for message in (german, english):
        assert links(message)[0].startswith(f"{SITE}/invite/")


def test_join_request_mails_name_people_and_link_where_they_act(
        open_lg, django_capture_on_commit_callbacks):
    asker = UserFactory(username="asker", email="asker@example.org")
    Profile.objects.create(user=asker, display_name="Alex Asker", language="en")
    with django_capture_on_commit_callbacks(execute=True):
        request = services.join_request_create(campaign=open_lg.campaign, user=asker,
                                               message="Ich spiele Orks.")
    (to_admin,) = mail.outbox
    assert to_admin.to == ["orga@example.org"] and "Alex Asker" in to_admin.subject
    assert "Hallo Die Orga," in to_admin.body  # the admin's language and display name
    assert links(to_admin) == [f"{SITE}/campaigns/{open_lg.campaign.pk}/manage/members/",
                               SETTINGS_LINK]
    with django_capture_on_commit_callbacks(execute=True):
        services.join_request_accept(join_request=request, by=open_lg.admin, faction="Orks")
    accepted = mail.outbox[-1]
    assert accepted.to == ["asker@example.org"] and "Hello Alex Asker," in accepted.body
    assert links(accepted) == [f"{SITE}/campaigns/{open_lg.campaign.pk}/", SETTINGS_LINK]


def test_a_declined_join_request_links_the_campaign_list(
        open_lg, django_capture_on_commit_callbacks):
    asker = UserFactory(username="asker", email="asker@example.org")
    request = services.join_request_create(campaign=open_lg.campaign, user=asker)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_request_decline(join_request=request, by=open_lg.admin)
    (declined,) = mail.outbox
    assert "Hello asker," in declined.body  # no display name: the username
    assert links(declined) == [f"{SITE}/", SETTINGS_LINK]


# --- point 5: nothing lost, nothing twice ------------------------------------------------------

class FlakySmtp:
    """The mail server refuses the calls numbered in ``failing`` (from 1), serves the rest;
    ``calls`` lists each call's recipients."""

    def __init__(self, failing=(1,)):
        self.failing, self.calls = set(failing), []


@pytest.fixture
def smtp(monkeypatch):
    real = EmailBackend.send_messages
    server = FlakySmtp()

    def flaky(backend, messages):
        server.calls.append(messages[0].to)
        if len(server.calls) in server.failing:
            raise ConnectionRefusedError("SMTP down")
        return real(backend, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    return server


def periodic_job(capture, minutes: int = 2) -> list[int]:
    """The periodic job's mail step, ``minutes`` from now (the first retry is due after 1)."""
    with capture(execute=True):
        return mail_outbox_send(now=timezone.now() + timedelta(minutes=minutes))


def test_an_smtp_failure_then_success_delivers_the_invitation_once(
        lg, smtp, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.invitations_create(campaign=lg.campaign, by=lg.admin, emails="neu@example.org")
    assert smtp.calls == [["neu@example.org"]] and mail.outbox == []  # kept for the retry
    assert len(periodic_job(django_capture_on_commit_callbacks)) == 1
    assert smtp.calls == [["neu@example.org"], ["neu@example.org"]]  # retried
    assert periodic_job(django_capture_on_commit_callbacks, minutes=60) == []
    assert [m.to for m in mail.outbox] == [["neu@example.org"]]  # delivered once


def test_a_retry_never_resends_to_addresses_already_served(
        smtp, django_capture_on_commit_callbacks):
    """A mail enqueued before the outbox existed (``campaigns.send_mail``) goes through it."""
    smtp.failing = {2}  # the second address fails once
    with django_capture_on_commit_callbacks(execute=True):
        send_mail.apply(args=("Subject", "Body", ["a@example.org", "b@example.org"]),
                        throw=True)
    periodic_job(django_capture_on_commit_callbacks)
    assert smtp.calls == [["a@example.org"], ["b@example.org"], ["b@example.org"]]
    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.org", "b@example.org"]


def test_retries_back_off():
    assert [mail_backoff(n) for n in range(4)] == [60, 120, 240, 480]
    assert mail_backoff(20) == 4 * 3600


def test_a_broker_that_is_down_does_not_lose_the_join_request_mail(
        open_lg, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setitem(send_outbox_mail.app.conf, "task_always_eager", False)

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    monkeypatch.setattr(send_outbox_mail, "delay", down)
    asker = UserFactory(username="asker", email="asker@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        services.join_request_create(campaign=open_lg.campaign, user=asker)
    assert mail.outbox == []  # waiting in the outbox
    monkeypatch.undo()  # the broker is back
    assert len(periodic_job(django_capture_on_commit_callbacks, minutes=0)) == 1
    assert [m.to for m in mail.outbox] == [["orga@example.org"]]


def test_a_mail_server_down_for_good_never_reaches_the_caller(
        lg, smtp, django_capture_on_commit_callbacks):
    smtp.failing = set(range(1, 100))
    with django_capture_on_commit_callbacks(execute=True):
        created = services.invitations_create(campaign=lg.campaign, by=lg.admin,
                                              emails="neu@example.org")
    assert len(created) == 1 and mail.outbox == []  # logged; the invitation stands
    assert len(smtp.calls) == 1  # tried once; the periodic job retries later, backing off


# --- account mails -----------------------------------------------------------------------------

def test_password_reset_mail_in_the_members_language_with_a_site_url_link(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post("/accounts/password_reset/", {"email": "orga@example.org"})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert "Passwort" in message.subject and "Hallo Die Orga," in message.body
    assert links(message)[0].startswith(f"{SITE}/accounts/reset/")


def test_email_change_mail_in_the_members_language_with_a_site_url_link(
        lg, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(lg.admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/accounts/profile/email/", {
            "email": "neu@example.org", "current_password": "correct horse 42"})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["neu@example.org"] and "Hallo Die Orga," in message.body
    assert links(message)[0].startswith(f"{SITE}/accounts/email/confirm/")
