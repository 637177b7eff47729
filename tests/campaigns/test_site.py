"""The site's address and switches (``campaigns.site``, ``campaigns.services.site``): the
configured address wins, then the typed one, then the learned one, then the default; staff
alone change them, with refusals naming the field in English and German; the private-webhook
switch takes effect at once."""

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from campaigns import outbound, site
from campaigns.errors import DomainError
from campaigns.mail import absolute
from campaigns.models import SiteSettings
from campaigns.services.site import site_settings_update, site_url_learn
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return UserFactory(username="keeper", is_staff=True)


@pytest.fixture
def unset(settings):
    settings.SITE_URL = ""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    return settings


def test_default_until_anything_is_known(unset):
    assert site.site_url() == site.DEFAULT_URL == "http://127.0.0.1:8000"
    assert absolute("/x/") == "http://127.0.0.1:8000/x/"


def test_the_configured_address_wins_over_a_typed_one(unset, staff):
    site_settings_update(by=staff, values={"site_url": "https://typed.example.org"})
    assert site.site_url() == "https://typed.example.org"
    unset.SITE_URL = "https://configured.example.org"
    assert site.site_url() == "https://configured.example.org"
    assert absolute("/invite/t/") == "https://configured.example.org/invite/t/"


def test_a_typed_address_is_normalised_and_stops_learning(unset, staff):
    site_settings_update(by=staff, values={"site_url": " HTTPS://Club.Example.org:8443/ "})
    row = SiteSettings.objects.get(pk=1)
    assert (row.site_url, row.site_url_learned) == ("https://club.example.org:8443", False)
    assert site_url_learn(url="http://localhost:8000") is False
    assert site.site_url() == "https://club.example.org:8443"
    # emptied: the site learns again
    site_settings_update(by=staff, values={"site_url": ""})
    assert site.site_url() == site.DEFAULT_URL
    assert site_url_learn(url="http://feldzug-pi:8000") is True
    assert site.site_url() == "http://feldzug-pi:8000"
    assert SiteSettings.objects.get(pk=1).site_url_learned is True


def test_learning_writes_only_when_the_address_changes(unset):
    assert site_url_learn(url="http://a.example.org") is True
    assert site_url_learn(url="http://a.example.org") is False
    assert site_url_learn(url="https://b.example.org") is True
    assert site.site_url() == "https://b.example.org"


@pytest.mark.parametrize("typed", ["ftp://x.org", "https://x.org/feldzug", "x.org",
                                   "https://x.org?a=1", "https://user@x.org", "https://-x-/",
                                   "http://x.org:99999", 42])
def test_a_bad_address_is_refused_naming_the_field(unset, staff, typed):
    with pytest.raises(DomainError) as refused:
        site_settings_update(by=staff, values={"site_url": typed})
    assert refused.value.field == "site_url"
    assert not SiteSettings.objects.filter(site_url__gt="").exists()


def test_refusals_in_german(unset, staff):
    with translation.override("de"), pytest.raises(DomainError) as refused:
        site_settings_update(by=staff, values={"site_url": "https://x.org/pfad"})
    assert "ohne Pfad" in refused.value.message
    with translation.override("de"), pytest.raises(DomainError) as switch:
        site_settings_update(by=staff, values={"webhooks_allow_private": "yes"})
    assert switch.value.field == "webhooks_allow_private" and "Sag true" in switch.value.message


def test_only_staff_change_the_settings(unset, outsider):
    with pytest.raises(PermissionDenied):
        site_settings_update(by=outsider, values={"webhooks_allow_private": True})
    superuser = UserFactory(username="root2", is_superuser=True)
    site_settings_update(by=superuser, values={"webhooks_allow_private": True})
    assert SiteSettings.objects.get(pk=1).webhooks_allow_private is True


def test_private_webhook_switch_takes_effect_without_restart(unset, staff):
    with pytest.raises(outbound.Refused, match="site settings page"):
        outbound.check_url("http://127.0.0.1:9/hook")
    site.stored()  # remembered in this process: the switch must still apply at once
    site_settings_update(by=staff, values={"webhooks_allow_private": True})
    outbound.check_url("http://127.0.0.1:9/hook")  # allowed now
    site_settings_update(by=staff, values={"webhooks_allow_private": False})
    with pytest.raises(outbound.Refused):
        outbound.check_url("http://127.0.0.1:9/hook")
    # the configuration allows them whatever the switch says
    unset.WEBHOOKS_ALLOW_PRIVATE = True
    outbound.check_url("http://127.0.0.1:9/hook")


def test_webhook_refusal_in_german_names_the_settings_page(unset):
    with translation.override("de"), pytest.raises(outbound.Refused) as refused:
        outbound.check_url("http://10.1.2.3/hook")
    text = str(refused.value)
    assert "lokalen Netz" in text and "Seiteneinstellungen" in text
    assert "WEBHOOKS_ALLOW_PRIVATE" not in text and "issue" not in text.lower()
