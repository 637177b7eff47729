"""The fleet API (API.md "Fleets and naval battles"): visibility (R-FLT-7), movement orders
(R-FLT-4), standing orders (R-FLT-5), transport (R-FLT-8, R-ATK-3), admin creation (R-FLT-1/2,
R-SPC-1), sea hazards (R-SEA-2); checks in the contract's order (401, 403/404, 409, 400)."""

import pytest

from campaigns.models import Attack, Round
from campaigns.services.campaigns import campaign_update
from fleets.models import Area, Fleet, FleetOrder, SeaHazard, Ship
from fleets.selectors.fleets import PUBLIC_FIELDS
from league.services.rounds import round_advance, round_run_phase_job
from tests.factories import CampaignFactory, PlanetFactory, UserFactory
from tests.worlds import advance_to, api, datasheet, declare, tile

PUBLIC = set(PUBLIC_FIELDS)
FULL = PUBLIC | {"name", "admiral_rating", "ships", "standing_orders", "orders",
                 "no_interception"}


def by_id(response):
    return {f["id"]: f for f in response.json()["results"]}


# --- R-FLT-7 visibility ------------------------------------------------------------------------


def test_r_flt_7_the_owner_sees_all_of_its_fleets_others_the_public_fields(fleet_world):
    lg = fleet_world.league
    fleets = by_id(api(lg.a.user).get(fleet_world.url()))
    mine = fleets[fleet_world.anna_fleet.pk]
    assert set(mine) == FULL and mine["name"] == "Vengeful Spirit"
    assert mine["ships"][0]["cargo"] == [{"name": "Tartaros Guard", "points": 500}]
    assert mine["ships"][0]["crew"] == [{"name": "Captain Loken", "cp": 12}]
    assert mine["standing_orders"]["interception"] == "if_stronger"
    assert mine["standing_orders"]["line"] == [s.pk for s in fleet_world.anna_fleet.ships.all()]
    assert fleets[fleet_world.ben_fleet.pk] == {"id": fleet_world.ben_fleet.pk, "owner": lg.b.pk,
                                                "area": fleet_world.sea.pk, "kind": "regular",
                                                "ship_count": 1}
    assert set(fleets[fleet_world.pirates.pk]) == PUBLIC


def test_r_flt_7_the_admin_sees_everything(fleet_world):
    fleets = by_id(api(fleet_world.league.admin).get(fleet_world.url()))
    assert all(set(f) == FULL for f in fleets.values())


def test_r_flt_7_detail_of_another_players_fleet_shows_only_public_fields(fleet_world):
    lg = fleet_world.league
    other = api(lg.a.user).get(fleet_world.url(f"{fleet_world.ben_fleet.pk}/"))
    assert other.status_code == 200 and set(other.json()) == PUBLIC
    own = api(lg.b.user).get(fleet_world.url(f"{fleet_world.ben_fleet.pk}/"))
    assert set(own.json()) == FULL and own.json()["ships"][0]["name"] == "Gorkamorka"


def test_fleets_of_a_private_campaign_are_hidden_from_strangers(fleet_world):
    assert api().get(fleet_world.url()).status_code == 404
    assert api(UserFactory()).get(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/")).status_code == 404
    assert api(fleet_world.league.a.user).get(fleet_world.url("999999/")).status_code == 404
    campaign_update(campaign=fleet_world.league.campaign, visibility="public")
    public = api().get(fleet_world.url())
    assert public.status_code == 200
    assert all(set(f) == PUBLIC for f in public.json()["results"])


# --- R-FLT-4 movement orders -------------------------------------------------------------------


def test_r_flt_4_the_owner_orders_a_chain_of_adjacent_areas(fleet_world):
    client = api(fleet_world.league.a.user)
    path = [fleet_world.sea.pk, fleet_world.orbit.pk]
    response = client.put(fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"), {"path": path},
                          format="json")
    assert response.status_code == 200
    assert response.json()["path"] == path and response.json()["round"] == 1
    shown = client.get(fleet_world.url(f"{fleet_world.anna_fleet.pk}/")).json()
    assert shown["orders"]["path"] == path
    client.put(fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"),
               {"path": [fleet_world.sea.pk]}, format="json")
    assert list(FleetOrder.objects.values_list("path", flat=True)) == [[fleet_world.sea.pk]]
    client.put(fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"), {"path": []}, format="json")
    assert not FleetOrder.objects.exists()


@pytest.mark.parametrize(("path", "field"), [
    (["orbit"], "path[0]"),  # not adjacent to the coast
    (["sea", "coast"], "path[1]"),  # back to the current area
    (["sea", "island", "sea"], "path[2]"),  # twice
    ([123456789], "path[0]"),  # not an area of the campaign
])
def test_r_flt_4_an_illegal_path_is_a_400_naming_the_rule(fleet_world, path, field):
    ids = [getattr(fleet_world, p).pk if isinstance(p, str) else p for p in path]
    response = api(fleet_world.league.a.user).put(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"), {"path": ids}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "R-FLT-4" and field in response.json()["errors"]


def test_r_flt_4_max_fleet_moves(fleet_world):
    fleet_world.league.set_rules(max_fleet_moves=1)
    response = api(fleet_world.league.a.user).put(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/"),
        {"path": [fleet_world.sea.pk, fleet_world.orbit.pk]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "R-FLT-4"


def test_r_flt_4_orders_checks_run_in_the_contracts_order(fleet_world):
    lg = fleet_world.league
    url = fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/")
    bad = {"path": "nonsense"}
    assert api().put(url, bad, format="json").status_code == 401
    assert api(UserFactory()).put(url, bad, format="json").status_code == 404  # private
    campaign_update(campaign=lg.campaign, visibility="public")
    assert api(UserFactory()).put(url, bad, format="json").status_code == 403
    assert api(lg.b.user).put(url, bad, format="json").status_code == 403
    assert api(lg.admin).put(url, bad, format="json").status_code == 403
    assert api(lg.a.user).put(url, bad, format="json").status_code == 400
    round_advance(round_id=fleet_world.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=fleet_world.rnd.pk, phase="fleets")
    late = api(lg.a.user).put(url, bad, format="json")
    assert late.status_code == 409 and late.json()["code"] == "wrong_phase"


# --- R-FLT-5 standing orders -------------------------------------------------------------------


def test_r_flt_5_standing_orders_and_the_battle_line(fleet_world):
    client = api(fleet_world.league.a.user)
    ships = list(fleet_world.anna_fleet.ships.values_list("pk", flat=True))
    response = client.patch(fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"),
                            {"benefits": ["c", "a"], "stance": "approach",
                             "line": ships[::-1]}, format="json")
    assert response.status_code == 200
    orders = response.json()["standing_orders"]
    assert orders == {"interception": "if_stronger", "benefits": ["c", "a"],
                      "stance": "approach", "line": ships[::-1]}
    assert list(Ship.objects.filter(fleet=fleet_world.anna_fleet).order_by("position")
                .values_list("pk", flat=True)) == ships[::-1]


@pytest.mark.parametrize("body", [{"interception": "sometimes"}, {"benefits": ["a", "a"]},
                                  {"stance": "flee"}, {"line": [1]}, {"benefits": ["e"]}])
def test_r_flt_5_invalid_standing_orders_are_a_400(fleet_world, body):
    response = api(fleet_world.league.a.user).patch(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"), body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "R-FLT-5"


def test_r_flt_5_only_the_owner_and_for_pirates_the_admin(fleet_world):
    lg = fleet_world.league
    body = {"stance": "hold"}
    assert api(lg.b.user).patch(fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"),
                                body, format="json").status_code == 403
    assert api(lg.admin).patch(fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"),
                               body, format="json").status_code == 403
    pirates = api(lg.admin).patch(fleet_world.url(f"{fleet_world.pirates.pk}/standing-orders/"),
                                  body, format="json")
    assert pirates.status_code == 200 and pirates.json()["standing_orders"]["stance"] == "hold"


def test_r_flt_5_standing_orders_are_locked_while_the_phase_resolves(fleet_world):
    Round.objects.filter(pk=fleet_world.rnd.pk).update(phase="fleets")
    response = api(fleet_world.league.a.user).patch(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/"), {"stance": "bogus"},
        format="json")
    assert response.status_code == 409


# --- R-FLT-8 transport, R-ATK-3 ----------------------------------------------------------------


def ship_url(world, fleet, action, index=0):
    ship = fleet.ships.order_by("position")[index]
    return world.url(f"{fleet.pk}/ships/{ship.pk}/{action}/")


def test_r_flt_8_embark_up_to_capacity_then_disembark(fleet_world):
    client = api(fleet_world.league.a.user)
    url = ship_url(fleet_world, fleet_world.anna_fleet, "embark")
    response = client.post(url, {"name": "Veterans", "points": 300}, format="json")
    assert response.status_code == 200
    assert response.json()["cargo"][-1] == {"name": "Veterans", "points": 300}
    full = client.post(url, {"name": "One more", "points": 100}, format="json")
    assert full.status_code == 400 and full.json()["code"] == "R-FLT-8"
    too_big = client.post(ship_url(fleet_world, fleet_world.anna_fleet, "embark", 1),
                          {"name": "Army", "points": 501}, format="json")
    assert too_big.status_code == 400 and too_big.json()["errors"] == {
        "points": [too_big.json()["detail"]]}
    out = client.post(ship_url(fleet_world, fleet_world.anna_fleet, "disembark"), {"index": 0},
                      format="json")
    assert out.status_code == 200 and out.json()["cargo"] == [{"name": "Veterans",
                                                              "points": 300}]
    bad = client.post(ship_url(fleet_world, fleet_world.anna_fleet, "disembark"), {"index": 5},
                      format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "R-FLT-8"


def test_r_flt_8_only_in_an_area_bordering_own_tiles(fleet_world):
    response = api(fleet_world.league.b.user).post(
        ship_url(fleet_world, fleet_world.ben_fleet, "embark"), {"name": "Boyz", "points": 200},
        format="json")
    assert response.status_code == 400 and response.json()["errors"].keys() == {"area"}
    # ben owns a tile
    Fleet.objects.filter(pk=fleet_world.ben_fleet.pk).update(area=fleet_world.orbit)
    again = api(fleet_world.league.b.user).post(
        ship_url(fleet_world, fleet_world.ben_fleet, "embark"), {"name": "Boyz", "points": 200},
        format="json")
    assert again.status_code == 400 and again.json()["errors"].keys() == {"ship"}  # full


def test_r_flt_8_transport_checks_in_order(fleet_world):
    lg = fleet_world.league
    url = ship_url(fleet_world, fleet_world.anna_fleet, "embark")
    assert api(lg.b.user).post(url, {}, format="json").status_code == 403
    other_ship = ship_url(fleet_world, fleet_world.ben_fleet, "embark").split("/")[-3]
    wrong = fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/{other_ship}/embark/")
    assert api(lg.a.user).post(wrong, {}, format="json").status_code == 404
    Round.objects.filter(pk=fleet_world.rnd.pk).update(phase="lists")
    assert api(lg.a.user).post(url, {}, format="json").status_code == 409


def test_r_atk_3_detachments_embarked_at_home_carry_an_orbital_attack(fleet_world):
    """Embark in round 1 at home, move into the enemy's orbit, attack from it in round 2; the
    re-check after the next fleets phase cancels the attack once the fleet has sailed away."""
    w = fleet_world
    lg = w.league
    other = PlanetFactory(campaign=lg.campaign, name="Target")
    target = tile(other, 0, 0, lg.b)
    orbit = Area.objects.create(campaign=lg.campaign, name="Target orbit", kind="orbit",
                                planet=other)
    orbit.adjacent.add(w.sea)
    client = api(lg.a.user)
    for index, points in ((0, 500), (1, 500)):
        assert client.post(ship_url(w, w.anna_fleet, "embark", index),
                           {"name": f"Wave {index}", "points": points},
                           format="json").status_code == 200
    Fleet.objects.filter(pk=w.ben_fleet.pk).update(area=w.island)  # clear the way
    Fleet.objects.filter(pk=w.pirates.pk).update(area=w.island)
    SeaHazard.objects.all().delete()
    client.put(w.url(f"{w.anna_fleet.pk}/orders/"), {"path": [w.sea.pk, orbit.pk]},
               format="json")
    lg.set_rules(orbital_assault_points=1500)
    rnd2 = _next_round(w.rnd)
    assert Fleet.objects.get(pk=w.anna_fleet.pk).area_id == orbit.pk
    attack = declare(lg.a, rnd2, target)  # 500 + 500 + 500 (the guard) >= 1500
    assert attack.source == "orbit" and attack.status == "active"
    client.put(w.url(f"{w.anna_fleet.pk}/orders/"), {"path": [w.sea.pk]}, format="json")
    advance_to(rnd2, "lists")
    attack.refresh_from_db()
    assert attack.status == Attack.Status.CANCELLED and "R-ATK-3" in attack.status_reason


def _next_round(rnd):
    advance_to(rnd, "closed")
    return Round.objects.get(campaign=rnd.campaign, number=rnd.number + 1)


# --- admin creation (R-FLT-1, R-FLT-2, R-SPC-1) ------------------------------------------------


def test_admin_creates_a_fleet_with_ships(fleet_world):
    lg = fleet_world.league
    body = {"name": "Reserve", "owner": lg.c.pk, "area": fleet_world.sea.pk, "admiral_rating": 1,
            "ships": [{"name": "Hope", "class": "Frigate", "attack": 4, "defence": 5,
                       "agility": 3, "capacity": 1,
                       "cargo": [{"name": "Militia", "points": 200}],
                       "crew": [{"name": "Ensign", "cp": 6}],
                       "datasheet": datasheet("3D", captain="Ensign")},
                      {"name": "Faith"}]}
    response = api(lg.admin).post(fleet_world.url(), body, format="json")
    assert response.status_code == 201
    data = response.json()
    assert [s["name"] for s in data["ships"]] == ["Hope", "Faith"]
    assert data["ships"][0]["class"] == "Frigate"
    assert data["ships"][0]["datasheet"]["captain"]["name"] == "Ensign"
    ship = api(lg.admin).post(fleet_world.url(f"{data['id']}/ships/"), {"name": "Charity"},
                              format="json")
    assert ship.status_code == 201 and ship.json()["position"] == 3


@pytest.mark.parametrize(("change", "code"), [
    ({"owner": None}, "R-FLT-1"),
    ({"ships": [{"name": "X", "capacity": 0, "cargo": [{"name": "A", "points": 10}]}]},
     "R-FLT-2"),
    ({"ships": [{"name": "X", "capacity": 1, "cargo": [{"name": "A", "points": 900}]}]},
     "R-FLT-2"),
    ({"ships": [{"name": "X", "crew": [{"name": "A"}]}]}, "R-FLT-2"),
    ({"ships": [{"name": "X", "datasheet": {"hull": "3D"}}]}, "R-SPC-1"),
    ({"ships": [{"name": "X", "datasheet": {**datasheet("99D")}}]}, "R-SPC-1"),
    ({"admiral_rating": 4}, "invalid"),
    ({"area": 10**30}, "invalid"),
])
def test_admin_fleet_input_errors_are_400(fleet_world, change, code):
    body = {"name": "Reserve", "owner": fleet_world.league.c.pk, "area": fleet_world.sea.pk,
            **change}
    response = api(fleet_world.league.admin).post(fleet_world.url(), body, format="json")
    assert response.status_code == 400 and response.json()["code"] == code
    assert not Fleet.objects.filter(name="Reserve").exists()



@pytest.mark.parametrize(("sheet", "field"), [
    ({"maneuver": "2D"}, "datasheet.speed"),
    ({"maneuver": "99999D+99999", "speed": -5}, "datasheet.maneuver"),
    ({**datasheet("3D"), "captain": {"name": "Solo", "dice_system": "hull"}},
     "datasheet.captain.pip_system"),
])
def test_r_spc_1_a_ship_with_a_partial_or_unbounded_datasheet_is_400_naming_the_field(
        fleet_world, sheet, field):
    """R-SPC-1, R-FLT-2: a datasheet is complete (every system, within the bounds of
    ``rules.ship_values``) or null; the 400 names the offending value and the rule."""
    response = api(fleet_world.league.admin).post(
        fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/"),
        {"name": "Halfbuilt", "datasheet": sheet}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "R-SPC-1" and list(body["errors"]) == [field]
    assert "R-SPC-1" in body["detail"] and body["errors"][field] == [body["detail"]]
    assert not Ship.objects.filter(name="Halfbuilt").exists()


@pytest.mark.parametrize(("ship", "field"), [
    ({"attack": 51}, "attack"), ({"defence": 0}, "defence"), ({"defence": 51}, "defence"),
    ({"agility": 8}, "agility"), ({"capacity": 51}, "capacity"),
    ({"crew": [{"name": "Loken", "cp": 201}]}, "crew[0].cp"),
    ({"capacity": 1, "cargo": [{"name": "Empty", "points": 0}]}, "cargo[0].points"),
])
def test_r_flt_2_ship_values_outside_the_bounds_are_400_naming_the_field(fleet_world, ship,
                                                                          field):
    """R-FLT-2 bounds: attack 0..50, defence 1..50, agility 0..7, capacity 0..50, cp 0..200,
    a detachment 1..detachment_points; in a new fleet the path starts at its ship."""
    lg = fleet_world.league
    response = api(lg.admin).post(fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/"),
                                  {"name": "Overbuilt", **ship}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "R-FLT-2" and list(response.json()["errors"]) == [field]
    assert "R-FLT-2" in response.json()["detail"]
    fleet = {"name": "Reserve", "owner": lg.c.pk, "area": fleet_world.sea.pk,
             "ships": [{"name": "Fine"}, {"name": "Overbuilt", **ship}]}
    response = api(lg.admin).post(fleet_world.url(), fleet, format="json")
    assert response.status_code == 400 and response.json()["code"] == "R-FLT-2"
    assert list(response.json()["errors"]) == [f"ships[1].{field}"]
    assert not Ship.objects.filter(name="Overbuilt").exists()


def test_r_sea_2_hazard_values_stay_within_the_ship_bounds(fleet_world):
    lg = fleet_world.league
    body = {"name": "Leviathan", "area": fleet_world.sea.pk, "attack": 51}
    response = api(lg.admin).post(lg.url("hazards/"), body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "R-SEA-2"
    assert list(response.json()["errors"]) == ["attack"]
    assert not SeaHazard.objects.filter(name="Leviathan").exists()


def test_only_the_admin_creates_fleets_and_ships(fleet_world):
    lg = fleet_world.league
    body = {"name": "Mine", "owner": lg.a.pk, "area": fleet_world.coast.pk}
    assert api().post(fleet_world.url(), body, format="json").status_code == 401
    assert api(UserFactory()).post(fleet_world.url(), body, format="json").status_code == 404
    assert api(lg.a.user).post(fleet_world.url(), body, format="json").status_code == 403
    assert api(lg.a.user).post(fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/"),
                               {"name": "X"}, format="json").status_code == 403
    other = CampaignFactory()
    foreign = Area.objects.create(campaign=other, name="Elsewhere")
    response = api(lg.admin).post(fleet_world.url(), {**body, "area": foreign.pk}, format="json")
    assert response.status_code == 400 and "area" in response.json()["errors"]


# --- R-SEA-2 hazards ---------------------------------------------------------------------------


def test_r_sea_2_hazards_are_hidden_until_they_trigger(fleet_world):
    lg = fleet_world.league
    hidden = api(lg.b.user).get(lg.url("hazards/"))
    assert hidden.status_code == 200 and hidden.json()["results"] == []
    assert api(lg.b.user).get(lg.url(f"hazards/{fleet_world.kraken.pk}/")).status_code == 404
    assert api(lg.admin).get(lg.url("hazards/")).json()["count"] == 1
    SeaHazard.objects.filter(pk=fleet_world.kraken.pk).update(triggered_at="2030-01-01T00:00Z")
    shown = api(lg.b.user).get(lg.url("hazards/")).json()["results"]
    assert [h["name"] for h in shown] == ["Lurking Kraken"]


def test_r_sea_2_an_island_owner_places_hazards_there(fleet_world):
    lg = fleet_world.league
    body = {"name": "Reef of Teeth", "area": fleet_world.island.pk, "attack": 2, "defence": 4}
    placed = api(lg.c.user).post(lg.url("hazards/"), body, format="json")
    assert placed.status_code == 201 and placed.json()["owner"] == lg.c.pk
    assert [h["name"] for h in api(lg.c.user).get(lg.url("hazards/")).json()["results"]] == [
        "Reef of Teeth"]
    assert api(lg.a.user).get(lg.url("hazards/")).json()["results"] == []
    refused = api(lg.a.user).post(lg.url("hazards/"), body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "R-SEA-2"
    sea = api(lg.c.user).post(lg.url("hazards/"), {**body, "area": fleet_world.sea.pk},
                              format="json")
    assert sea.status_code == 400


def test_r_sea_2_the_admin_places_and_removes_hazards(fleet_world):
    lg = fleet_world.league
    made = api(lg.admin).post(lg.url("hazards/"), {"name": "Whirlpool", "area": fleet_world.sea.pk},
                              format="json")
    assert made.status_code == 201 and made.json()["owner"] is None
    owned = api(lg.admin).post(lg.url("hazards/"), {"name": "Whirl", "area": fleet_world.sea.pk,
                                                    "owner": lg.c.pk}, format="json")
    assert owned.status_code == 400  # an owner only on its island
    hazard = made.json()["id"]
    assert api(lg.c.user).delete(lg.url(f"hazards/{hazard}/")).status_code == 404
    assert api(lg.admin).delete(lg.url(f"hazards/{hazard}/")).status_code == 204


# --- fleet phase record ------------------------------------------------------------------------


def test_the_fleet_phase_record_is_for_the_admin(fleet_world):
    lg = fleet_world.league
    url = lg.url("rounds/1/fleet-phase/")
    assert api(lg.admin).get(url).status_code == 404  # not resolved yet
    round_advance(round_id=fleet_world.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=fleet_world.rnd.pk, phase="fleets")
    assert api(lg.a.user).get(url).status_code == 403
    record = api(lg.admin).get(url)
    assert record.status_code == 200 and record.json()["round"] == 1


# --- never a 500 -------------------------------------------------------------------------------


GARBAGE = [None, "x", 3, [], [[]], {"path": {"a": 1}}, {"path": [None]}, {"path": [2**70]},
           {"name": 5, "points": "many"}, {"index": 2**80}, {"line": ["a"]},
           {"benefits": "abcd"}, {"ships": "many"}, {"ships": [{"name": "x", "cargo": "y"}]},
           {"ships": [{"name": "x", "datasheet": [1]}]}, {"owner": "me", "area": []}]


def test_no_input_makes_a_500(fleet_world):
    lg = fleet_world.league
    ship = fleet_world.anna_fleet.ships.first().pk
    posts = [(lg.admin, "post", fleet_world.url()),
             (lg.a.user, "put", fleet_world.url(f"{fleet_world.anna_fleet.pk}/orders/")),
             (lg.a.user, "patch", fleet_world.url(f"{fleet_world.anna_fleet.pk}/standing-orders/")),
             (lg.a.user, "post",
              fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/{ship}/embark/")),
             (lg.a.user, "post",
              fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/{ship}/disembark/")),
             (lg.admin, "post", fleet_world.url(f"{fleet_world.anna_fleet.pk}/ships/")),
             (lg.admin, "post", lg.url("hazards/")), (lg.c.user, "post", lg.url("hazards/"))]
    for user, method, url in posts:
        for body in GARBAGE:
            response = getattr(api(user), method)(url, body, format="json")
            assert response.status_code in (200, 201, 400), (url, body, response.content)
    for query in ("?page=x", "?page_size=-1", "?round=abc", "?round=99999999999999"):
        assert api(lg.a.user).get(lg.url(f"naval-battles/{query}")).status_code in (200, 400,
                                                                                    404)
        assert api(lg.a.user).get(fleet_world.url(query)).status_code in (200, 404)
