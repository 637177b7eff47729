"""Sessions at scale: a password change ends the member's other sessions through the session
auth hash, without reading anyone else's session; the periodic job deletes expired sessions
in bounded batches and keeps the live ones."""

import time
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.services import accounts
from campaigns.services.accounts import sessions_clear_expired
from league.phases import EVERY_MINUTE

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse 42"  # tests/factories.py
NEW_PASSWORD = "a much longer secret 9"
MANY = 50_000


def logged_in(user) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def sessions_of_someone_else(count: int, *, expire_date) -> None:
    data = SessionStore().encode({"_auth_user_id": "999999"})
    Session.objects.bulk_create(
        [Session(session_key=f"other{i:035d}", session_data=data, expire_date=expire_date)
         for i in range(count)], batch_size=5_000)


def test_password_change_reads_no_other_members_session(outsider, monkeypatch):
    here, elsewhere = logged_in(outsider), logged_in(outsider)
    sessions_of_someone_else(MANY, expire_date=timezone.now() + timedelta(days=7))
    decoded = []
    real = SessionBase.decode

    def decode(self, session_data):
        data = real(self, session_data)
        decoded.append(data.get("_auth_user_id"))
        return data

    monkeypatch.setattr(SessionBase, "decode", decode)
    started = time.monotonic()
    response = here.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    took = time.monotonic() - started
    assert response.status_code == 302
    assert took < 1.0, took
    assert set(decoded) <= {str(outsider.pk)}  # only this member's own session
    assert here.get(reverse("profile")).status_code == 200  # this browser stays logged in
    assert elsewhere.get(reverse("profile")).status_code == 302  # the other one is out


def test_the_periodic_job_deletes_expired_sessions_in_batches(monkeypatch):
    assert sessions_clear_expired in EVERY_MINUTE
    now = timezone.now()
    sessions_of_someone_else(25, expire_date=now - timedelta(seconds=1))
    live = SessionStore()
    live["_auth_user_id"] = "1"
    live.create()
    monkeypatch.setattr(accounts, "SESSIONS_CLEAR_BATCH", 10)
    assert sessions_clear_expired(now=now) == 10  # one bounded batch a minute
    assert Session.objects.count() == 16
    sessions_clear_expired(now=now)
    sessions_clear_expired(now=now)
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
    assert sessions_clear_expired(now=now) == 0
