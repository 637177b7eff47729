"""The map editor, areas and fleets: the areas and fleets pages (campaign admin only). Every form
posts through the services the API uses; bad input comes back as a form error naming the rule
(400, 409 while the fleets phase runs), never a 500; the pages are German for German readers,
and hazards and fleet contents stay on the admin's pages (R-FLT-7, R-SEA-2)."""

import re

import pytest

from campaigns.models import AdminAction
from fleets.models import Area, Fleet, SeaHazard, Ship
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory
from tests.web.rule_text import unlinked
from tests.worlds import client_for, make_league, tile

pytestmark = pytest.mark.django_db
BASE = "/campaigns/{}/manage/map/editor/"


class World:
    def __init__(self):
        self.lg = make_league(players=("anna", "ben"))
        self.campaign = self.lg.campaign
        self.planet = self.lg.planet("Terra")
        self.tiles = [tile(self.planet, 0, 0, self.lg.a), tile(self.planet, 1, 0, self.lg.b)]
        self.sea = AreaFactory(campaign=self.campaign, name="Open sea")
        self.coast = AreaFactory(campaign=self.campaign, name="Coast", kind="coastal")
        self.admin = client_for(self.lg.admin)

    def url(self, rest: str = "") -> str:
        return BASE.format(self.campaign.pk) + rest

    def area_url(self, area, rest: str = "") -> str:
        return self.url(f"areas/{area.pk}/{rest}")


@pytest.fixture
def world():
    return World()


def page(response) -> str:
    assert response.status_code in (200, 400, 409), response.status_code
    return unlinked(response.content.decode())


def test_only_the_admin_opens_the_editor(world):
    for rest in ("areas/", f"areas/{world.sea.pk}/"):
        assert world.admin.get(world.url(rest)).status_code == 200
        assert client_for(world.lg.a.user).get(world.url(rest)).status_code == 403
        assert client_for().get(world.url(rest)).status_code == 302  # private: log in
    assert client_for(world.lg.a.user).post(world.url("areas/new/"), {
        "new-name": "X", "new-kind": "ocean"}).status_code == 403
    assert not Area.objects.filter(name="X").exists()


def test_areas_page_draws_the_chart_with_locale_free_numbers(world):
    world.sea.adjacent.add(world.coast)
    html = page(world.admin.get(world.url("areas/"), HTTP_ACCEPT_LANGUAGE="de"))
    assert html.count("data-link-area=") == 2 and 'class="area-link"' in html
    numbers = re.findall(r'\b(?:cx|cy|x|y|x1|y1|x2|y2)="([^"]*)"', html)
    assert numbers and all(re.fullmatch(r"-?\d+(\.\d)?", n) for n in numbers), numbers
    assert "Seegebiete" in html or "Gebiete" in html


def test_add_an_area_and_a_form_error_names_the_rule(world):
    response = world.admin.post(world.url("areas/new/"), {"new-name": "Deep", "new-kind": "ocean"})
    assert response.status_code == 302
    assert Area.objects.filter(campaign=world.campaign, name="Deep", kind="ocean").exists()
    bad = world.admin.post(world.url("areas/new/"), {"new-name": "Orbit", "new-kind": "orbit"})
    assert bad.status_code == 400 and "an orbit area needs a planet" in page(bad)
    assert not Area.objects.filter(name="Orbit").exists()


def test_link_two_areas_with_the_two_selects_and_unlink(world):
    data = {"link-a": world.sea.pk, "link-b": world.coast.pk}
    assert world.admin.post(world.url("areas/links/add/"), data).status_code == 302
    assert list(world.sea.adjacent.all()) == [world.coast]
    again = world.admin.post(world.url("areas/links/add/"), data)
    assert again.status_code == 400 and "R-MAP-3" in page(again)
    self_link = world.admin.post(world.url("areas/links/add/"),
                                 {"link-a": world.sea.pk, "link-b": world.sea.pk})
    assert self_link.status_code == 400 and "not adjacent to itself" in page(self_link)
    assert world.admin.post(world.url("areas/links/remove/"), data).status_code == 302
    assert not world.sea.adjacent.exists()


def test_rename_kind_orbit_and_delete_an_area(world):
    response = world.admin.post(world.area_url(world.sea, "edit/"), {
        "area-name": "Terra orbit", "area-kind": "orbit", "area-planet": world.planet.pk})
    assert response.status_code == 302
    world.sea.refresh_from_db()
    assert (world.sea.name, world.sea.kind, world.sea.planet) == ("Terra orbit", "orbit",
                                                                  world.planet)
    bad = world.admin.post(world.area_url(world.sea, "edit/"), {
        "area-name": "x", "area-kind": "ocean", "area-planet": world.planet.pk})
    assert bad.status_code == 400 and "only an orbit area names a planet" in page(bad)
    FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.coast)
    refused = world.admin.post(world.area_url(world.coast, "delete/"), follow=True)
    assert "Fleets are in this area" in page(refused)
    assert world.admin.post(world.area_url(world.sea, "delete/")).status_code == 302
    assert not Area.objects.filter(pk=world.sea.pk).exists()


def test_coastal_borders_pick_tiles(world):
    html = page(world.admin.get(world.area_url(world.coast)))
    assert 'name="borders-tiles"' in html and "Terra" in html
    response = world.admin.post(world.area_url(world.coast, "borders/"),
                                {"borders-tiles": [world.tiles[0].pk]})
    assert response.status_code == 302
    assert list(world.coast.borders_tiles.all()) == world.tiles[:1]
    bad = world.admin.post(world.area_url(world.sea, "borders/"),
                           {"borders-tiles": [world.tiles[1].pk]})
    assert bad.status_code == 400 and "only a coastal area lists the tiles" in page(bad)


def test_place_edit_move_and_remove_a_fleet(world):
    response = world.admin.post(world.area_url(world.sea, "fleets/"), {
        "newfleet-name": "Armada", "newfleet-owner": world.lg.a.pk, "newfleet-kind": "regular",
        "newfleet-admiral_rating": 1, "newfleet-area": world.sea.pk})
    assert response.status_code == 302
    fleet = Fleet.objects.get(campaign=world.campaign, name="Armada")
    moved = world.admin.post(world.url(f"fleets/{fleet.pk}/edit/"), {
        f"fleet{fleet.pk}-name": "Armada II", f"fleet{fleet.pk}-owner": world.lg.b.pk,
        f"fleet{fleet.pk}-kind": "regular", f"fleet{fleet.pk}-admiral_rating": 3,
        f"fleet{fleet.pk}-area": world.coast.pk})
    assert moved.status_code == 302 and moved["Location"].endswith(
        f"areas/{world.coast.pk}/#fleet-{fleet.pk}")
    fleet.refresh_from_db()
    assert (fleet.name, fleet.owner, fleet.area, fleet.admiral_rating) == (
        "Armada II", world.lg.b, world.coast, 3)
    bad = world.admin.post(world.url(f"fleets/{fleet.pk}/edit/"), {
        f"fleet{fleet.pk}-name": "x", f"fleet{fleet.pk}-kind": "regular",
        f"fleet{fleet.pk}-admiral_rating": 0, f"fleet{fleet.pk}-area": world.coast.pk})
    assert bad.status_code == 400 and "only a pirate fleet has no owner (R-FLT-1)" in page(bad)
    assert world.admin.post(world.url(f"fleets/{fleet.pk}/delete/")).status_code == 302
    assert not Fleet.objects.filter(pk=fleet.pk).exists()


def ship_data(prefix: str, **values) -> dict:
    data = {"name": "Ship", "ship_class": "", "attack": 1, "defence": 1, "agility": 1,
            "capacity": 0, **values}
    return {f"{prefix}-{key}": value for key, value in data.items()}


def test_ships_add_edit_remove_within_the_r_flt_2_bounds(world):
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    html = page(world.admin.get(world.area_url(world.sea)))
    assert "0 to 50 (R-FLT-2)" in html and "0 to 7 (R-FLT-2)" in html
    assert "ds_maneuver" not in html  # the default engine has no datasheet
    add = world.admin.post(world.url(f"fleets/{fleet.pk}/ships/"),
                           ship_data(f"newship{fleet.pk}", name="Gloriana", attack=7))
    assert add.status_code == 302
    ship = fleet.ships.get(name="Gloriana")
    bad = world.admin.post(world.url(f"fleets/{fleet.pk}/ships/"),
                           ship_data(f"newship{fleet.pk}", name="Too fast", agility=8))
    assert bad.status_code == 400 and "expected a whole number from 0 to 7 (R-FLT-2)" in page(bad)
    assert not fleet.ships.filter(name="Too fast").exists()
    edit = world.admin.post(world.url(f"ships/{ship.pk}/edit/"),
                            ship_data(f"ship{ship.pk}", name="Gloriana", attack=9, capacity=3))
    assert edit.status_code == 302
    ship.refresh_from_db()
    assert (ship.attack, ship.capacity) == (9, 3)
    not_a_number = world.admin.post(world.url(f"ships/{ship.pk}/edit/"),
                                    ship_data(f"ship{ship.pk}", attack="many"))
    assert not_a_number.status_code == 400
    assert world.admin.post(world.url(f"ships/{ship.pk}/delete/")).status_code == 302
    assert not Ship.objects.filter(pk=ship.pk).exists()


def test_r_spc_1_datasheet_fields_with_the_d6_engine(world):
    world.lg.set_rules(naval_engine="d6_space")
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    assert f'name="newship{fleet.pk}-ds_gun_damage"' in page(
        world.admin.get(world.area_url(world.sea)))
    sheet = {"ds_maneuver": "2D", "ds_speed": 3, "ds_targeting": "3D",
             "ds_gun_damage": "4D+1", "ds_shields": "2D", "ds_hull": "3D"}
    add = world.admin.post(world.url(f"fleets/{fleet.pk}/ships/"),
                           ship_data(f"newship{fleet.pk}", name="Sheet", **sheet))
    assert add.status_code == 302
    assert fleet.ships.get(name="Sheet").datasheet["gun_damage"] == "4D+1"
    partial = world.admin.post(world.url(f"fleets/{fleet.pk}/ships/"), ship_data(
        f"newship{fleet.pk}", name="Half", ds_maneuver="2D"))
    assert partial.status_code == 400 and "R-SPC-1" in page(partial)
    assert not fleet.ships.filter(name="Half").exists()


def test_hazards_place_edit_remove_admin_only(world):
    response = world.admin.post(world.area_url(world.sea, "hazards/"), {
        "newhazard-name": "Kraken", "newhazard-attack": 4, "newhazard-defence": 3,
        "newhazard-agility": 2})
    assert response.status_code == 302
    hazard = SeaHazard.objects.get(area=world.sea, name="Kraken")
    bad = world.admin.post(world.url(f"hazards/{hazard.pk}/edit/"), {
        f"hazard{hazard.pk}-name": "Kraken", f"hazard{hazard.pk}-attack": 60,
        f"hazard{hazard.pk}-defence": 3, f"hazard{hazard.pk}-agility": 2})
    assert bad.status_code == 400 and "R-SEA-2" in page(bad)
    ok = world.admin.post(world.url(f"hazards/{hazard.pk}/edit/"), {
        f"hazard{hazard.pk}-name": "Kraken", f"hazard{hazard.pk}-attack": 6,
        f"hazard{hazard.pk}-defence": 3, f"hazard{hazard.pk}-agility": 2})
    assert ok.status_code == 302 and SeaHazard.objects.get(pk=hazard.pk).attack == 6
    player = client_for(world.lg.a.user)
    for url in (f"/campaigns/{world.campaign.pk}/map/", f"/campaigns/{world.campaign.pk}/fleets/"):
        assert "Kraken" not in player.get(url).content.decode()
    assert world.admin.post(world.url(f"hazards/{hazard.pk}/delete/")).status_code == 302
    assert not SeaHazard.objects.filter(pk=hazard.pk).exists()


def test_r_rnd_2_running_campaign_refuses_in_the_fleets_phase_and_logs_otherwise(world):
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    ship = ShipFactory(fleet=fleet, name="Secret Galleon")
    rnd = world.lg.start()
    rename = ship_data(f"ship{ship.pk}", name="Renamed Galleon")
    assert world.admin.post(world.url(f"ships/{ship.pk}/edit/"), rename).status_code == 302
    entry = AdminAction.objects.get(campaign=world.campaign, kind="ship.update")
    assert not entry.public and entry.actor == world.lg.admin
    rnd.phase = "fleets"
    rnd.save(update_fields=["phase"])
    refused = world.admin.post(world.url(f"ships/{ship.pk}/edit/"),
                               ship_data(f"ship{ship.pk}", name="Again"))
    assert refused.status_code == 409 and "R-RND-2" in page(refused)
    assert Ship.objects.get(pk=ship.pk).name == "Renamed Galleon"
    gone = world.admin.post(world.url(f"fleets/{fleet.pk}/delete/"), follow=True)
    assert Fleet.objects.filter(pk=fleet.pk).exists() and "fleets phase" in page(gone)


def test_german_area_page_and_german_rule_help(world):
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    ShipFactory(fleet=fleet)
    SeaHazardFactory(area=world.sea, name="Reef")
    html = page(world.admin.get(world.area_url(world.sea), HTTP_ACCEPT_LANGUAGE="de"))
    assert 'lang="de"' in html
    for german in ("Flotte platzieren", "Versteckte Seegefahren", "Schiff hinzufügen",
                   "0 bis 50 (R-FLT-2)"):
        assert german in html, german


def test_a_refused_ship_is_explained_in_german_naming_the_rule(world):
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    bad = world.admin.post(world.url(f"fleets/{fleet.pk}/ships/"),
                           ship_data(f"newship{fleet.pk}", agility=9), HTTP_ACCEPT_LANGUAGE="de")
    html = page(bad)
    assert bad.status_code == 400
    assert "Die Werte eines Schiffs bleiben in den Grenzen" in html and "(R-FLT-2)" in html


def test_corrections_on_the_area_pages_carry_the_optional_reason(world):
    """R-SEC-2: while the campaign runs the forms and delete buttons ask why (optional)."""
    fleet = FleetFactory(campaign=world.campaign, owner=world.lg.a, area=world.sea)
    assert 'name="area-reason"' not in page(world.admin.get(world.area_url(world.sea)))
    world.lg.start()
    html = page(world.admin.get(world.area_url(world.sea)))
    assert 'name="area-reason"' in html and f'id="reason-fleet-delete-{fleet.pk}"' in html
    saved = world.admin.post(world.area_url(world.sea, "edit/"), {
        "area-name": "Wide sea", "area-kind": "ocean", "area-reason": "Renamed by vote"})
    assert saved.status_code == 302
    assert world.admin.post(world.url(f"fleets/{fleet.pk}/delete/"),
                            {"reason": "Sunk off the table"}).status_code == 302
    assert list(AdminAction.objects.filter(campaign=world.campaign).order_by("id")
                .values_list("kind", "reason")) == [("area.update", "Renamed by vote"),
                                                     ("fleet.delete", "Sunk off the table")]
