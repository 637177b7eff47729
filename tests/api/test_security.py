"""Brute-force lockout, throttling, password policy and the production deploy check."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
GOOD = "correct horse 42"


@pytest.fixture
def ada():
    return User.objects.create_user("ada", password=GOOD)


def token(client, password, username="ada"):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password},
                       format="json")


def test_token_endpoint_locks_after_repeated_failures(ada, settings, caplog):
    client = APIClient()
    with caplog.at_level(logging.WARNING, logger="axes"):
        for _ in range(settings.AXES_FAILURE_LIMIT):
            assert token(client, "wrong").status_code == 400
    assert any("login failure" in r.getMessage() for r in caplog.records)  # logged
    locked = token(client, GOOD)
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out" and "Too many failed logins" in \
        locked.json()["detail"]
    # another account from the same address is not locked (account + address)
    User.objects.create_user("bea", password=GOOD)
    assert token(client, GOOD, "bea").status_code == 200
    AccessAttempt.objects.all().delete()  # what the admin's unlock does
    assert token(client, GOOD).status_code == 200


def test_login_page_locks_with_a_clear_message(ada, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page = client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
        assert page.status_code in (200, 429)
    locked = client.post("/accounts/login/", {"username": "ada", "password": GOOD})
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert "_auth_user_id" not in client.session


def test_admin_can_unlock_in_the_admin(ada, client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    admin = User.objects.create_superuser("root", password=GOOD)
    client.force_login(admin)
    listing = client.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and b"ada" in listing.content


def test_token_endpoint_is_throttled_with_retry_after(ada):
    client = APIClient()
    answers = [token(client, GOOD).status_code for _ in range(11)]
    assert answers[:10] == [200] * 10
    throttled = token(client, GOOD)
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0


@pytest.mark.parametrize("password", ["short1!", "password123", "1234567890123"])
def test_password_policy_rejects_weak_passwords(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_password_policy_accepts_a_long_uncommon_one():
    validate_password("violet-harbour-71-lantern")


def test_production_settings_pass_the_deploy_check():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.production",
           "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-0123456789",
           "ALLOWED_HOSTS": "feldzug.example.org"}
    env.pop("DEBUG", None)
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level",
                           "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


# --- failed logins per address: refused before the password is hashed ---------------------------

@pytest.fixture
def hashes(monkeypatch):
    """Counts the password hasher's runs: checking a user's password, and the dummy hash
    Django's backend makes for an unknown username (so both cost the same time)."""
    from django.contrib.auth import base_user

    calls = []
    for name in ("check_password", "make_password"):
        real = getattr(base_user, name)
        monkeypatch.setattr(base_user, name, lambda *a, _real=real, **k: (
            calls.append(1), _real(*a, **k))[1])
    return calls


def test_many_failures_from_one_address_refuse_it_before_hashing(ada, client, settings,
                                                                   hashes):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    assert limit > settings.AXES_FAILURE_LIMIT
    for i in range(limit + 1):  # a new made-up username each time: no account is locked
        client.post("/accounts/login/", {"username": f"nobody{i}", "password": "wrong"})
    assert len(hashes) == limit  # the attempt past the limit was refused unhashed
    hashes.clear()
    refused = client.post("/accounts/login/", {"username": "ada", "password": GOOD})
    assert refused.status_code == 429 and b"Too many failed logins" in refused.content
    assert "_auth_user_id" not in client.session and hashes == []
    api = token(APIClient(), GOOD)  # the token endpoint, the same address
    assert api.status_code == 429 and api.json()["code"] == "locked_out" and hashes == []
    # another address logs in as usual
    assert Client(REMOTE_ADDR="10.0.0.2").post(
        "/accounts/login/", {"username": "ada", "password": GOOD}).status_code == 302
    assert token(APIClient(REMOTE_ADDR="10.0.0.2"), GOOD).status_code == 200


def test_the_account_lock_still_holds_below_the_address_limit(ada, settings):
    client = Client(REMOTE_ADDR="10.0.0.3")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "ada", "password": GOOD}
                       ).status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.4").post(
        "/accounts/login/", {"username": "ada", "password": GOOD}).status_code == 302
