"""POST /api/v1/odds/naval/ (R-ODDS-1, API.md "Fleets and naval battles"): authentication,
strict validation in the API's error shape, and the shape of a preview."""

import math

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
URL = "/api/v1/odds/naval/"
SHEET = {"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "3D+1",
         "shields": "2D", "hull": "3D"}


def ship(**extra):
    return {"id": 7, "name": "Seeadler", "class": "Fregatte", "attack": 4, "defence": 6,
            "agility": 3, "capacity": 1, "cargo": [{"name": "Garde", "points": 250}],
            "crew": [{"name": "Kapitän", "cp": 12}], "datasheet": None, **extra}


def body(engine="dark_force", attacker=None, defender=None, **extra):
    return {"engine": engine, "attacker": attacker or {"ships": [ship()], "stance": "approach"},
            "defender": defender or {"ships": [ship()], "stance": "auto"}, **extra}


@pytest.fixture
def client():
    user = User.objects.create_user("ada", password="correct horse 42")
    api = APIClient()
    token = api.post("/api/v1/auth/token/", {"username": "ada", "password": "correct horse 42"},
                     format="json").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api.user = user
    return api


def test_anonymous_gets_401_in_the_error_shape():
    response = APIClient().post(URL, body(), format="json")
    assert response.status_code == 401
    assert set(response.json()) == {"detail", "code", "errors"}


def check_preview(data, simulations):
    assert set(data) == {"simulations", "attacker_wins", "defender_wins", "undecided", "ci95",
                         "requested_simulations", "stopped_early", "stop_reason", "half_width"}
    assert data["requested_simulations"] == simulations
    # issue 14 item 5: a preview may fight fewer battles than asked, saying so and why
    assert 0 < data["simulations"] <= simulations
    assert data["stopped_early"] == (data["simulations"] < simulations)
    assert data["stop_reason"] in ((None,) if data["simulations"] == simulations
                                   else ("budget", "precision", "time_limit"))
    names = ("attacker_wins", "defender_wins", "undecided")
    assert math.isclose(sum(data[name] for name in names), 1.0, abs_tol=1e-9)
    assert set(data["ci95"]) == set(names)
    for name in names:
        low, high = data["ci95"][name]
        assert 0 <= low <= data[name] <= high <= 1


def test_r_odds_1_dark_force_preview(client):
    response = client.post(URL, body(), format="json")
    assert response.status_code == 200, response.content
    check_preview(response.json(), 10_000)


def test_r_odds_1_d6_space_preview_with_more_simulations(client):
    fleet = {"ships": [ship(datasheet=SHEET)]}
    captain = {"name": "Ackbar", "dice_system": "hull", "pip_system": "speed"}
    strong = {"ships": [ship(datasheet=dict(SHEET, gun_damage="5D", captain=captain))]}
    response = client.post(URL, body("d6_space", strong, fleet, simulations=12_000),
                           format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    check_preview(data, 12_000)
    assert data["attacker_wins"] > data["defender_wins"]


def too_many():
    return {"ships": [ship()] * 13}  # a preview takes at most 12 ships a side


@pytest.mark.parametrize(("request_body", "field"), [
    (body("x-wing"), "engine"),
    ({"attacker": {"ships": [ship()]}, "defender": {"ships": [ship()]}}, "engine"),
    (body("d6_space"), "attacker.ships[0].datasheet"),
    (body("d6_space", {"ships": [ship(datasheet=SHEET)]}), "defender.ships[0].datasheet"),
    (body(attacker=too_many()), "attacker.ships"),
    (body(defender={"ships": []}), "defender.ships"),
    (body(defender={"ships": "a frigate"}), "defender.ships"),
    (body(attacker=[ship()]), "attacker.non_field_errors"),
    (body(simulations=9_999), "simulations"),
    (body(simulations=20_001), "simulations"),
    (body(simulations="many"), "simulations"),
    (body(simulations=10**400), "simulations"),
    (body(attacker={"ships": [ship(attack="four")]}), "attacker.ships[0].attack"),
    (body(attacker={"ships": [ship(attack=4.5)]}), "attacker.ships[0].attack"),
    (body(attacker={"ships": [ship(attack=51)]}), "attacker.ships[0].attack"),
    (body(attacker={"ships": [ship(defence=0)]}), "attacker.ships[0].defence"),
    (body(attacker={"ships": [{"name": "bare"}]}), "attacker.ships[0].attack"),
    (body(attacker={"ships": [ship(name="x" * 81)]}), "attacker.ships[0].name"),
    (body(attacker={"ships": [ship(crew=[{"name": "x", "cp": -1}])]}),
     "attacker.ships[0].crew[0].cp"),
    (body(attacker={"ships": [ship(crew=[{"name": "x", "cp": 6}] * 11)]}),
     "attacker.ships[0].crew"),
    (body(attacker={"ships": [ship(cargo=[{"name": "x"}])]}),
     "attacker.ships[0].cargo[0].points"),
    (body(attacker={"ships": [ship(warp=9)]}), "attacker.ships[0].warp"),
    (body(attacker={"ships": [ship()], "stance": "ram"}), "attacker.stance"),
    (body(attacker={"ships": [ship()], "stance": ["hold"]}), "attacker.stance"),
    (body(attacker={"ships": [ship(datasheet=dict(SHEET, hull="0D+2"))]}),
     "attacker.ships[0].datasheet.hull"),
    (body(attacker={"ships": [ship(datasheet=dict(SHEET, shields="lots"))]}),
     "attacker.ships[0].datasheet.shields"),
    (body(attacker={"ships": [ship(datasheet=dict(SHEET, shields="999999D"))]}),
     "attacker.ships[0].datasheet.shields"),
    (body(attacker={"ships": [ship(datasheet=dict(SHEET, shields="2D+" + "1" * 30))]}),
     "attacker.ships[0].datasheet.shields"),
    (body(attacker={"ships": [ship(datasheet=dict(SHEET, speed=101))]}),
     "attacker.ships[0].datasheet.speed"),
    (body(attacker={"ships": [ship(datasheet=dict(
        SHEET, captain={"dice_system": "hull", "pip_system": "hull"}))]}),
     "attacker.ships[0].datasheet.captain.non_field_errors"),
    (body(unexpected=True), "unexpected"),
])
def test_invalid_requests_are_400_naming_the_field(client, request_body, field):
    response = client.post(URL, request_body, format="json")
    assert response.status_code == 400, response.content
    data = response.json()
    assert set(data) == {"detail", "code", "errors"}
    assert field in data["errors"], data["errors"]


def test_rule_codes_name_the_rule_broken(client):
    low = client.post(URL, body(simulations=100), format="json").json()
    assert low["code"] == "R-ODDS-1"
    no_sheet = client.post(URL, body("d6_space"), format="json").json()
    assert no_sheet["code"] == "R-SPC-1" and "d6_space" in no_sheet["detail"]


@pytest.mark.parametrize("raw", ["null", "[]", '"fleet"', "{", '{"engine": 1e999}'])
def test_malformed_json_is_400(client, raw):
    response = client.generic("POST", URL, raw, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"detail", "code", "errors"}


def test_odds_requests_are_throttled(client, settings):
    for _ in range(10):  # invalid ones count too and cost nothing to fight
        assert client.post(URL, {}, format="json").status_code == 400
    throttled = client.post(URL, body(), format="json")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0


def test_issue_14_item_5_one_preview_per_user_in_flight_is_429_naming_the_limit(client):
    from fleets.models import OddsPreviewSlot
    OddsPreviewSlot.objects.create(slot=0, user=client.user, user_slot=0)  # one running
    response = client.post(URL, body(), format="json")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    data = response.json()
    assert data["code"] == "throttled" and "At most 1 naval odds preview per user" in \
        data["detail"] and "R-ODDS-1" in data["detail"]
    # a slot left by a request that died is taken over after a while
    from django.utils import timezone
    OddsPreviewSlot.objects.update(started_at=timezone.now() - timezone.timedelta(minutes=5))
    assert client.post(URL, body(), format="json").status_code == 200
    assert not OddsPreviewSlot.objects.exists()  # released when the preview ends


def test_issue_14_item_5_the_site_runs_at_most_two_previews_at_once(client):
    from fleets.models import OddsPreviewSlot
    for slot in range(2):
        other = User.objects.create_user(f"other{slot}")
        OddsPreviewSlot.objects.create(slot=slot, user=other, user_slot=0)
    response = client.post(URL, body(), format="json")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "At most 2 naval odds previews may run at once" in response.json()["detail"]
    OddsPreviewSlot.objects.filter(slot=1).delete()
    assert client.post(URL, body(), format="json").status_code == 200


def test_issue_14_item_5_a_maximal_preview_stops_early_and_says_so(client, settings):
    sheet = dict(SHEET, maneuver="10D", targeting="10D", gun_damage="10D", shields="10D",
                 hull="10D")
    crew = [{"name": f"c{k}", "cp": 200} for k in range(10)]
    fleet = {"ships": [ship(datasheet=sheet, crew=crew)] * 12}
    response = client.post(URL, body("d6_space", fleet, fleet, simulations=20_000),
                           format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    check_preview(data, 20_000)
    assert data["stopped_early"] and data["stop_reason"] in ("budget", "time_limit")
    assert data["half_width"] == max((high - low) / 2 for low, high in data["ci95"].values())
