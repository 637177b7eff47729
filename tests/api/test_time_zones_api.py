"""Time zones in the API: a campaign has a time zone (read by anyone who may see it, set
by staff on create and by the campaign admin on PATCH, checked by the campaign service with a
clear 400); every datetime the API answers stays ISO-8601 UTC, whoever asks."""

from datetime import UTC, datetime

import pytest

from campaigns.models import Campaign, Round
from campaigns.services.accounts import profile_update
from tests.factories import UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db

URL = "/api/v1/campaigns/"


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


def test_a_campaign_is_created_with_a_time_zone(staff, settings):
    response = api(staff).post(URL, {"name": "Liga", "time_zone": "Europe/Berlin"},
                               format="json")
    assert response.status_code == 201, response.content
    assert response.json()["time_zone"] == "Europe/Berlin"
    assert Campaign.objects.get(pk=response.json()["id"]).time_zone == "Europe/Berlin"
    plain = api(staff).post(URL, {"name": "Ohne"}, format="json").json()
    assert plain["time_zone"] == settings.CAMPAIGN_TIME_ZONE


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../etc/passwd", "", "localtime"])
def test_an_unknown_zone_is_a_clear_400(staff, zone):
    response = api(staff).post(URL, {"name": "Liga", "time_zone": zone}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "time_zone" in body["errors"], body
    assert not Campaign.objects.filter(name="Liga").exists()


def test_the_admin_changes_the_zone_others_may_not(league):
    url = league.url("")
    assert api(league.a.user).get(url).json()["time_zone"] == "UTC"
    refused = api(league.a.user).patch(url, {"time_zone": "Europe/Berlin"}, format="json")
    assert refused.status_code == 403
    done = api(league.admin).patch(url, {"time_zone": "Europe/Berlin"}, format="json")
    assert done.status_code == 200 and done.json()["time_zone"] == "Europe/Berlin"
    bad = api(league.admin).patch(url, {"time_zone": "Europe/Atlantis"}, format="json")
    assert bad.status_code == 400 and "IANA" in bad.json()["errors"]["time_zone"][0]
    league.campaign.refresh_from_db()
    assert league.campaign.time_zone == "Europe/Berlin"


def test_api_datetimes_stay_utc_whatever_the_caller_s_zone(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(time_zone="Asia/Tokyo")
    profile_update(user=league.a.user, time_zone="Europe/Berlin")
    rnd = league.start()
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=datetime(2026, 10, 26, 19, 0,
                                                                   tzinfo=UTC))
    body = api(league.a.user).get(league.url(f"rounds/{rnd.number}/")).json()
    assert body["phase_deadline"] in ("2026-10-26T19:00:00Z", "2026-10-26T19:00:00+00:00")
    current = api(league.a.user).get(league.url("")).json()["current_round"]
    assert current["phase_deadline"] == body["phase_deadline"]
