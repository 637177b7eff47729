"""The map view in the browser: the map of the demo campaign (two planets, every kind of
area, fleets of four players and pirates) with tile names and anna's movement order, zoomed
and panned by buttons, keys and dragging, at desktop width and on a phone, in English and
German (screenshots in test-output/e2e)."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Tile
from fleets.models import Area, Fleet, FleetOrder
from league.demo import demo_create
from tests.e2e.conftest import DESKTOP, OUTPUT, PASSWORD, PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(db):
    campaign, _ = demo_create()
    for user in (p.user for p in campaign.players.select_related("user")):
        user.set_password(PASSWORD)
        user.save()
    for index, tile in enumerate(Tile.objects.filter(campaign=campaign, q=0, r=0)):
        tile.name = ("Primus", "Tempest")[index]
        tile.save()
    fleet = Fleet.objects.get(campaign=campaign, name="Forge Fleet Ryza")
    lanes = Area.objects.filter(campaign=campaign, kind="ocean").order_by("id")
    FleetOrder.objects.create(round=campaign.rounds.get(), fleet=fleet,
                              path=[a.pk for a in lanes])
    return campaign


def _view_box(page, selector: str) -> list[float]:
    return [float(n) for n in page.locator(selector).first.get_attribute("viewBox").split()]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["en", "de"])
def test_the_map_shows_the_theatre(browsing, demo, viewport, locale):
    page = browsing.signed_in("anna", viewport=viewport, locale=locale)
    page.goto(f"/campaigns/{demo.pk}/map/")
    chart = page.locator("svg.theatre")
    expect(chart).to_be_visible()
    expect(chart.locator(".area-node")).to_have_count(6)
    expect(chart.locator("path.order")).to_have_count(1)
    expect(page.locator(".zoom-controls").first).to_be_visible()
    expect(page.locator("svg.hexmap text.tile-name", has_text="Primus")).to_have_count(1)
    browsing.shot(page, "map")
    for name, part in (("planet", page.locator("figure.planet").first),
                       ("chart", page.locator(".theatre-section"))):
        part.screenshot(path=str(OUTPUT / f"{browsing.name}-{name}-only.png"))


def test_zoom_by_buttons_keys_and_drag_without_selecting_a_tile(browsing, demo):
    page = browsing.signed_in("anna")
    page.goto(f"/campaigns/{demo.pk}/map/")
    hexmap = "figure.planet svg.hexmap"
    whole = _view_box(page, hexmap)
    page.locator("figure.planet [data-zoom-in]").first.click()
    zoomed = _view_box(page, hexmap)
    assert zoomed[2] == pytest.approx(whole[2] / 1.5, abs=0.2)
    page.locator("figure.planet polygon.tile").first.focus()
    page.keyboard.press("+")
    assert _view_box(page, hexmap)[2] < zoomed[2]
    page.keyboard.press("0")
    assert _view_box(page, hexmap) == pytest.approx(whole, abs=0.2)
    page.locator("figure.planet [data-zoom-in]").first.click()
    before = _view_box(page, hexmap)
    box = page.locator(hexmap).first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 40,
                    steps=5)
    page.mouse.up()
    assert _view_box(page, hexmap)[0] < before[0]  # dragged right: the view moved left
    expect(page.locator("#tile-panel [data-selected-tile]")).to_have_count(0)
    page.locator("figure.planet [data-zoom-reset]").first.click()
    page.locator("figure.planet polygon.tile").first.click()
    expect(page.locator("#tile-panel [data-selected-tile]")).to_have_count(1)


def test_an_area_link_selects_the_area(browsing, demo):
    area = Area.objects.get(campaign=demo, name="Maelstrom reach")
    page = browsing.signed_in("anna", viewport=PHONE)
    page.goto(f"/campaigns/{demo.pk}/map/")
    page.locator(f"#chart-area-{area.pk} a").click()
    expect(page).to_have_url(f"{browsing.base}/campaigns/{demo.pk}/map/?area={area.pk}"
                             f"#area-{area.pk}")
    card = page.locator(f"#area-{area.pk}")
    expect(card).to_have_class("card area selected")
    expect(card).to_be_in_viewport()
