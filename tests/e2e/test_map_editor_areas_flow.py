"""The map editor in the browser: the admin adds two areas, links them by clicking
one and then the other on the chart, places a fleet with two ships and a hidden hazard - at
desktop width and on a phone (``viewport``)."""

import pytest
from playwright.sync_api import expect

from fleets.models import Area, Fleet, SeaHazard
from tests.worlds import make_league, tile

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def one_planet():
    lg = make_league(players=("anna",))
    tile(lg.planet("Terra"), 0, 0, lg.a)
    return lg


def add_area(page, name: str, kind: str) -> None:
    page.locator("#id_new-name").fill(name)
    page.locator("#id_new-kind").select_option(kind)
    page.get_by_role("button", name="Add area").click()
    expect(page.locator(".messages")).to_contain_text(f"Area {name} added.")


def add_ship(page, fleet: Fleet, name: str, attack: str) -> None:
    adder = page.locator(f"#fleet-{fleet.pk} details.add-ship")
    if adder.get_attribute("open") is None:
        adder.locator("summary").click()
    adder.locator(f"#id_newship{fleet.pk}-name").fill(name)
    adder.locator(f"#id_newship{fleet.pk}-attack").fill(attack)
    adder.get_by_role("button", name="Add ship").click()


def test_build_areas_links_fleet_ships_and_hazard(browsing, viewport, one_planet):
    lg = one_planet
    page = browsing.signed_in("orga", viewport=viewport)
    page.goto(f"/campaigns/{lg.campaign.pk}/manage/map/editor/areas/")
    add_area(page, "Northern Sea", "ocean")
    add_area(page, "Southern Sea", "ocean")
    north = Area.objects.get(campaign=lg.campaign, name="Northern Sea")
    south = Area.objects.get(campaign=lg.campaign, name="Southern Sea")

    page.locator(f'[data-link-area="{north.pk}"]').click()
    expect(page.locator("#link-status")).to_contain_text("First area chosen: Northern Sea")
    page.locator(f'[data-link-area="{south.pk}"]').click()
    expect(page.locator(".messages")).to_contain_text("Northern Sea and Southern Sea are linked.")
    expect(page.locator(".area-chart line.area-link")).to_have_count(1)
    assert list(north.adjacent.all()) == [south]
    browsing.shot(page, "linked")

    add_area(page, "Orbit Ring", "ocean")  # by keyboard: focus an area, Enter, then another
    ring = Area.objects.get(campaign=lg.campaign, name="Orbit Ring")
    page.locator(f'[data-link-area="{ring.pk}"]').focus()
    page.keyboard.press("Enter")
    page.locator(f'[data-link-area="{south.pk}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Orbit Ring and Southern Sea are linked.")
    assert set(ring.adjacent.all()) == {south}

    page.get_by_role("link", name="Northern Sea").click()
    page.locator("#id_newfleet-name").fill("Iron Armada")
    page.locator("#id_newfleet-owner").select_option(str(lg.a.pk))
    page.get_by_role("button", name="Place fleet").click()
    expect(page.locator(".messages")).to_contain_text("Fleet Iron Armada placed.")
    fleet = Fleet.objects.get(campaign=lg.campaign, name="Iron Armada")

    add_ship(page, fleet, "Gloriana", "7")
    expect(page.locator(".messages")).to_contain_text("Ship added.")
    add_ship(page, fleet, "Escort", "2")
    expect(page.locator(f"#fleet-{fleet.pk} .editor-ships > li")).to_have_count(2)
    assert list(fleet.ships.values_list("name", "attack", "position")) == [
        ("Gloriana", 7, 1), ("Escort", 2, 2)]

    page.locator("#id_newhazard-name").fill("Kraken")
    page.locator("#id_newhazard-defence").fill("4")
    page.get_by_role("button", name="Place hazard").click()
    expect(page.locator(".messages")).to_contain_text("Hazard placed.")
    assert SeaHazard.objects.get(area=north).defence == 4
    expect(page.locator("#hazards")).to_contain_text("Kraken")
