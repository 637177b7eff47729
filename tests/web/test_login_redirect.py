"""A logged-out reader of a campaign page they may not see (R-SEC-1) is sent to the login page
with ``next`` back to it, the same for a private campaign as for a missing one (nothing tells
them apart); after logging in they land on the page. A signed-in outsider still gets 404, and
the API keeps answering 404."""

import re
from urllib.parse import quote

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.worlds import api, client_for

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse 42"  # tests/factories.py
MISSING = 999999


def _login_url(path: str) -> str:
    return f"{reverse('login')}?next={quote(path)}"


def test_private_and_missing_campaigns_redirect_alike(page_world):
    private = page_world.url("battles/")
    missing = private.replace(f"/{page_world.campaign.pk}/", f"/{MISSING}/")
    answers = [client_for().get(path) for path in (private, missing)]
    assert [a.status_code for a in answers] == [302, 302]
    assert [a["Location"] for a in answers] == [_login_url(private), _login_url(missing)]


def test_a_public_campaign_stays_readable_logged_out(public_page_world):
    assert client_for().get(public_page_world.url()).status_code == 200


def test_a_signed_in_outsider_still_gets_404(page_world, outsider):
    client = client_for(outsider)
    assert client.get(page_world.url()).status_code == 404
    assert client.get(f"/campaigns/{MISSING}/").status_code == 404


def test_the_api_still_answers_404(page_world):
    answer = api().get(f"/api/v1/campaigns/{page_world.campaign.pk}/")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("application/json")


def test_after_logging_in_the_reader_lands_on_the_page(page_world):
    page = page_world.url("standings/")
    client = Client()
    login_page = client.get(client.get(page)["Location"])
    assert login_page.status_code == 200
    html = login_page.content.decode()
    assert f'name="next" value="{page}"' in html
    assert f"{reverse('signup')}?next={page}" in html  # sign-up keeps it
    answer = client.post(reverse("login"), {"username": page_world.lg.a.user.username,
                                            "password": PASSWORD, "next": page})
    assert answer.status_code == 302 and answer["Location"] == page
    assert client.get(page).status_code == 200


def test_login_ignores_a_next_on_another_site(page_world):
    answer = Client().post(reverse("login"), {"username": page_world.lg.a.user.username,
                                              "password": PASSWORD,
                                              "next": "https://evil.example/campaigns/1/"})
    assert answer.status_code == 302 and answer["Location"] == "/"


def test_sign_up_from_the_redirect_lands_on_the_page(public_page_world, settings,
                                                     django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = True
    page = public_page_world.url("standings/")
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("signup"), {
            "username": "newcomer", "email": "new@example.org", "password1": PASSWORD,
            "password2": PASSWORD, "language": "en", "time_zone": "UTC", "next": page})
    (message,) = mail.outbox  # the link that finishes the sign-up, opened in this browser
    answer = client.post(re.search(r"/accounts/signup/confirm/\S+/", message.body)[0])
    assert answer.status_code == 302 and answer["Location"] == page
