"""The campaign's engine (R-SPC: ``naval_engine``), D6 combat factors (R-FLT-3) in the
standings, captains through the map import (R-SPC-1), and the admin pages of the fleets app."""

import pytest

from fleets.models import Fleet, NavalBattle, Ship
from league.selectors.standings import live_standings
from league.services.rounds import round_advance, round_run_phase_job
from tests.factories import AreaFactory, FleetFactory, ShipFactory
from tests.worlds import api, datasheet


def d6_league(league):
    """``league`` fights with the d6 engine: anna's and ben's fleets meet in one area."""
    league.set_rules(naval_engine="d6_space", max_battle_rounds=8)
    area = AreaFactory(campaign=league.campaign, name="Deep space")
    for owner, code in ((league.a, "4D"), (league.b, "2D+2")):
        fleet = FleetFactory(campaign=league.campaign, owner=owner, area=area)
        for position in (1, 2):
            ShipFactory(fleet=fleet, position=position, attack=9,
                        datasheet=datasheet(code, captain="Ace" if position == 1 else None))
    return area


def test_r_flt_3_d6_standings_count_gun_damage_dice(league):
    d6_league(league)
    rows = {row["username"]: row for row in live_standings(league.campaign)}
    assert (rows["anna"]["cf"], rows["ben"]["cf"]) == (8, 4)
    assert (rows["anna"]["ships"], rows["anna"]["fleets"]) == (2, 1)


def test_r_spc_the_d6_engine_fights_on_the_round_stream(league):
    area = d6_league(league)
    rnd = league.start()
    round_advance(round_id=rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=rnd.pk, phase="fleets")
    battle = NavalBattle.objects.get(round=rnd)
    assert battle.engine == "d6_space" and battle.area_id == area.pk
    assert battle.events[1]["rule"] == "R-SPC-2"
    for ship in battle.outcome["ships"]:
        exists = Ship.objects.filter(pk=ship["id"]).exists()
        assert exists == (ship["state"] == "active")
        if exists and not ship["captain_alive"]:
            assert "captain" not in Ship.objects.get(pk=ship["id"]).datasheet
    assert battle.dice_count == rnd.rolls.filter(object__startswith="naval-battle").count()


def test_r_spc_1_a_captain_survives_the_map_import(league):
    doc = {"planets": [{"id": "p", "name": "Terra", "tiles": [{"q": 0, "r": 0}]}],
           "areas": [{"id": "a", "name": "Void", "kind": "ocean"}],
           "fleets": [{"owner": league.a.pk, "area": "a", "name": "Wing", "ships": [
               {"name": "Falcon", "datasheet": datasheet("3D", captain="Solo")}]}]}
    response = api(league.admin).post(league.url("map/import/"), doc, format="json")
    assert response.status_code == 201, response.content
    ship = Ship.objects.get(name="Falcon")
    assert ship.datasheet["captain"] == {"name": "Solo", "dice_system": "targeting",
                                         "pip_system": "speed"}
    bad = {**doc, "fleets": [{**doc["fleets"][0], "ships": [
        {"name": "Falcon", "datasheet": {"captain": {"rank": 5}}}]}]}
    refused = api(league.admin).post(league.url("map/import/"), bad, format="json")
    assert refused.status_code == 400
    assert "fleets[0].ships[0].datasheet.captain.rank" in refused.json()["errors"]


@pytest.mark.parametrize("page", ["fleet", "ship", "seahazard", "fleetorder", "fleetmarker",
                                  "fleetphase", "navalbattle", "area"])
def test_admin_pages_of_the_fleets_app_render(admin_client, league, page):
    d6_league(league)
    assert admin_client.get(f"/admin/fleets/{page}/").status_code == 200
    fleet = Fleet.objects.first()
    assert admin_client.get(f"/admin/fleets/fleet/{fleet.pk}/change/").status_code == 200


def test_the_ship_admin_form_checks_the_rules_shapes(admin_client, league):
    d6_league(league)
    ship = Ship.objects.first()
    response = admin_client.post(f"/admin/fleets/ship/{ship.pk}/change/", {
        "fleet": ship.fleet_id, "position": 1, "name": "X", "ship_class": "", "attack": 1,
        "defence": 1, "agility": 1, "capacity": 0, "cargo": '[{"name": "A", "points": 1}]',
        "crew": "[]", "seats": "", "datasheet": '{"hull": "0D"}'})
    assert response.status_code == 200  # the form again, with errors
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"cargo", "datasheet"}
