"""A whole map built in the browser: a new campaign admin builds a two-planet map with
areas and a fleet entirely in the map editor, and the players' map then draws it all."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Planet, Tile
from fleets.models import Area, Fleet
from tests.e2e.test_map_editor_areas_flow import add_area, add_ship
from tests.e2e.test_map_editor_tiles import _name_tile, _slot
from tests.worlds import make_league

pytestmark = pytest.mark.django_db(transaction=True)


def _planet_with_tiles(page, planet: str, tiles: list[tuple[int, int, str, str]]) -> None:
    page.locator("#id_new-name").fill(planet)
    page.get_by_role("button", name="Add planet").click()
    expect(page.locator(".messages")).to_contain_text(f"Planet {planet} added.")
    for q, r, name, owner in tiles:
        _slot(page, q, r).click()
        _name_tile(page, name, owner)


def test_a_new_admin_builds_a_two_planet_map_with_areas_and_a_fleet(browsing, viewport):
    lg = make_league(admin="neworga", players=("anna", "ben"))
    anna, ben = f"{lg.a.faction} (anna)", f"{lg.b.faction} (ben)"
    page = browsing.signed_in("neworga", viewport=viewport)
    page.goto(f"/campaigns/{lg.campaign.pk}/manage/")
    page.get_by_role("link", name="Open the map editor").click()
    _planet_with_tiles(page, "Ryza", [(0, 0, "Forge", anna), (1, 0, "Slag", ben)])
    _planet_with_tiles(page, "Tallarn", [(0, 0, "Dunes", ben)])

    page.get_by_role("link", name="Areas & fleets").click()
    add_area(page, "Void Lane", "ocean")
    add_area(page, "Iron Deep", "ocean")
    lane = Area.objects.get(campaign=lg.campaign, name="Void Lane")
    deep = Area.objects.get(campaign=lg.campaign, name="Iron Deep")
    page.locator(f'[data-link-area="{lane.pk}"]').click()
    page.locator(f'[data-link-area="{deep.pk}"]').click()
    expect(page.locator(".messages")).to_contain_text("Void Lane and Iron Deep are linked.")
    page.get_by_role("link", name="Void Lane").click()
    page.locator("#id_newfleet-name").fill("Forge Fleet")
    page.locator("#id_newfleet-owner").select_option(str(lg.a.pk))
    page.get_by_role("button", name="Place fleet").click()
    fleet = Fleet.objects.get(campaign=lg.campaign, name="Forge Fleet")
    add_ship(page, fleet, "Lance", "5")
    expect(page.locator(".messages")).to_contain_text("Ship added.")

    assert list(Planet.objects.filter(campaign=lg.campaign).values_list("name", flat=True)) == [
        "Ryza", "Tallarn"]
    assert Tile.objects.filter(campaign=lg.campaign).count() == 3
    assert list(lane.adjacent.all()) == [deep]

    page.goto(f"/campaigns/{lg.campaign.pk}/map/")
    for name in ("Ryza", "Tallarn", "Void Lane", "Iron Deep"):
        expect(page.locator("main")).to_contain_text(name)
    expect(page.locator(f'[data-tile-id="{Tile.objects.get(name="Forge").pk}"]').first
           ).to_be_visible()
    browsing.shot(page, "map")
