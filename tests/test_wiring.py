"""The foundation runs on the real services: PostgreSQL, Redis, a Celery worker."""

import os
import uuid
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.utils import timezone

from campaigns.models import JobRun
from campaigns.services.clock import clock_beat_record
from campaigns.tasks import ping
from config import health
from config.celery import app as celery_app

IN_CI = bool(os.environ.get("CI"))


def test_database_is_postgresql_in_ci(db):
    if IN_CI:
        assert connection.vendor == "postgresql"
    else:
        assert connection.vendor in {"postgresql", "sqlite"}


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_runs_a_task_that_writes_a_row():
    if not settings.REDIS_URL:
        if IN_CI:
            pytest.fail("CI must run with REDIS_URL set")
        pytest.skip("REDIS_URL is unset: tasks run eagerly, no worker to start")
    key = uuid.uuid4().hex
    with start_worker(celery_app, perform_ping_check=False, shutdown_timeout=20):
        pk = ping.delay(key).get(timeout=30)
    assert JobRun.objects.get(pk=pk).key == key


def test_tasks_run_eagerly_in_tests_without_worker(db):
    assert ping.delay("eager").get(timeout=5) == JobRun.objects.get(key="eager").pk


def test_healthz_reports_both_services(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    expected_broker = "ok" if settings.REDIS_URL else "eager"
    assert response.json() == {"database": "ok", "broker": expected_broker, "clock": "never",
                               "clock_last_ran_at": None}


def test_healthz_reports_when_the_clock_last_ran_and_stays_200_when_late(client, db):
    """R-RND-2: "ok" under 3 minutes after the last heartbeat, "late" after; a late clock is
    reported, not a 503 (restarting the web server would not start the clock)."""
    ran = timezone.now() - timedelta(seconds=40)
    clock_beat_record(name="in-process", due_rounds=0, now=ran)
    body = client.get("/healthz").json()
    assert (body["clock"], body["clock_last_ran_at"]) == ("ok", ran.isoformat())
    clock_beat_record(name="in-process", due_rounds=0, now=ran - timedelta(minutes=3))
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["clock"] == "late"


def test_healthz_names_a_broker_that_is_down(client, db, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "down", "clock": "never",
                               "clock_last_ran_at": None}


def test_healthz_names_a_database_that_is_down(client, db, monkeypatch):
    class Unreachable:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr(health, "connection", Unreachable())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"
    assert response.json()["clock"] == "unknown"  # nothing to read it from


def test_token_auth_round_trip(client, db):
    User.objects.create_user("ada", password="correct horse 42")
    bad = client.post("/api/v1/auth/token/", {"username": "ada", "password": "nope"},
                      content_type="application/json")
    assert bad.status_code == 400
    token = client.post("/api/v1/auth/token/", {"username": "ada", "password": "correct horse 42"},
                        content_type="application/json").json()["token"]
    assert client.get("/api/v1/me/").status_code == 401
    me = client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.status_code == 200 and me.json()["username"] == "ada"
    wrong = client.get("/api/v1/me/", HTTP_AUTHORIZATION="Token not-a-token")
    assert wrong.status_code == 401


def test_login_page_logs_in_and_redirects_home(client, db):
    User.objects.create_user("bea", password="correct horse 42")
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and b'<html lang="en">' in page.content
    response = client.post("/accounts/login/", {"username": "bea", "password": "correct horse 42"})
    assert response.status_code == 302 and response["Location"] == "/"
    home = client.get("/")
    assert b"bea" in home.content
    out = client.post("/accounts/logout/")
    assert out.status_code == 302 and out["Location"] == "/"
    assert b"bea" not in client.get("/").content


def test_pages_carry_the_active_language(client, db):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de")
    assert b'<html lang="de">' in page.content


def test_schema_and_docs_are_served(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/v1/auth/token/" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200


def test_admin_login_page_is_served(client, db):
    assert client.get("/admin/login/").status_code == 200
