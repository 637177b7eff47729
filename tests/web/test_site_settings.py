"""The site's address learned from staff's requests and used by every absolute link (mail,
invitation links, the news feed, webhook payloads, calendar addresses); the site settings
page (staff only, English and German)."""

import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.services.feeds import calendar_token_of
from campaigns import site
from campaigns.models import SiteSettings, WebhookDelivery
from campaigns.services.events import event_emit
from campaigns.services.site import site_settings_update
from campaigns.services.webhooks import webhook_create
from tests.factories import UserFactory
from tests.worlds import api, client_for, make_league

pytestmark = pytest.mark.django_db
CLUB = "club.example.org"
T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
PAGE = "/site/settings/"


@pytest.fixture
def unset(settings):
    """No address configured; the club's host name accepted."""
    settings.SITE_URL = ""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, CLUB]
    return settings


@pytest.fixture
def staff():
    return UserFactory(username="keeper", is_staff=True)


def _visit(user, secure=True, path="/"):
    return client_for(user).get(path, HTTP_HOST=CLUB, secure=secure)


# --- learning ---------------------------------------------------------------------------------

def test_learned_from_a_staff_request_not_from_others(unset, staff, outsider):
    assert _visit(None).status_code == 200
    _visit(outsider)
    assert site.site_url() == site.DEFAULT_URL and not SiteSettings.objects.exists()
    _visit(staff)
    assert site.site_url() == f"https://{CLUB}"
    row = SiteSettings.objects.get(pk=1)
    assert (row.site_url, row.site_url_learned) == (f"https://{CLUB}", True)


def test_staff_api_calls_teach_nothing(unset, staff):
    api(staff).get("/api/v1/me/", HTTP_HOST=CLUB)
    assert site.site_url() == site.DEFAULT_URL


def test_a_typed_or_configured_address_is_not_learned_over(unset, staff):
    site_settings_update(by=staff, values={"site_url": "https://typed.example.org"})
    _visit(staff)
    assert site.site_url() == "https://typed.example.org"
    unset.SITE_URL = "https://configured.example.org"
    site_settings_update(by=staff, values={"site_url": ""})
    _visit(staff)
    assert not SiteSettings.objects.get(pk=1).site_url  # nothing learned while configured
    assert site.site_url() == "https://configured.example.org"


def test_a_known_address_costs_no_query(unset, staff):
    client = client_for(staff)
    client.get("/", HTTP_HOST=CLUB, secure=True)  # learns it
    client.get("/", HTTP_HOST=CLUB, secure=True)  # reads it once after the change
    with CaptureQueriesContext(connection) as queries:
        client.get("/", HTTP_HOST=CLUB, secure=True)
    assert not [q for q in queries.captured_queries if "sitesettings" in q["sql"].lower()]


# --- every kind of absolute link --------------------------------------------------------------

@pytest.fixture
def learned(unset, staff):
    _visit(staff)
    assert site.site_url() == f"https://{CLUB}"
    return f"https://{CLUB}"


def test_password_reset_mail_links_the_learned_address(learned, outsider,
                                                      django_capture_on_commit_callbacks):
    outsider.email = "out@example.org"
    outsider.save()
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends after commit
        client_for().post(reverse("password_reset"), {"email": "out@example.org"})
    (message,) = mail.outbox
    assert re.search(re.escape(learned) + r"/accounts/reset/\S+/", message.body)


def test_invitation_link_on_the_members_page(learned):
    lg = make_league()
    page = client_for(lg.admin).post(
        reverse("campaigns:manage-invite-link", args=[lg.campaign.pk]), {"max_uses": "2"},
        follow=True).content.decode()
    assert f"{learned}/invite/" in page


def test_news_feed_links_the_learned_address(learned):
    lg = make_league(visibility="public")
    event_emit(campaign=lg.campaign, kind="round_closed", key="closed:1", audience="public",
               now=T0, facts={"round": 1, "standings": [], "map_changes": []})
    feed = client_for().get(f"/campaigns/{lg.campaign.pk}/feed.atom").content.decode()
    assert f'href="{learned}/campaigns/{lg.campaign.pk}/"' in feed


def test_webhook_payload_links_the_learned_address(learned, staff):
    site_settings_update(by=staff, values={"webhooks_allow_private": True})  # no network here
    lg = make_league()
    webhook_create(campaign=lg.campaign, by=lg.admin, now=T0,
                   values={"url": "http://127.0.0.1:9/hook", "kind": "json",
                           "events": ["round_closed"]})
    event_emit(campaign=lg.campaign, kind="round_closed", key="closed:1", audience="public",
               now=T0, facts={"round": 1, "standings": [], "map_changes": []})
    delivery = WebhookDelivery.objects.get()
    assert delivery.payload["campaign"]["url"] == f"{learned}/campaigns/{lg.campaign.pk}/"


def test_calendar_addresses_use_the_learned_address(learned):
    lg = make_league()
    page = client_for(lg.a.user).post(f"/campaigns/{lg.campaign.pk}/battles/calendar/",
                                      {"show": "1"}).content.decode()
    token = calendar_token_of(user=lg.a.user, now=T0).token
    assert f"{learned}/api/v1/me/calendar.ics?token={token}" in page
    assert f"{learned}/campaigns/{lg.campaign.pk}/feed.atom?token={token}" in page
    answer = api(lg.a.user).get("/api/v1/me/calendar-token/")
    assert answer.json()["url"] == f"{learned}/api/v1/me/calendar.ics?token={token}"


# --- the settings page ------------------------------------------------------------------------

def test_the_page_is_for_staff_only(unset, outsider):
    anonymous = client_for().get(PAGE)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert client_for(outsider).get(PAGE).status_code == 403
    assert client_for(outsider).post(PAGE, {"site_url": "https://evil.example"}).status_code \
        == 403
    assert not SiteSettings.objects.filter(site_url__contains="evil").exists()


def test_staff_see_the_page_linked_from_the_menu_in_english_and_german(unset, staff, outsider):
    home = client_for(staff).get("/").content.decode()
    assert f'href="{PAGE}"' in home
    assert f'href="{PAGE}"' not in client_for(outsider).get("/").content.decode()
    english = client_for(staff).get(PAGE, HTTP_HOST=CLUB).content.decode()
    assert "Site settings" in english and "blocked" in english
    # the visit itself taught the address, and the page already shows it
    assert f"<code class=\"hash\" data-site-address>http://{CLUB}</code>" in english
    assert "The site took this address" in english
    german = client_for(staff).get(PAGE, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Seiteneinstellungen" in german and "Webhooks an private Adressen" in german


def test_staff_type_an_address_and_switch_private_webhooks_on(unset, staff):
    client = client_for(staff)
    saved = client.post(PAGE, {"site_url": "https://Feldzug.Example.org/",
                               "webhooks_allow_private": "on"})
    assert saved.status_code == 302
    assert site.site_url() == "https://feldzug.example.org"
    assert site.webhooks_allow_private() is True
    page = client.get(PAGE, HTTP_HOST=CLUB).content.decode()
    assert "You typed this address in" in page
    assert site.site_url() == "https://feldzug.example.org"  # the visit taught nothing
    client.post(PAGE, {"site_url": ""})  # switch off, address emptied: learning again
    assert site.webhooks_allow_private() is False
    assert site.site_url() == site.DEFAULT_URL


def test_a_bad_address_is_shown_next_to_the_field_in_german(unset, staff):
    client = client_for(staff)
    refused = client.post(PAGE, {"site_url": "https://x.org/feldzug"},
                          HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 400 and "ohne Pfad" in refused.content.decode()
    english = client.post(PAGE, {"site_url": "feldzug"})
    assert english.status_code == 400 and "without a path" in english.content.decode()
    assert site.site_url() == site.DEFAULT_URL


def test_configured_settings_show_locked(unset, staff):
    unset.SITE_URL = "https://configured.example.org"
    unset.WEBHOOKS_ALLOW_PRIVATE = True
    client = client_for(staff)
    page = client.get(PAGE).content.decode()
    assert "https://configured.example.org" in page and "cannot be changed here" in page
    assert "cannot turn that off" in page
    assert re.search(r'<input[^>]*name="webhooks_allow_private"[^>]*disabled', page)
    client.post(PAGE, {"site_url": "https://other.example.org"})  # disabled: ignored
    assert site.site_url() == "https://configured.example.org"
    assert SiteSettings.objects.get(pk=1).site_url == ""
