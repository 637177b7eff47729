"""R-FLT-2, R-SPC-1, R-SEA-2 ship values and R-FLT-4, R-FLT-5, R-FLT-8 fleet orders: what
``rules/`` refuses is worded in the reader's language (``fleets.messages``), the rule id kept
in the text, wherever a person reads it: the fleet services and API, the map document import,
the odds API and the odds form. (The German assertions need the compiled catalogue.)"""

import pytest
from django.utils import translation

from campaigns.errors import RuleViolation
from fleets.messages import ORDER_TEXTS, SHIP_VALUE_TEXTS, order_text, ship_value_text
from fleets.services import fleets as fleet_services
from league.services.map_document import DocumentInvalid, parse
from rules.fleet_phase import disembark_error, embark_error, path_error, standing_orders_error
from rules.ship_values import (
    captain_problems,
    cargo_problems,
    crew_problems,
    datasheet_problems,
    hazard_problems,
    ship_problems,
)
from tests.worlds import api, client_for

SHEET = {"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "4D+1",
         "shields": "2D", "hull": "3D"}
GRAPH = {1: {2}, 2: {1, 3}, 3: {2}}


def _every_ship_value_problem():
    """At least one problem of every reason ``rules.ship_values`` gives."""
    return [
        *ship_problems({"name": " ", "class": "x" * 81, "attack": 51, "warp": 1}),
        *ship_problems({"capacity": 0, "cargo": [{"name": "A", "points": 1}]}),
        *ship_problems("Seeadler"), *ship_problems({}),
        *crew_problems("Loken"), *crew_problems([5]), *cargo_problems("Garde"),
        *datasheet_problems("fast"), *datasheet_problems({"maneuver": "2D"}),
        *datasheet_problems({**SHEET, "shields": 3, "targeting": "lots", "hull": "0D+2",
                             "gun_damage": "21D"}),
        *captain_problems({"dice_system": "speed", "pip_system": "hull"}),
        *captain_problems({"dice_system": "hull", "pip_system": "hull"}),
        *hazard_problems({"agility": 8}),
    ]


def _every_order_error():
    return [
        path_error(1, [2, 3], GRAPH, 1), path_error(1, [9], GRAPH, None),
        path_error(1, [2, 1], GRAPH, None), path_error(1, [2, 3, 2], GRAPH, None),
        path_error(1, [3], GRAPH, None),
        standing_orders_error({"stance": "charge"}, []),
        standing_orders_error({"benefits": "abc"}, []),
        standing_orders_error({"benefits": ["a", "e"]}, []),
        standing_orders_error({"benefits": ["a", "a"]}, []),
        standing_orders_error({"line": "1 2"}, [1, 2]),
        standing_orders_error({"line": [1]}, [1, 2]),
        embark_error(area_kind="ocean", borders_own_tile=True, capacity=1, aboard=0, points=1,
                     detachment_points=500),
        embark_error(area_kind="orbit", borders_own_tile=False, capacity=1, aboard=0,
                     points=1, detachment_points=500),
        embark_error(area_kind="orbit", borders_own_tile=True, capacity=1, aboard=0,
                     points=501, detachment_points=500),
        embark_error(area_kind="orbit", borders_own_tile=True, capacity=1, aboard=1,
                     points=1, detachment_points=500),
        disembark_error(area_kind="orbit", borders_own_tile=True, index=0, aboard=0),
        disembark_error(area_kind="orbit", borders_own_tile=True, index=3, aboard=2),
    ]


def test_r_flt_2_r_spc_1_every_ship_value_reason_is_worded_with_its_rule():
    problems = _every_ship_value_problem()
    assert {p.key for p in problems} == set(SHIP_VALUE_TEXTS)
    with translation.override("en"):
        for problem in problems:
            assert f"{problem.params['rule']})" in ship_value_text(problem), problem
    german = {p.key: p for p in problems}
    with translation.override("de"):
        assert ship_value_text(german["number"]) == \
            "erwartet eine ganze Zahl von 0 bis 50 (R-FLT-2)"
        assert ship_value_text(german["hull_dice"]) == \
            "ein Schiff beginnt mit mindestens 1D Rumpf (R-SPC-1, R-SPC-6)"
        assert ship_value_text(german["hazard_number"]).endswith("(R-SEA-2, R-FLT-2)")
        for problem in problems:
            assert ship_value_text(problem) != problem.message, problem


def test_r_flt_4_r_flt_5_r_flt_8_every_order_reason_is_worded_with_its_rule():
    errors = _every_order_error()
    assert {e.key for e in errors} == set(ORDER_TEXTS)
    with translation.override("en"):
        for error in errors:
            assert order_text(error).endswith(f"{error.rule})"), error
        assert order_text(path_error(1, [2, 3], GRAPH, 1)) == \
            "at most 1 move per round (max_fleet_moves, R-FLT-4)"
    with translation.override("de"):
        assert order_text(path_error(1, [3], GRAPH, None)) == \
            "Gebiet 3 grenzt nicht an Gebiet 1 (R-FLT-4)"
        assert order_text(errors[-1]) == \
            "das Schiff trägt 2 Abteilungen; gib einen Index von 0 bis 1 an (R-FLT-8)"
        for error in errors:
            assert not order_text(error).startswith(error.message), error


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", "expected a whole number from 0 to 50 (R-FLT-2)"),
    ("de", "erwartet eine ganze Zahl von 0 bis 50 (R-FLT-2)"),
])
def test_r_flt_2_a_ship_refused_by_the_fleet_service_is_worded(fleet_world, language, words):
    with translation.override(language), pytest.raises(RuleViolation) as refused:
        fleet_services.fleet_create(campaign=fleet_world.league.campaign, name="Armada",
                                    area=fleet_world.sea, owner=fleet_world.league.a,
                                    ships=[{"name": "Seeadler", "attack": 51}])
    assert refused.value.message == words
    assert (refused.value.code, refused.value.field) == ("R-FLT-2", "ships[0].attack")


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", "area {island} is not adjacent to area {coast} (R-FLT-4)"),
    ("de", "Gebiet {island} grenzt nicht an Gebiet {coast} (R-FLT-4)"),
])
def test_r_flt_4_the_api_answers_an_order_refusal_in_the_readers_language(fleet_world, language,
                                                                         words):
    response = api(fleet_world.league.a.user).put(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"),
        {"path": [fleet_world.island.pk]}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-FLT-4"
    assert body["detail"] == words.format(island=fleet_world.island.pk,
                                          coast=fleet_world.coast.pk)


@pytest.mark.django_db
def test_r_flt_8_the_fleets_page_words_a_full_ship_in_german(fleet_world):
    escort = fleet_world.anna_fleet.ships.get(name="Escort")
    escort.cargo = [{"name": "Full", "points": 500}]
    escort.save(update_fields=["cargo"])
    response = client_for(fleet_world.league.a.user).post(
        f"/campaigns/{fleet_world.league.campaign.pk}/fleets/{fleet_world.anna_fleet.pk}/embark/",
        {"ship": escort.pk, "name": "One too many", "points": 100}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert "das Schiff trägt schon 1 von 1 Abteilung, die es fasst (R-FLT-8)" \
        in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [
    ("en", "at most 20D and 20 pips either way (R-SPC-1)"),
    ("de", "höchstens 20D und 20 Augen in jede Richtung (R-SPC-1)"),
])
def test_r_spc_1_the_map_import_words_a_ship_problem(language, words):
    document = {"planets": [], "areas": [{"id": "s", "name": "Sea", "kind": "ocean"}],
                "fleets": [{"area": "s", "owner": 1, "ships": [
                    {"name": "Ghost", "datasheet": {**SHEET, "maneuver": "21D"}}]}]}
    with translation.override(language), pytest.raises(DocumentInvalid) as invalid:
        parse(document, players={1}, marker_types={}, detachment_points=500)
    assert invalid.value.errors["fleets[0].ships[0].datasheet.maneuver"] == [words]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", "not a dice code: 'lots' (expected nD+p such as “2D+1”, R-SPC-1)"),
    ("de", "kein Würfelcode: 'lots' (erwartet nD+p wie „2D+1“, R-SPC-1)"),
])
def test_r_spc_1_the_odds_api_words_a_dice_code_in_the_readers_language(fleet_world, language,
                                                                        words):
    client = api(fleet_world.league.a.user)
    body = {"engine": "d6_space", "attacker": {"ships": [{"datasheet": {**SHEET,
                                                                        "shields": "lots"}}]},
            "defender": {"ships": [{"datasheet": SHEET}]}}
    response = client.post("/api/v1/odds/naval/", body, format="json",
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.json()["errors"]["attacker.ships[0].datasheet.shields"] == [words]
    unknown = client.post("/api/v1/odds/naval/", {**body, "extra": 1}, format="json",
                          HTTP_ACCEPT_LANGUAGE=language)
    assert unknown.json()["errors"]["extra"] == [
        {"en": "Unknown field.", "de": "Unbekanntes Feld."}[language]]
