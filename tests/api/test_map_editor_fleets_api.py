"""The map editor through the API: the admin changes fleets (PATCH), ships (PATCH,
DELETE) and hazards (PATCH) with the services the pages use; a player never changes them, never
sees hazards or another player's ships (R-FLT-7, R-SEA-2); corrections in the running campaign
are logged and refused while the fleets phase runs (R-RND-2)."""

import pytest

from campaigns.models import AdminAction
from fleets.models import Fleet, SeaHazard, Ship
from tests.worlds import api

pytestmark = pytest.mark.django_db


def ship_url(world, fleet, ship):
    return world.url(f"{fleet.pk}/ships/{ship.pk}/")


def hazard_url(world, hazard):
    return world.league.url(f"hazards/{hazard.pk}/")


def test_admin_moves_renames_and_reowns_a_fleet(fleet_world):
    w, lg = fleet_world, fleet_world.league
    answer = api(lg.admin).patch(w.url(f"{w.anna_fleet.pk}/"),
                                 {"name": "New name", "area": w.sea.pk, "owner": lg.b.pk},
                                 format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["area"], answer.json()["owner"]) == (w.sea.pk, lg.b.pk)
    fleet = Fleet.objects.get(pk=w.anna_fleet.pk)
    assert (fleet.name, fleet.area, fleet.owner) == ("New name", w.sea, lg.b)
    public = AdminAction.objects.get(campaign=lg.campaign, kind="fleet.update", public=True)
    assert public.actor == lg.admin and public.after == {"owner": lg.b.pk, "area": w.sea.pk,
                                                         "ship_count": 2}


def test_r_flt_1_pirate_owner_refused_naming_the_rule(fleet_world):
    w = fleet_world
    answer = api(w.league.admin).patch(w.url(f"{w.pirates.pk}/"), {"owner": w.league.a.pk},
                                       format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "R-FLT-1" and "owner" in answer.json()["errors"]


def test_r_flt_2_admin_edits_a_ship_within_the_bounds(fleet_world):
    w = fleet_world
    ship = w.anna_fleet.ships.get(position=1)
    url = ship_url(w, w.anna_fleet, ship)
    answer = api(w.league.admin).patch(url, {"attack": 12, "class": "Emperor"}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["attack"], answer.json()["class"]) == (12, "Emperor")
    assert answer.json()["crew"] == [{"name": "Captain Loken", "cp": 12}]  # untouched
    refused = api(w.league.admin).patch(url, {"agility": 8}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "R-FLT-2"
    assert Ship.objects.get(pk=ship.pk).agility == ship.agility


def test_r_spc_1_partial_datasheet_refused_through_the_api(fleet_world):
    w = fleet_world
    ship = w.anna_fleet.ships.get(position=1)
    answer = api(w.league.admin).patch(ship_url(w, w.anna_fleet, ship),
                                       {"datasheet": {"maneuver": "2D"}}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "R-SPC-1"


def test_admin_removes_a_ship(fleet_world):
    w = fleet_world
    ship = w.anna_fleet.ships.get(position=1)
    answer = api(w.league.admin).delete(ship_url(w, w.anna_fleet, ship))
    assert answer.status_code == 204
    assert list(w.anna_fleet.ships.values_list("name", "position")) == [("Escort", 1)]


def test_a_player_changes_no_ship_and_sees_no_other_ships(fleet_world):
    w, lg = fleet_world, fleet_world.league
    own = w.anna_fleet.ships.get(position=1)
    assert api(lg.a.user).patch(ship_url(w, w.anna_fleet, own), {"attack": 50},
                                format="json").status_code == 403
    assert api(lg.a.user).patch(w.url(f"{w.anna_fleet.pk}/"), {"name": "x"},
                                format="json").status_code == 403
    body = api(lg.a.user).get(w.url()).content.decode()
    assert "Gorkamorka" not in body and "Kill Kroozer" not in body
    assert Ship.objects.get(pk=own.pk).attack == own.attack


def test_r_sea_2_admin_edits_a_hazard_players_never_see_it(fleet_world):
    w, lg = fleet_world, fleet_world.league
    answer = api(lg.admin).patch(hazard_url(w, w.kraken), {"attack": 9, "name": "Kraken II"},
                                 format="json")
    assert answer.status_code == 200 and answer.json()["attack"] == 9
    refused = api(lg.admin).patch(hazard_url(w, w.kraken), {"defence": 51}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "R-SEA-2"
    for user in (lg.a.user, lg.b.user):
        assert api(user).patch(hazard_url(w, w.kraken), {"attack": 1},
                               format="json").status_code == 404
        assert "Kraken" not in api(user).get(lg.url("hazards/")).content.decode()
    entry = AdminAction.objects.get(campaign=lg.campaign, kind="hazard.update")
    assert not entry.public and entry.after["name"] == "Kraken II"
    assert SeaHazard.objects.get(pk=w.kraken.pk).attack == 9


def test_r_rnd_2_api_corrections_refused_while_the_fleets_phase_runs(fleet_world):
    w, lg = fleet_world, fleet_world.league
    w.rnd.phase = "fleets"
    w.rnd.save(update_fields=["phase"])
    ship = w.anna_fleet.ships.get(position=1)
    client = api(lg.admin)
    for answer in (client.patch(w.url(f"{w.anna_fleet.pk}/"), {"name": "x"}, format="json"),
                   client.patch(ship_url(w, w.anna_fleet, ship), {"attack": 3}, format="json"),
                   client.patch(hazard_url(w, w.kraken), {"attack": 3}, format="json"),
                   client.patch(lg.url(f"areas/{w.sea.pk}/"), {"name": "x"}, format="json")):
        assert answer.status_code == 409, answer.content
        assert answer.json()["code"] == "automatic_phase"
    assert not AdminAction.objects.filter(campaign=lg.campaign).exists()


def test_area_api_writes_are_logged_with_the_admin_as_actor(fleet_world):
    w, lg = fleet_world, fleet_world.league
    answer = api(lg.admin).patch(lg.url(f"areas/{w.sea.pk}/"), {"name": "Wide sea"},
                                 format="json")
    assert answer.status_code == 200
    entry = AdminAction.objects.get(campaign=lg.campaign, kind="area.update")
    assert (entry.actor, entry.public, entry.after["name"]) == (lg.admin, True, "Wide sea")


def test_fleet_ship_and_hazard_corrections_carry_the_optional_reason(fleet_world):
    """R-SEC-2: the admin's reason lands with the entry; a DELETE gives it as ``?reason=``."""
    w, lg = fleet_world, fleet_world.league
    client = api(lg.admin)
    ship = w.anna_fleet.ships.get(position=1)
    assert client.patch(w.url(f"{w.anna_fleet.pk}/"), {"area": w.sea.pk, "reason": "Lost"},
                        format="json").status_code == 200
    assert client.patch(hazard_url(w, w.kraken), {"attack": 9, "reason": "Typo"},
                        format="json").status_code == 200
    assert client.delete(ship_url(w, w.anna_fleet, ship) + "?reason=Doubled").status_code == 204
    assert set(AdminAction.objects.filter(campaign=lg.campaign)
               .values_list("kind", "reason")) == {
        ("fleet.update", "Lost"), ("hazard.update", "Typo"),
        ("fleet.update", "Doubled"), ("ship.delete", "Doubled")}  # the count, then the ship
    too_long = client.patch(w.url(f"{w.anna_fleet.pk}/"), {"name": "x", "reason": "x" * 501},
                            format="json")
    assert too_long.status_code == 400 and "reason" in too_long.json()["errors"]
