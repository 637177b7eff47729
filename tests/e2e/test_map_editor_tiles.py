"""In the browser: a new campaign admin builds a planet in the map editor by
clicking on the hex grid (and with the keyboard), names tiles, gives them owners and a feature
and puts a marker on one; at desktop width and on a phone."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Marker, Planet, Tile
from tests.factories import MarkerTypeFactory
from tests.worlds import make_league

pytestmark = pytest.mark.django_db(transaction=True)


def _slot(page, q: int, r: int):
    return page.locator(f'svg.editor-grid a.slot[data-q="{q}"][data-r="{r}"]')


def _name_tile(page, name: str, owner: str, feature: str | None = None) -> None:
    panel = page.locator("#tile-panel")
    panel.get_by_label("Tile name").fill(name)
    panel.get_by_label("Owner").select_option(label=owner)
    if feature:
        panel.get_by_label(feature).check()
    panel.get_by_role("button", name="Save tile").click()
    expect(page.locator(".messages")).to_contain_text(f"Tile {name} (")


def test_a_new_admin_builds_a_planet_by_clicking_the_grid(browsing, viewport):
    lg = make_league(admin="neworga", players=("anna", "ben"))
    MarkerTypeFactory(campaign=lg.campaign, code="manufactorum", name="Manufactorum")
    page = browsing.signed_in("neworga", viewport=viewport)
    page.goto(f"/campaigns/{lg.campaign.pk}/manage/")
    page.get_by_role("link", name="Open the map editor").click()
    expect(page.locator("h1")).to_have_text("Map editor: planets and tiles")
    page.get_by_label("Planet name").fill("Armageddon")
    page.get_by_role("button", name="Add planet").click()
    expect(page.locator(".messages")).to_contain_text("Planet Armageddon added.")

    _slot(page, 0, 0).click()  # an empty hex: a tile is added there
    expect(page.locator("#tile-panel h2")).to_have_text("Tile Armageddon (0, 0)")
    _name_tile(page, "Hive Gate", f"{lg.a.faction} (anna)", "Spaceport")

    _slot(page, 1, 0).click()
    expect(page.locator("#tile-panel h2")).to_have_text("Tile Armageddon (1, 0)")
    _name_tile(page, "Ash Wastes", f"{lg.b.faction} (ben)")

    keyboard = _slot(page, 0, 1)  # the keyboard: a hex is a link, Enter adds the tile
    keyboard.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tile-panel h2")).to_have_text("Tile Armageddon (0, 1)")

    gate = Tile.objects.get(campaign=lg.campaign, name="Hive Gate")
    page.locator(f'svg.editor-grid a.tile[data-tile-id="{gate.pk}"]').click()
    expect(page.locator("#tile-panel h2")).to_have_text("Tile Hive Gate (Armageddon)")
    page.locator("#tile-panel").get_by_label("Marker type").select_option(label="Manufactorum")
    page.get_by_role("button", name="Add marker").click()
    expect(page.locator(".messages")).to_contain_text("Marker added to Hive Gate")
    expect(page.locator("svg.editor-grid a.tile.selected use.icon-marker")).to_have_count(1)
    browsing.shot(page, "built")

    planet = Planet.objects.get(campaign=lg.campaign)
    tiles = {(t.q, t.r): t for t in Tile.objects.filter(planet=planet)}
    assert set(tiles) == {(0, 0), (1, 0), (0, 1)}
    assert (tiles[0, 0].name, tiles[0, 0].owner, tiles[0, 0].features) == (
        "Hive Gate", lg.a, ["spaceport"])
    assert (tiles[1, 0].name, tiles[1, 0].owner) == ("Ash Wastes", lg.b)
    assert Marker.objects.get().tile == tiles[0, 0]


def test_an_occupied_hex_is_a_form_error_in_the_browser(browsing):
    lg = make_league(admin="neworga", players=("anna",))
    planet = lg.planet("Alpha")
    Tile.objects.create(campaign=lg.campaign, planet=planet, q=0, r=0)
    page = browsing.signed_in("neworga", locale="de-DE")
    page.goto(f"/campaigns/{lg.campaign.pk}/manage/map/editor/?planet={planet.pk}")
    expect(page.locator("h1")).to_have_text("Karteneditor: Planeten und Felder")
    form = page.locator("#add-tile")
    form.locator("[name=slot-q]").fill("0")
    form.locator("[name=slot-r]").fill("0")
    form.get_by_role("button").click()
    expect(form.locator(".errorlist")).to_contain_text("(0, 0)")
