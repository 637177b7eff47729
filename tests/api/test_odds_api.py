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
    # R-ODDS-1: at least 1,000 battles, at most those asked for; it says how many and why
    assert 1_000 <= data["simulations"] <= simulations
    assert data["stopped_early"] == (data["simulations"] < simulations)
    assert data["stop_reason"] in (("requested",) if data["simulations"] == simulations
                                   else ("precise", "work_budget"))
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


def test_r_odds_1_d6_space_preview_with_fewer_simulations(client):
    fleet = {"ships": [ship(datasheet=SHEET)]}
    captain = {"name": "Ackbar", "dice_system": "hull", "pip_system": "speed"}
    strong = {"ships": [ship(datasheet=dict(SHEET, gun_damage="5D", captain=captain))]}
    response = client.post(URL, body("d6_space", strong, fleet, simulations=2_000),
                           format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    check_preview(data, 2_000)
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
    (body(simulations=999), "simulations"),
    (body(simulations=10_001), "simulations"),
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


def test_item_5_one_preview_per_user_in_flight_is_429_naming_the_limit(client):
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


def test_item_5_the_site_runs_at_most_two_previews_at_once(client):
    from fleets.models import OddsPreviewSlot
    for slot in range(2):
        other = User.objects.create_user(f"other{slot}")
        OddsPreviewSlot.objects.create(slot=slot, user=other, user_slot=0)
    response = client.post(URL, body(), format="json")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "At most 2 naval odds previews may run at once" in response.json()["detail"]
    OddsPreviewSlot.objects.filter(slot=1).delete()
    assert client.post(URL, body(), format="json").status_code == 200


def test_item_5_a_maximal_preview_stops_early_and_says_so(client, settings):
    sheet = dict(SHEET, maneuver="10D", targeting="10D", gun_damage="10D", shields="10D",
                 hull="10D")
    crew = [{"name": f"c{k}", "cp": 200} for k in range(10)]
    fleet = {"ships": [ship(datasheet=sheet, crew=crew)] * 12}
    response = client.post(URL, body("d6_space", fleet, fleet), format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    check_preview(data, 10_000)
    assert data["stopped_early"] and data["stop_reason"] == "work_budget"
    assert data["half_width"] == max((high - low) / 2 for low, high in data["ci95"].values())


# --- R-ODDS-1: how many battles ran and why; no wall-clock stop ---------------------------------


def test_r_odds_1_the_answer_says_how_many_battles_ran_and_why(client):
    asked = client.post(URL, body(simulations=1_000), format="json").json()
    assert (asked["simulations"], asked["requested_simulations"]) == (1_000, 1_000)
    assert (asked["stop_reason"], asked["stopped_early"]) == ("requested", False)
    # one-sided: every interval within 1 percentage point long before 10,000 battles
    strong = {"ships": [ship(attack=6, defence=12)] * 3}
    weak = {"ships": [ship(attack=1, defence=1)]}
    precise = client.post(URL, body(attacker=strong, defender=weak), format="json").json()
    check_preview(precise, 10_000)
    assert precise["stop_reason"] == "precise" and precise["stopped_early"] is True
    assert 1_000 <= precise["simulations"] < 10_000 and precise["simulations"] % 100 == 0
    assert precise["half_width"] <= 0.01
    # the schema names the three reasons and nothing else
    schema = client.get("/api/schema/?format=json").json()
    reason = schema["components"]["schemas"]["OddsResult"]["properties"]["stop_reason"]
    assert "null" not in str(reason) and "time" not in str(reason)
    ref = next(part["$ref"] for part in [reason, *reason.get("allOf", [])] if "$ref" in part)
    enum = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"]
    assert set(enum) == {"requested", "precise", "work_budget"}


def test_r_odds_1_a_preview_has_no_wall_clock_stop(monkeypatch):
    """The same seed gives the same answer on an idle and on a loaded server: here the
    clock jumps an hour at every reading during the preview."""
    import time

    from fleets.services.odds import odds_preview_run
    user = User.objects.create_user("bo")
    sides = {"engine": "dark_force", "attacker": {"ships": [ship()], "stance": "approach"},
             "defender": {"ships": [ship()], "stance": "auto"}}
    idle = odds_preview_run(user=user, simulations=10_000, seed=5, **sides)
    readings = iter(range(0, 10**9, 3600))
    for name in ("monotonic", "perf_counter", "time", "process_time"):
        monkeypatch.setattr(time, name, lambda: float(next(readings)))
    loaded = odds_preview_run(user=user, simulations=10_000, seed=5, **sides)
    assert loaded == idle and loaded.stop_reason in ("requested", "precise")
    assert loaded.simulations >= 1_000
