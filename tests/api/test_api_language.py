"""The API's language (``api.authentication``, ``campaigns.languages``): its ``detail`` and
texts follow ``Accept-Language``, then the signed-in user's profile language (applied once DRF
has authenticated the token, inside the view), then the campaign's language, then the site's.
The campaign's language is in the campaign's answer, and its admin sets it."""

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns.models import Campaign, Profile
from tests.worlds import api

pytestmark = pytest.mark.django_db

ADMIN_ONLY_EN = "Only a campaign admin may do this."
ADMIN_ONLY_DE = "Das darf nur die Kampagnenleitung."


@pytest.fixture(autouse=True)
def _site_language_after():
    yield
    translation.deactivate()


def _token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _refusal(client, lg, **headers) -> str:
    """A player's edit of the campaign: 403 with the admin-only ``detail``."""
    answer = client.patch(f"/api/v1/campaigns/{lg.campaign.pk}/", {"name": "Mine"},
                          format="json", **headers)
    assert answer.status_code == 403, answer.content
    return answer.json()["detail"]


def test_a_token_user_with_a_german_profile_and_no_accept_language_gets_german(league):
    Profile.objects.create(user=league.a.user, language="de")
    client = _token_client(league.a.user)
    assert _refusal(client, league) == ADMIN_ONLY_DE
    answer = client.patch(f"/api/v1/campaigns/{league.campaign.pk}/", {"name": "x"},
                          format="json")
    assert answer["Content-Language"] == "de"


def test_accept_language_wins_over_the_profile(league):
    Profile.objects.create(user=league.a.user, language="de")
    client = _token_client(league.a.user)
    assert _refusal(client, league, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.8") == ADMIN_ONLY_EN
    Profile.objects.filter(user=league.a.user).update(language="en")
    assert _refusal(client, league, HTTP_ACCEPT_LANGUAGE="de") == ADMIN_ONLY_DE


def test_a_session_user_s_profile_counts_too(league):
    from django.test import Client

    Profile.objects.create(user=league.a.user, language="de")
    client = Client()
    client.force_login(league.a.user)
    answer = client.patch(f"/api/v1/campaigns/{league.campaign.pk}/", {"name": "x"},
                          content_type="application/json")
    assert answer.status_code == 403 and answer.json()["detail"] == ADMIN_ONLY_DE


def test_without_header_or_profile_the_campaign_s_language(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(language="de")
    client = _token_client(league.a.user)  # no profile at all
    assert _refusal(client, league) == ADMIN_ONLY_DE
    assert _refusal(client, league, HTTP_ACCEPT_LANGUAGE="en") == ADMIN_ONLY_EN
    Profile.objects.create(user=league.a.user, language="en")
    assert _refusal(client, league) == ADMIN_ONLY_EN


def test_an_anonymous_caller_gets_the_site_s_language_outside_a_campaign(league):
    answer = api().post("/api/v1/campaigns/", {"name": "x"}, format="json")
    assert answer.status_code == 401
    assert answer.json()["detail"] == "Authentication credentials were not provided."
    german = api().post("/api/v1/campaigns/", {"name": "x"}, format="json",
                        HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["detail"] == "Anmeldedaten fehlen."


def test_the_campaign_answer_shows_its_language_and_its_admin_sets_it(league):
    client = api(league.admin)
    url = f"/api/v1/campaigns/{league.campaign.pk}/"
    assert client.get(url).json()["language"] == settings.LANGUAGE_CODE
    changed = client.patch(url, {"language": "de"}, format="json")
    assert changed.status_code == 200 and changed.json()["language"] == "de"
    assert Campaign.objects.get(pk=league.campaign.pk).language == "de"
    refused = client.patch(url, {"language": "tlh"}, format="json")
    assert refused.status_code == 400 and "language" in refused.json()["errors"]


def test_staff_create_a_campaign_in_a_language(league):
    league.admin.is_staff = True
    league.admin.save()
    answer = api(league.admin).post("/api/v1/campaigns/", {"name": "Südmark", "language": "de"},
                                    format="json")
    assert answer.status_code == 201 and answer.json()["language"] == "de"
    plain = api(league.admin).post("/api/v1/campaigns/", {"name": "Plain"}, format="json")
    assert plain.json()["language"] == settings.LANGUAGE_CODE


def test_the_schema_shows_the_campaign_s_language(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out))
    schemas = yaml.safe_load(out.read_text())["components"]["schemas"]
    for name in ("Campaign", "CampaignCreateRequest", "PatchedCampaignUpdateRequest"):
        field = schemas[name]["properties"]["language"]
        assert "LanguageEnum" in str(field), (name, field)
    assert "language" in schemas["Campaign"]["required"]
    assert schemas["LanguageEnum"]["enum"] == [code for code, _name in settings.LANGUAGES]
