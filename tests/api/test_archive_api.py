"""The campaign archive in the API: GET /campaigns/{id}/archive/ (admins), POST /campaigns/import/
(the JSON body; staff users as creating a campaign), POST
/campaigns/{id}/sandbox/ (admins), and ``is_sandbox``/``sandbox_of`` in the detail."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns.models import Campaign, Round
from tests.factories import UserFactory
from tests.worlds import advance_to, api, build_fleet_phase

pytestmark = pytest.mark.django_db


def _archive(lg) -> dict:
    response = api(lg.admin).get(f"/api/v1/campaigns/{lg.campaign.pk}/archive/")
    assert response.status_code == 200, response.content
    assert "attachment" in response["Content-Disposition"]
    return response.json()


def test_archive_is_for_admins_only():
    lg = build_fleet_phase().league
    assert _archive(lg)["version"] == 1
    assert api(lg.a.user).get(f"/api/v1/campaigns/{lg.campaign.pk}/archive/").status_code == 403
    assert api().get(f"/api/v1/campaigns/{lg.campaign.pk}/archive/").status_code == 401


def test_archive_in_bounded_queries(django_assert_max_num_queries):
    lg = build_fleet_phase().league
    with django_assert_max_num_queries(40):
        api(lg.admin).get(f"/api/v1/campaigns/{lg.campaign.pk}/archive/")


def test_import_takes_the_json_body_and_only_that():
    lg = build_fleet_phase().league
    document = _archive(lg)
    staff = UserFactory(username="staffer", is_staff=True)
    response = api(staff).post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["is_sandbox"] is False
    # named apart from its original and paused until the admin checked it
    assert response.json()["name"].startswith(f"{lg.campaign.name} (imported ")
    assert response.json()["paused"] is True and response.json()["pause_reason"]
    upload = SimpleUploadedFile("a.json", json.dumps(document).encode())
    response = api(staff).post("/api/v1/campaigns/import/", {"file": upload},
                               format="multipart")
    assert response.status_code == 415  # one media type per operation
    assert Campaign.objects.filter(admins=staff).count() == 1


@pytest.mark.parametrize("body", [{}, {"format": "feldzug-campaign", "version": 9}, []])
def test_a_bad_archive_is_a_400_naming_the_path(body):
    staff = UserFactory(username="staffer", is_staff=True)
    response = api(staff).post("/api/v1/campaigns/import/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]


def test_a_bad_field_deep_in_the_archive_is_named():
    lg = build_fleet_phase().league
    document = _archive(lg)
    document["map"]["fleets"][0]["ships"][0]["attack"] = 999
    staff = UserFactory(username="staffer", is_staff=True)
    response = api(staff).post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 400
    assert "map.fleets[0].ships[0].attack" in response.json()["errors"]
    junk = api(staff).generic("POST", "/api/v1/campaigns/import/", b"\xff\xfe",
                              content_type="application/json")
    assert junk.status_code == 400


def test_sandbox_in_the_api():
    lg = build_fleet_phase().league
    response = api(lg.admin).post(f"/api/v1/campaigns/{lg.campaign.pk}/sandbox/", {},
                                  format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["is_sandbox"] is True and data["sandbox_of"] == lg.campaign.pk
    assert data["visibility"] == "private"
    detail = api(lg.admin).get(f"/api/v1/campaigns/{data['id']}/").json()
    assert detail["is_sandbox"] is True
    assert api(lg.a.user).get(f"/api/v1/campaigns/{data['id']}/").status_code == 404
    assert api(lg.a.user).post(f"/api/v1/campaigns/{lg.campaign.pk}/sandbox/", {},
                               format="json").status_code == 403


def _tampered(document: dict, round_index: int, roll_index: int) -> dict:
    """The archive with one face of one logged draw changed (still a legal face)."""
    tampered = json.loads(json.dumps(document))
    roll = tampered["rounds"][round_index]["rolls"][roll_index]
    roll["faces"][0] = roll["faces"][0] % roll["sides"] + 1
    return tampered


def test_r_dice_3_import_refuses_a_dice_log_that_its_seed_does_not_give():
    sc = build_fleet_phase()
    advance_to(sc.rnd, Round.Phase.CLOSED)
    document = _archive(sc.league)
    rolls = document["rounds"][0]["rolls"]
    assert len(rolls) > 2 and document["rounds"][0]["server_seed"]
    staff = UserFactory(username="staffer", is_staff=True)
    tampered = _tampered(_tampered(document, 0, 2), 0, len(rolls) - 1)
    response = api(staff).post("/api/v1/campaigns/import/", tampered, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == ["rounds[0].rolls[2].faces"]  # the first draw that does not match
    message = errors["rounds[0].rolls[2].faces"][0]
    assert "Round 1" in message and f"draw {rolls[2]['counter']}" in message
    assert "R-DICE-3" in message
    assert not Campaign.objects.filter(admins=staff).exists()
    german = api(staff).post("/api/v1/campaigns/import/", tampered, format="json",
                             HTTP_ACCEPT_LANGUAGE="de")
    assert "Runde 1" in german.json()["errors"]["rounds[0].rolls[2].faces"][0]
    response = api(staff).post("/api/v1/campaigns/import/", document, format="json")
    assert response.status_code == 201, response.content
