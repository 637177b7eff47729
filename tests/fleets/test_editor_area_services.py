"""The map editor, areas and fleets: the services behind the areas and fleets editor. Areas, links
and coastal borders (R-MAP-3), fleets (R-FLT-1), ships within R-FLT-2 with the D6 datasheet
(R-SPC-1), hidden hazards (R-SEA-2); in a running campaign every write is a correction: refused
while the fleets phase runs (R-RND-2), logged otherwise, hidden facts never in a public entry
(R-FLT-7)."""

import json

import pytest

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import AdminAction
from fleets.models import Area, Fleet, FleetOrder, SeaHazard, Ship
from fleets.services import area_links, areas, hazards, ships
from fleets.services import fleets as fleet_services
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory
from tests.worlds import datasheet, make_league, tile

pytestmark = pytest.mark.django_db

SECRET_SHIP = "Leviathan of Secrets"
SECRET_HAZARD = "Abyssal Maw"


@pytest.fixture
def lg():
    league = make_league(players=("anna", "ben"))
    planet = league.planet("Terra")
    league.tiles = [tile(planet, 0, 0, league.a), tile(planet, 1, 0, league.b)]
    league.planet_obj = planet
    return league


def running(lg, phase: str = "declare"):
    rnd = lg.start()
    lg.campaign.refresh_from_db()  # the objects built on it see the campaign running
    rnd.phase = phase
    rnd.save(update_fields=["phase"])
    return rnd


def entries(lg, kind: str | None = None):
    found = AdminAction.objects.filter(campaign=lg.campaign)
    return list(found.filter(kind=kind) if kind else found)


# --- areas, links, borders ------------------------------------------------------------------


def test_before_the_start_area_writes_are_free_and_unlogged(lg):
    sea = areas.area_create(campaign=lg.campaign, name="Sea", kind="ocean", actor=lg.admin)
    areas.area_update(area=sea, name="Deep sea", actor=lg.admin)
    assert Area.objects.get(pk=sea.pk).name == "Deep sea"
    assert entries(lg) == []


def test_r_map_3_link_two_areas_symmetric_never_itself_or_twice(lg):
    a = AreaFactory(campaign=lg.campaign, name="A")
    b = AreaFactory(campaign=lg.campaign, name="B", kind="island")
    area_links.area_link_add(a=b, b=a, actor=lg.admin)
    assert list(a.adjacent.all()) == [b] and list(b.adjacent.all()) == [a]
    with pytest.raises(RuleViolation, match="linked already") as twice:
        area_links.area_link_add(a=a, b=b, actor=lg.admin)
    assert twice.value.code == "R-MAP-3"
    with pytest.raises(RuleViolation, match="not adjacent to itself"):
        area_links.area_link_add(a=a, b=a, actor=lg.admin)
    area_links.area_link_remove(a=a, b=b, actor=lg.admin)
    assert not a.adjacent.exists()
    with pytest.raises(RuleViolation, match="not linked"):
        area_links.area_link_remove(a=a, b=b, actor=lg.admin)


def test_r_map_3_link_refuses_another_campaigns_area(lg):
    other = make_league(name="Other", players=("carl",), admin="orga2")
    a = AreaFactory(campaign=lg.campaign)
    with pytest.raises(RuleViolation, match="another campaign"):
        area_links.area_link_add(a=a, b=AreaFactory(campaign=other.campaign))


def test_r_map_3_only_a_coastal_area_borders_tiles(lg):
    coast = AreaFactory(campaign=lg.campaign, kind="coastal")
    area_links.area_borders_set(area=coast, tiles=lg.tiles[:1], actor=lg.admin)
    assert list(coast.borders_tiles.all()) == lg.tiles[:1]
    ocean = AreaFactory(campaign=lg.campaign, kind="ocean")
    with pytest.raises(RuleViolation, match="only a coastal area") as refused:
        area_links.area_borders_set(area=ocean, tiles=lg.tiles, actor=lg.admin)
    assert refused.value.code == "R-MAP-3"
    assert not ocean.borders_tiles.exists()


def test_running_campaign_logs_area_corrections_publicly(lg):
    a = AreaFactory(campaign=lg.campaign, name="A")
    b = AreaFactory(campaign=lg.campaign, name="B")
    running(lg)
    areas.area_update(area=a, name="Alpha", actor=lg.admin)
    area_links.area_link_add(a=a, b=b, actor=lg.admin)
    [rename] = entries(lg, "area.update")
    assert (rename.actor, rename.public) == (lg.admin, True)
    assert rename.before["name"] == "A" and rename.after["name"] == "Alpha"
    [link] = entries(lg, "area.link")
    assert link.after == {"linked": True} and "Alpha" in link.target


def test_r_rnd_2_area_corrections_refused_while_the_fleets_phase_runs(lg):
    a = AreaFactory(campaign=lg.campaign, name="A")
    b = AreaFactory(campaign=lg.campaign, name="B")
    running(lg, "fleets")
    for write in (lambda: areas.area_update(area=a, name="Alpha", actor=lg.admin),
                  lambda: area_links.area_link_add(a=a, b=b, actor=lg.admin),
                  lambda: areas.area_create(campaign=lg.campaign, name="C", kind="ocean"),
                  lambda: areas.area_delete(area=b, actor=lg.admin)):
        with pytest.raises(Conflict, match="R-RND-2"):
            write()
    assert Area.objects.get(pk=a.pk).name == "A" and not a.adjacent.exists()
    assert Area.objects.filter(campaign=lg.campaign).count() == 2
    assert entries(lg) == []


# --- fleets and ships -----------------------------------------------------------------------


def test_r_flt_1_fleet_place_move_owner_rename(lg):
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    coast = AreaFactory(campaign=lg.campaign, name="Coast", kind="coastal")
    fleet = fleet_services.fleet_create(campaign=lg.campaign, name="First", area=sea,
                                        owner=lg.a, actor=lg.admin)
    fleet_services.fleet_update(fleet=fleet, name="Renamed", area=coast, owner=lg.b,
                                admiral_rating=2, actor=lg.admin)
    fleet.refresh_from_db()
    assert (fleet.name, fleet.area, fleet.owner, fleet.admiral_rating) == (
        "Renamed", coast, lg.b, 2)
    with pytest.raises(RuleViolation, match="pirate fleet belongs to no player") as pirate:
        fleet_services.fleet_update(fleet=fleet, kind="pirate", actor=lg.admin)
    assert pirate.value.code == "R-FLT-1"
    with pytest.raises(RuleViolation, match="0 to 3"):
        fleet_services.fleet_update(fleet=fleet, admiral_rating=4, actor=lg.admin)


@pytest.mark.parametrize("change", ["area", "owner"])
def test_r_flt_4_moving_or_handing_over_a_fleet_drops_its_open_order(lg, change):
    """An order given from the old area or by the old owner does not carry over; a rename
    keeps it."""
    rnd = running(lg)
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    coast = AreaFactory(campaign=lg.campaign, name="Coast", kind="coastal")
    sea.adjacent.add(coast)
    fleet = FleetFactory(campaign=lg.campaign, area=sea, owner=lg.a)
    FleetOrder.objects.create(round=rnd, fleet=fleet, path=[coast.pk])
    fleet_services.fleet_update(fleet=fleet, name="Renamed", actor=lg.admin)
    assert FleetOrder.objects.filter(fleet=fleet).exists()
    fleet_services.fleet_update(fleet=fleet, actor=lg.admin,
                                **({"area": coast} if change == "area" else {"owner": lg.b}))
    assert not FleetOrder.objects.filter(fleet=fleet).exists()


@pytest.mark.parametrize(("field", "value"), [("attack", 51), ("defence", 0), ("agility", 8),
                                              ("capacity", -1)])
def test_r_flt_2_ship_values_out_of_bounds_are_refused_on_add_and_edit(lg, field, value):
    fleet = FleetFactory(campaign=lg.campaign, owner=lg.a,
                         area=AreaFactory(campaign=lg.campaign))
    with pytest.raises(RuleViolation, match="R-FLT-2") as added:
        fleet_services.ship_create(fleet=fleet, name="Bad", **{field: value})
    assert (added.value.code, added.value.field) == ("R-FLT-2", field)
    ship = ShipFactory(fleet=fleet, name="Good")
    with pytest.raises(RuleViolation, match="R-FLT-2") as edited:
        ships.ship_update(ship=ship, **{field: value})
    assert edited.value.field == field
    ship.refresh_from_db()
    assert getattr(ship, field) == getattr(ShipFactory.build(), field)


def test_r_spc_1_ship_datasheet_complete_or_absent(lg):
    lg.set_rules(naval_engine="d6_space")
    fleet = FleetFactory(campaign=lg.campaign, owner=lg.a,
                         area=AreaFactory(campaign=lg.campaign))
    ship = fleet_services.ship_create(fleet=fleet, name="Sheet", datasheet=datasheet("4D+1"))
    partial = {k: v for k, v in datasheet("4D").items() if k != "hull"}
    with pytest.raises(RuleViolation, match="R-SPC-1") as refused:
        ships.ship_update(ship=ship, datasheet=partial)
    assert refused.value.field == "datasheet.hull"
    ships.ship_update(ship=ship, datasheet=None, attack=7)
    ship.refresh_from_db()
    assert (ship.datasheet, ship.attack) == (None, 7)


def test_map_import_and_editor_share_one_ship_check(lg):
    """R-FLT-2: the editor's ship check is the map import's (``rules.ship_values``)."""
    from league.services import map_document

    assert map_document.ship_problems is fleet_services.ship_problems


def test_ship_delete_closes_the_line(lg):
    fleet = FleetFactory(campaign=lg.campaign, owner=lg.a,
                         area=AreaFactory(campaign=lg.campaign))
    first, middle, last = (ShipFactory(fleet=fleet, position=i, name=f"S{i}")
                           for i in (1, 2, 3))
    ships.ship_delete(ship=middle, actor=lg.admin)
    assert list(fleet.ships.order_by("position").values_list("name", "position")) == [
        ("S1", 1), ("S3", 2)]


def test_r_flt_7_fleet_corrections_log_hidden_facts_privately_only(lg):
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    running(lg)
    fleet = fleet_services.fleet_create(campaign=lg.campaign, name="Secret Armada", area=sea,
                                        owner=lg.a, actor=lg.admin)
    ship = fleet_services.ship_create(fleet=fleet, name=SECRET_SHIP, attack=9, actor=lg.admin)
    ships.ship_update(ship=ship, attack=11, actor=lg.admin)
    fleet_services.fleet_update(fleet=fleet, name="Other Secret", actor=lg.admin)
    ships.ship_delete(ship=ship, actor=lg.admin)
    public = [e for e in entries(lg) if e.public]
    assert {e.kind for e in public} == {"fleet.create", "fleet.update"}
    for entry in public:
        text = json.dumps([entry.target, entry.before, entry.after])
        assert SECRET_SHIP not in text and "Secret" not in text, text
        for facts in (entry.before, entry.after):
            assert facts is None or set(facts) == {"owner", "area", "ship_count"}
    hidden = {e.kind for e in entries(lg) if not e.public}
    assert {"ship.create", "ship.update", "ship.delete", "fleet.update"} <= hidden
    [update] = entries(lg, "ship.update")
    assert (update.before["attack"], update.after["attack"]) == (9, 11)


def test_r_rnd_2_fleet_ship_hazard_corrections_refused_in_the_fleets_phase(lg):
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    fleet = FleetFactory(campaign=lg.campaign, owner=lg.a, area=sea)
    ship = ShipFactory(fleet=fleet)
    hazard = SeaHazardFactory(area=sea, name=SECRET_HAZARD)
    running(lg, "fleets")
    writes = [
        lambda: fleet_services.fleet_create(campaign=lg.campaign, name="F", area=sea,
                                            owner=lg.b, actor=lg.admin),
        lambda: fleet_services.fleet_update(fleet=fleet, name="X", actor=lg.admin),
        lambda: fleet_services.ship_create(fleet=fleet, name="S", actor=lg.admin),
        lambda: ships.ship_update(ship=ship, attack=5, actor=lg.admin),
        lambda: ships.ship_delete(ship=ship, actor=lg.admin),
        lambda: fleet_services.hazard_create(campaign=lg.campaign, area=sea, name="H",
                                             actor=lg.admin),
        lambda: hazards.hazard_update(hazard=hazard, attack=5, actor=lg.admin),
        lambda: fleet_services.hazard_delete(hazard=hazard, actor=lg.admin),
    ]
    for write in writes:
        with pytest.raises(Conflict):
            write()
    assert Fleet.objects.filter(campaign=lg.campaign).count() == 1
    assert Ship.objects.filter(fleet=fleet).count() == 1
    assert SeaHazard.objects.get(pk=hazard.pk).attack == hazard.attack
    assert entries(lg) == []


# --- hazards --------------------------------------------------------------------------------


def test_r_sea_2_hazard_edit_within_ship_bounds_and_logged_for_admins_only(lg):
    sea = AreaFactory(campaign=lg.campaign, name="Sea")
    running(lg)
    hazard = fleet_services.hazard_create(campaign=lg.campaign, area=sea, name=SECRET_HAZARD,
                                          attack=3, actor=lg.admin)
    hazards.hazard_update(hazard=hazard, defence=4, actor=lg.admin)
    with pytest.raises(RuleViolation, match="R-SEA-2") as refused:
        hazards.hazard_update(hazard=hazard, agility=8, actor=lg.admin)
    assert refused.value.field == "agility"
    fleet_services.hazard_delete(hazard=hazard, actor=lg.admin)
    logged = entries(lg)
    assert {e.kind for e in logged} == {"hazard.create", "hazard.update", "hazard.delete"}
    assert not any(e.public for e in logged)
    assert all(SECRET_HAZARD not in json.dumps([e.target, e.before, e.after])
               for e in logged if e.public)


def test_r_sea_2_hazard_owner_must_own_the_island(lg):
    island = AreaFactory(campaign=lg.campaign, kind="island", owner=lg.a)
    hazard = fleet_services.hazard_create(campaign=lg.campaign, area=island, name="Reef",
                                          owner=lg.a)
    with pytest.raises(RuleViolation, match="owner of its island") as refused:
        hazards.hazard_update(hazard=hazard, owner=lg.b)
    assert refused.value.code == "R-SEA-2"


def test_a_player_placing_a_hazard_is_no_correction(lg):
    """R-SEA-2: an island owner's own hazard is a player's action, not an admin's."""
    island = AreaFactory(campaign=lg.campaign, kind="island", owner=lg.a)
    running(lg)
    fleet_services.hazard_place(player=lg.a, area=island, name="Reef")
    assert entries(lg) == []
