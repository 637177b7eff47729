"""Refusals of the fleet services and the fleet API read in German for German readers, with
their rule ids kept (R-MAP-3, R-FLT-1, R-SEA-2, R-FLT-5)."""

import pytest
from django.utils import translation

from campaigns.errors import Conflict, RuleViolation
from fleets.services import area_links, areas
from fleets.services import fleets as fleet_services
from tests.factories import AreaFactory
from tests.worlds import api, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def lg():
    return make_league(players=("anna", "ben"))


def refusal(call, error=RuleViolation) -> str:
    with translation.override("de"), pytest.raises(error) as caught:
        call()
    return caught.value.message


def test_area_refusals_are_german(lg):
    a = AreaFactory(campaign=lg.campaign, name="A")
    b = AreaFactory(campaign=lg.campaign, name="B")
    assert refusal(lambda: area_links.area_link_add(a=a, b=a)) == (
        "Ein Gebiet grenzt nicht an sich selbst (R-MAP-3).")
    assert refusal(lambda: area_links.area_link_remove(a=a, b=b)) == (
        "A und B sind nicht verbunden (R-MAP-3).")
    orbit = refusal(lambda: areas.area_create(campaign=lg.campaign, name="Orbit", kind="orbit"))
    assert orbit == "ein Orbitgebiet braucht einen Planeten"


def test_fleet_refusals_are_german(lg):
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    create = fleet_services.fleet_create
    assert refusal(lambda: create(campaign=lg.campaign, name="F", area=sea,
                                  kind="bogus")).startswith("Arten: ")
    assert refusal(lambda: create(campaign=lg.campaign, name="F", area=sea)) == (
        "nur eine Piratenflotte hat keinen Besitzer (R-FLT-1)")
    assert refusal(lambda: create(campaign=lg.campaign, name="", area=sea,
                                  owner=lg.a)) == "Ein Text aus 1 bis 80 Zeichen."
    assert refusal(lambda: fleet_services.hazard_create(
        campaign=lg.campaign, area=sea, name="Maw", owner=lg.a)) == (
        "Der Besitzer einer Seegefahr ist der Besitzer ihres Inselgebiets (R-SEA-2).")


def test_a_phase_refusal_is_german(lg):
    with translation.override("de"):
        message = refusal(lambda: fleet_services.hazard_place(
            player=lg.a, area=AreaFactory(campaign=lg.campaign), name="Maw"), Conflict)
    assert message.startswith("Seegefahren werden platziert nur in der Ansagephase")


def test_the_api_answers_a_fleet_refusal_in_german(fleet_world):
    lg = fleet_world.league
    response = api(lg.b.user).patch(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"), {"stance": "hold"},
        format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    assert response.json()["detail"] == "Nur der Besitzer der Flotte gibt Daueraufträge."
