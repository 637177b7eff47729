"""GET/PATCH /api/v1/site/settings/: the site's address and the private-webhook switch, for
staff users only (401 without credentials, 403 for everyone else); refusals name the field,
in German too."""

import pytest

from campaigns import site
from tests.factories import UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db
URL = "/api/v1/site/settings/"


@pytest.fixture
def staff(settings):
    settings.SITE_URL = ""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    return UserFactory(username="keeper", is_staff=True)


def test_refused_to_all_but_staff(staff, outsider):
    assert api().get(URL).status_code == 401
    assert api().patch(URL, {"webhooks_allow_private": True}).status_code == 401
    assert api(outsider).get(URL).status_code == 403
    refused = api(outsider).patch(URL, {"webhooks_allow_private": True})
    assert refused.status_code == 403 and refused.json()["code"]
    assert site.webhooks_allow_private() is False


def test_staff_read_and_change_the_settings(staff):
    shown = api(staff).get(URL).json()
    assert shown["site_url"] == site.DEFAULT_URL and shown["site_url_source"] == "default"
    assert shown["webhooks_allow_private"] is False
    changed = api(staff).patch(URL, {"site_url": "https://Club.example.org",
                                     "webhooks_allow_private": True})
    assert changed.status_code == 200
    body = changed.json()
    assert (body["site_url"], body["site_url_source"], body["stored_site_url"]) == (
        "https://club.example.org", "typed", "https://club.example.org")
    assert body["webhooks_allow_private"] is body["webhooks_allow_private_switch"] is True
    assert site.webhooks_allow_private() is True


def test_the_configuration_wins_and_says_so(staff, settings):
    settings.SITE_URL = "https://configured.example.org"
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    body = api(staff).get(URL).json()
    assert (body["site_url"], body["site_url_source"]) == (
        "https://configured.example.org", "configuration")
    assert body["webhooks_allow_private"] is True and body["webhooks_allow_private_configured"]
    assert body["webhooks_allow_private_switch"] is False


@pytest.mark.parametrize("data, field", [({"site_url": "https://x.org/path"}, "site_url"),
                                         ({"site_url": "mailto:a@b.org"}, "site_url"),
                                         ({"site_url": "x" * 201}, "site_url"),
                                         ({"webhooks_allow_private": "maybe"},
                                          "webhooks_allow_private")])
def test_bad_values_are_400_naming_the_field(staff, data, field):
    answer = api(staff).patch(URL, data)
    assert answer.status_code == 400 and field in answer.json()["errors"]
    assert site.read_stored() == site.Stored()


def test_refusal_in_german(staff):
    answer = api(staff).patch(URL, {"site_url": "https://x.org/pfad"}, HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400 and "ohne Pfad" in answer.json()["errors"]["site_url"][0]
