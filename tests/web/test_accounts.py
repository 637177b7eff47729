"""Account pages, in English and German: sign-up (open, closed,
closed but on the way to an invitation), styled and linked password reset and change (both
revoke the API token and other sessions), the profile page (language switches the UI, time
zone, notification switches), e-mail change only after the confirmation link, API token
rotation, personal data download, and deleting an account (the seat stays as "former
member")."""

import json
import re
from datetime import timedelta

import pytest
from django import conf
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from battles.services.notifications import preferences_of
from campaigns.models import PendingSignup, Player
from campaigns.services.accounts import profile_of, signups_clear_expired
from tests.worlds import client_for

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "correct horse 42"  # tests/factories.py
NEW_PASSWORD = "a much longer secret 9"


def german(client: Client) -> Client:
    client.cookies["django_language"] = "de"
    return client


def logged_in(user) -> Client:
    """A client that logged in through the login page (a real session)."""
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, response.content[:300]
    return client


def token_works(key: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get(reverse("api:me")).status_code == 200


def signup_data(**extra) -> dict:
    return {"username": "nina", "email": "nina@example.org", "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD, "language": "", "time_zone": "Europe/Berlin", **extra}


def signed_up(client: Client, capture, url: str | None = None, **extra):
    """Sign up with ``client`` and open the mailed link in it: the answer of its button."""
    with capture(execute=True):
        sent = client.post(url or reverse("signup"), signup_data(**extra))
    assert sent.status_code == 200 and "Check your inbox" in sent.content.decode()
    (message,) = [m for m in mail.outbox if m.to == [signup_data(**extra)["email"]]]
    link = re.search(re.escape(conf.settings.SITE_URL) + r"(/accounts/signup/confirm/\S+/)",
                     message.body)[1]
    return client.post(link)


# --- log in, sign up --------------------------------------------------------------------------

def test_login_page_links_to_password_reset_and_signup(db):
    for client, reset, signup in ((Client(), "Forgot your password?", "Sign up"),
                                  (german(Client()), "Passwort vergessen?", "Registrieren")):
        page = client.get(reverse("login")).content.decode()
        assert reverse("password_reset") in page and reset in page
        assert reverse("signup") in page and signup in page


def test_open_signup_creates_the_account_logs_in_and_follows_a_safe_next(
        db, settings, django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = True
    client = Client()
    assert client.get(reverse("signup")).status_code == 200
    response = signed_up(client, django_capture_on_commit_callbacks, next="/campaigns/1/")
    assert response.status_code == 302 and response["Location"] == "/campaigns/1/"
    nina = User.objects.get(username="nina")
    assert nina.email == "nina@example.org" and profile_of(nina).time_zone == "Europe/Berlin"
    assert client.get(reverse("profile")).status_code == 200  # logged in


def test_signup_ignores_a_next_on_another_site(db, settings,
                                               django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = True
    response = signed_up(Client(), django_capture_on_commit_callbacks,
                         next="https://evil.example/")
    assert response.status_code == 302 and response["Location"] == reverse("profile")


def test_signup_refuses_a_weak_password_and_a_taken_username(db, settings, outsider):
    settings.OPEN_SIGNUP = True
    weak = Client().post(reverse("signup"), signup_data(password1="12345", password2="12345"))
    assert weak.status_code == 400 and "password2" in weak.context["form"].errors
    taken = Client().post(reverse("signup"), signup_data(username="outsider"))
    assert taken.status_code == 400 and "username" in taken.context["form"].errors
    assert not User.objects.filter(username="nina").exists()


def test_closed_signup_says_invitation_only_in_english_and_german(db, settings):
    settings.OPEN_SIGNUP = False
    english = Client().get(reverse("signup"))
    assert english.status_code == 403 and "by invitation only" in english.content.decode()
    deutsch = german(Client()).get(reverse("signup"))
    assert deutsch.status_code == 403 and "nur mit Einladung" in deutsch.content.decode()
    refused = Client().post(reverse("signup"), signup_data())
    assert refused.status_code == 403 and not User.objects.filter(username="nina").exists()


def test_closed_signup_still_lets_an_invitee_sign_up(db, settings,
                                                     django_capture_on_commit_callbacks):
    """The invitation page (/invite/<token>/) sends visitors here with ``next``."""
    settings.OPEN_SIGNUP = False
    url = reverse("signup") + "?next=/invite/abc123/"
    page = Client().get(url)
    assert page.status_code == 200 and 'value="/invite/abc123/"' in page.content.decode()
    response = signed_up(Client(), django_capture_on_commit_callbacks, next="/invite/abc123/")
    assert response.status_code == 302 and response["Location"] == "/invite/abc123/"
    assert User.objects.filter(username="nina").exists()


def test_signup_is_throttled(db, settings, monkeypatch):
    settings.OPEN_SIGNUP = True
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "account": "2/min"})
    client = Client()
    statuses = [client.post(reverse("signup"), signup_data(password2="mismatch")).status_code
                for _ in range(3)]
    assert statuses == [400, 400, 429]


def test_signup_refuses_a_locked_out_username(db, settings):
    from axes.models import AccessAttempt

    settings.OPEN_SIGNUP = True
    AccessAttempt.objects.create(username="nina", ip_address="127.0.0.1",
                                 failures_since_start=settings.AXES_FAILURE_LIMIT,
                                 user_agent="", get_data="", post_data="", http_accept="",
                                 path_info="")
    response = Client().post(reverse("signup"), signup_data())
    assert response.status_code == 429 and not User.objects.filter(username="nina").exists()


# --- passwords --------------------------------------------------------------------------------

def test_password_change_revokes_the_api_token_and_other_sessions(outsider):
    key = Token.objects.create(user=outsider).key
    here, elsewhere = logged_in(outsider), logged_in(outsider)
    page = here.get(reverse("password_change"))
    assert page.status_code == 200 and b"Feldzug" in page.content
    response = here.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert here.get(reverse("profile")).status_code == 200  # this browser stays logged in
    assert elsewhere.get(reverse("profile")).status_code == 302  # the other one is out
    assert not token_works(key) and not Token.objects.filter(user=outsider).exists()


def test_password_change_with_a_wrong_password_changes_nothing(outsider):
    key = Token.objects.create(user=outsider).key
    client = logged_in(outsider)
    response = client.post(reverse("password_change"), {
        "old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 200 and "old_password" in response.context["form"].errors
    assert token_works(key)


def test_password_reset_is_the_sites_page_and_revokes_the_token(
        outsider, django_capture_on_commit_callbacks):
    outsider.email = "out@example.org"
    outsider.save()
    key = Token.objects.create(user=outsider).key
    elsewhere = logged_in(outsider)
    for client, title in ((Client(), "Reset password"), (german(Client()),
                                                         "Passwort zurücksetzen")):
        page = client.get(reverse("password_reset")).content.decode()
        assert title in page and "Django" not in page and 'class="topbar"' in page
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends after commit
        Client().post(reverse("password_reset"), {"email": "out@example.org"})
    (message,) = mail.outbox
    link = re.search(re.escape(conf.settings.SITE_URL) + r"(/accounts/reset/\S+/)",
                     message.body)[1]
    client = Client()
    form_url = client.get(link)["Location"]  # Django swaps the token for a session marker
    page = client.get(form_url)
    assert page.status_code == 200 and 'class="topbar"' in page.content.decode()
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    outsider.refresh_from_db()
    assert outsider.check_password(NEW_PASSWORD)
    assert not token_works(key)
    assert elsewhere.get(reverse("profile")).status_code == 302


# --- the profile page -------------------------------------------------------------------------

def test_profile_needs_an_account(db):
    response = Client().get(reverse("profile"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_profile_page_in_english_and_german(page_world):
    anna = page_world.lg.a.user
    english = client_for(anna).get(reverse("profile")).content.decode()
    for text in ("Your profile", "Time zone", "E-mail notifications", "A phase opens",
                 "Download my data (JSON)", "Delete my account", "API token",
                 page_world.lg.campaign.name):
        assert text in english, text
    deutsch = german(client_for(anna)).get(reverse("profile")).content.decode()
    for text in ("Dein Profil", "Zeitzone", "E-Mail-Benachrichtigungen", "Eine Phase beginnt",
                 "Meine Daten herunterladen (JSON)", "Mein Konto löschen"):
        assert text in deutsch, text


def test_saving_the_language_switches_the_ui_and_login_restores_it(outsider):
    client = client_for(outsider)
    response = client.post(reverse("profile"), {"display_name": "Outi", "language": "de",
                                                "time_zone": "Europe/Berlin"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "de"
    assert "Dein Profil" in client.get(reverse("profile")).content.decode()
    profile = profile_of(outsider)
    assert (profile.display_name, profile.language, profile.time_zone) == (
        "Outi", "de", "Europe/Berlin")
    fresh = Client()
    login = fresh.post(reverse("login"), {"username": "outsider", "password": PASSWORD})
    assert login.cookies["django_language"].value == "de"
    assert "Dein Profil" in fresh.get(reverse("profile")).content.decode()


def test_profile_refuses_an_unknown_time_zone(outsider):
    response = client_for(outsider).post(reverse("profile"), {"time_zone": "Mars/Olympus"})
    assert response.status_code == 400 and profile_of(outsider).time_zone == ""


def test_notification_switches_are_saved_per_seat(page_world):
    anna = page_world.lg.a
    client = client_for(anna.user)
    prefix = f"n{anna.pk}"
    response = client.post(reverse("profile-notifications"), {
        "player": anna.pk, f"{prefix}-deadline_soon": "on", f"{prefix}-phase_opened": ""})
    assert response.status_code == 302
    prefs = preferences_of(anna)
    assert prefs["deadline_soon"] and not prefs["phase_opened"] and not prefs["dispute_raised"]


def test_another_players_notification_switches_cannot_be_set(page_world):
    ben = page_world.lg.b
    response = client_for(page_world.lg.a.user).post(
        reverse("profile-notifications"), {"player": ben.pk})
    assert response.status_code == 404 and all(preferences_of(ben).values())


def test_email_changes_only_after_the_mailed_link_is_opened(
        outsider, django_capture_on_commit_callbacks):
    outsider.email = "old@example.org"
    outsider.save()
    client = client_for(outsider)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("email-change"), {"email": "new@example.org",
                                                         "current_password": PASSWORD})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["new@example.org"]
    link = re.search(re.escape(conf.settings.SITE_URL) + r"(/accounts/email/confirm/\S+/)",
                     message.body)[1]
    outsider.refresh_from_db()
    assert outsider.email == "old@example.org"
    page = Client().get(link)  # any browser; GET changes nothing
    assert page.status_code == 200 and "new@example.org" in page.content.decode()
    outsider.refresh_from_db()
    assert outsider.email == "old@example.org"
    assert Client().post(link).status_code == 302
    outsider.refresh_from_db()
    assert outsider.email == "new@example.org"
    assert Client().post(link).status_code == 400  # used up


def test_rotating_the_api_token_shows_the_new_one_once(outsider):
    old = Token.objects.create(user=outsider).key
    client = client_for(outsider)
    assert client.post(reverse("token-rotate"), {"current_password": PASSWORD}
                       ).status_code == 302
    new = Token.objects.get(user=outsider).key
    assert new != old and not token_works(old) and token_works(new)
    assert new in client.get(reverse("profile")).content.decode()
    assert new not in client.get(reverse("profile")).content.decode()


def test_personal_data_download(page_world):
    response = client_for(page_world.lg.a.user).get(reverse("account-data"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "anna" and len(data["seats"]) == 1


# --- deleting an account ----------------------------------------------------------------------

def test_delete_needs_the_password_then_keeps_the_seat_as_former_member(page_world):
    lg = page_world.lg
    anna = lg.a.user
    client = logged_in(anna)
    wrong = client.post(reverse("account-delete"), {"password": "wrong"})
    assert wrong.status_code == 400
    anna.refresh_from_db()
    assert anna.is_active
    response = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 302  # logged out
    assert Player.objects.filter(pk=lg.a.pk, faction="Mechanicus").exists()
    viewer = client_for(lg.b.user)
    for rest in ("", "standings/"):
        page = viewer.get(page_world.url(rest)).content.decode()
        assert "Mechanicus" in page and "former member" in page and "anna" not in page
    deutsch = german(client_for(lg.b.user)).get(page_world.url("standings/")).content.decode()
    assert "ehemaliges Mitglied" in deutsch
    assert Client().post(reverse("login"), {"username": "anna", "password": PASSWORD}
                         ).status_code == 200  # no such login any more


def test_delete_page_in_german(outsider):
    page = german(client_for(outsider)).get(reverse("account-delete")).content.decode()
    assert "Konto löschen" in page and "ehemaliges Mitglied" in page


def test_wrong_passwords_on_the_delete_page_lock_the_account_like_the_login(outsider, settings):
    """The password confirmation goes through django-axes."""
    client = client_for(outsider)
    statuses = [client.post(reverse("account-delete"), {"password": "wrong"}).status_code
                for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses == [400] * (settings.AXES_FAILURE_LIMIT - 1) + [429]  # as on the login
    locked = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert locked.status_code == 429
    outsider.refresh_from_db()
    assert outsider.is_active


def test_password_reset_requests_are_throttled(outsider, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "account": "2/min"})
    client = Client()
    statuses = [client.post(reverse("password_reset"), {"email": "x@example.org"}).status_code
                for _ in range(3)]
    assert statuses == [302, 302, 429]


def test_the_top_bar_language_switcher_is_kept_in_the_profile(outsider):
    client = client_for(outsider)
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "de"
    assert profile_of(outsider).language == "de"
    fresh = Client()
    login = fresh.post(reverse("login"), {"username": "outsider", "password": PASSWORD})
    assert login.cookies["django_language"].value == "de"


def test_the_language_switcher_works_for_visitors_and_ignores_unknown_languages(outsider):
    assert Client().post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    client_for(outsider).post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert profile_of(outsider).language == ""


# --- accounts under attack: sign-up tells nothing about an address; changes ask the password ---

def _signup_answer(address: str, username: str, capture) -> tuple[int, str]:
    with capture(execute=True):
        response = Client().post(reverse("signup"), signup_data(username=username,
                                                                 email=address))
    page = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF", response.content.decode())  # masked each time
    return response.status_code, page.replace(address, "ADDRESS")


def test_signup_answers_alike_for_a_known_and_a_new_address(
        outsider, settings, django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = True
    outsider.email = "out@example.org"
    outsider.save()
    known = _signup_answer("out@example.org", "nina", django_capture_on_commit_callbacks)
    new = _signup_answer("new@example.org", "nora", django_capture_on_commit_callbacks)
    assert known == new and known[0] == 200 and "Check your inbox" in known[1]
    assert not User.objects.filter(username__in=["nina", "nora"]).exists()
    (to_owner,) = [m for m in mail.outbox if m.to == ["out@example.org"]]
    assert "someone tried to sign up" in to_owner.body.lower()
    assert reverse("password_reset") in to_owner.body
    (to_new,) = [m for m in mail.outbox if m.to == ["new@example.org"]]
    assert "/accounts/signup/confirm/" in to_new.body


def test_signup_finishes_from_the_mailed_link_in_any_browser(
        db, settings, django_capture_on_commit_callbacks):
    """A phone's mail app often opens the link in another browser than the one that signed
    up: the link alone finishes the sign-up, once."""
    settings.OPEN_SIGNUP = True
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(reverse("signup"), signup_data(next="/campaigns/1/"))
    (message,) = mail.outbox
    link = re.search(re.escape(conf.settings.SITE_URL) + r"(/accounts/signup/confirm/\S+/)",
                     message.body)[1]
    client = Client()  # another browser
    assert client.get(link).status_code == 200 and not User.objects.filter(
        username="nina").exists()  # GET changes nothing
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/campaigns/1/"
    nina = User.objects.get(username="nina")
    assert nina.email == "nina@example.org" and nina.check_password(NEW_PASSWORD)
    assert client.get(reverse("profile")).status_code == 200  # logged in
    assert client.post(link).status_code == 400  # used up: no second account
    assert User.objects.filter(email="nina@example.org").count() == 1


def test_a_pending_signup_keeps_no_password_and_expires(
        db, settings, django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = True
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(reverse("signup"), signup_data())
    (pending,) = PendingSignup.objects.all()
    token = re.search(r"/accounts/signup/confirm/(\S+)/", mail.outbox[0].body)[1]
    assert NEW_PASSWORD not in str(vars(pending)) and token not in str(vars(pending))
    later = pending.created_at + timedelta(seconds=settings.EMAIL_CHANGE_MAX_AGE + 1)
    assert signups_clear_expired(now=later - timedelta(seconds=2)) == 0
    assert signups_clear_expired(now=later) == 1
    assert Client().get(f"/accounts/signup/confirm/{token}/").status_code == 400


@pytest.mark.parametrize("password", [None, "wrong password 1"])
def test_email_change_needs_the_current_password(outsider, password):
    outsider.email = "old@example.org"
    outsider.save()
    body = {"email": "new@example.org"} | ({"current_password": password} if password else {})
    response = client_for(outsider).post(reverse("email-change"), body)
    assert response.status_code == 400
    assert "current_password" in response.context["email_form"].errors
    deutsch = german(client_for(outsider)).post(reverse("email-change"), body)
    assert deutsch.status_code == 400
    assert ("Dein Passwort war falsch." if password else "erforderlich") in str(
        deutsch.context["email_form"].errors["current_password"])
    assert mail.outbox == []
    outsider.refresh_from_db()
    assert outsider.email == "old@example.org"


@pytest.mark.parametrize("password", [None, "wrong password 1"])
def test_token_rotation_needs_the_current_password(outsider, password):
    old = Token.objects.create(user=outsider).key
    body = {"current_password": password} if password else {}
    response = client_for(outsider).post(reverse("token-rotate"), body)
    assert response.status_code == 400
    assert "current_password" in response.context["token_form"].errors
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    answer = api.post(reverse("api:token-rotate"), body, format="json")
    assert answer.status_code == 400 and "current_password" in answer.json()["errors"]
    assert token_works(old) and Token.objects.get(user=outsider).key == old
