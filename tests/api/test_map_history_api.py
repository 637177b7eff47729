"""GET /api/v1/campaigns/{id}/rounds/{n}/map/: the map as it stood when
round n closed and what changed in it; public facts only (R-FLT-7); readable like the map
(R-SEC-1); 409 ``round_open`` until the round closes."""

import pytest

from campaigns.models import RoundMap
from tests.module_world import module_world
from tests.worlds import HISTORY_SECRETS, api, build_history_world, play_history_rounds

pytestmark = pytest.mark.django_db


def _played():
    world = build_history_world()
    play_history_rounds(world)
    return world


played = module_world(_played)  # two rounds played once per module


def url(world, number: int) -> str:
    return world.lg.url(f"rounds/{number}/map/")


def test_round_2_answers_its_map_and_changes(played):
    lg, tiles, areas = played.lg, played.tiles, played.areas
    response = api(lg.c.user).get(url(played, 2))
    assert response.status_code == 200
    data = response.json()
    assert (data["round"], data["recorded"], data["basis"]) == (2, True, "previous")
    assert data["closed_at"]
    held = {tile["id"]: tile for tile in data["tiles"]}
    assert held[tiles["b-edge"].pk] == {"id": tiles["b-edge"].pk, "planet": played.alpha.pk,
                                        "q": 2, "r": 0, "name": "Hill 12", "owner": lg.a.pk,
                                        "markers": ["manufactorum"]}
    assert sorted(data["fleets"], key=lambda f: f["area"]) == [
        {"area": areas["coast"].pk, "owner": lg.b.pk, "ships": 1},
        {"area": areas["reaches"].pk, "owner": None, "ships": 1}]
    changes = data["changes"]
    assert changes["owners"] == [{"tile": tiles["b-edge"].pk, "from": lg.b.pk, "to": lg.a.pk}]
    assert changes["markers"] == [{"tile": tiles["a-home"].pk, "added": ["shield_generator"],
                                   "removed": []}]
    assert changes["fleets"] == [
        {"area": areas["ocean"].pk, "owner": lg.b.pk, "fleets_before": 1, "fleets_after": 0,
         "ships_before": 1, "ships_after": 0},
        {"area": areas["coast"].pk, "owner": lg.b.pk, "fleets_before": 0, "fleets_after": 1,
         "ships_before": 0, "ships_after": 1}]
    assert changes["tiles_added"] == changes["tiles_removed"] == []


def test_round_1_is_read_against_an_empty_map(played):
    data = api(played.lg.a.user).get(url(played, 1)).json()
    assert data["basis"] == "start"
    assert {c["from"] for c in data["changes"]["owners"]} == {None}
    assert len(data["changes"]["owners"]) == 4


def test_unrecorded_rounds_say_so(played):
    RoundMap.objects.filter(round__campaign=played.campaign, round__number=1).delete()
    old = api(played.lg.a.user).get(url(played, 1)).json()
    assert (old["recorded"], old["basis"], old["tiles"], old["fleets"], old["changes"]) == (
        False, None, None, None, None)
    later = api(played.lg.a.user).get(url(played, 2)).json()
    assert later["recorded"] and later["basis"] == "unrecorded" and later["changes"] is None


def test_open_round_is_409_and_missing_round_404(played):
    response = api(played.lg.a.user).get(url(played, 3))
    assert response.status_code == 409 and response.json()["code"] == "round_open"
    assert api(played.lg.a.user).get(url(played, 7)).status_code == 404


def test_r_sec_1_private_history_is_404_for_strangers_public_open_to_all(played, outsider):
    for user in (None, outsider):
        assert api(user).get(url(played, 2)).status_code == 404
        assert api(user).get(played.lg.url("map/")).status_code == 404
    public = build_history_world("public")
    play_history_rounds(public, rounds=1)
    for user in (None, outsider):
        assert api(user).get(url(public, 1)).status_code == 200


def test_r_flt_7_no_hidden_fleet_or_hazard_even_for_the_owner(played):
    for user in (played.lg.b.user, played.lg.admin, played.lg.a.user):
        for number in (1, 2):
            text = api(user).get(url(played, number)).content.decode()
            assert not [word for word in HISTORY_SECRETS if word in text]


def test_the_schema_describes_the_endpoint():
    schema = api().get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/campaigns/{campaign_id}/rounds/{number}/map/"]["get"]
    assert {"200", "404", "409"} <= set(operation["responses"])
    component = schema["components"]["schemas"]["RoundMap"]
    assert {"round", "recorded", "basis", "tiles", "fleets", "changes"} <= set(
        component["properties"])
    owners = schema["components"]["schemas"]["OwnerChange"]["properties"]
    assert set(owners) == {"tile", "from", "to"}
