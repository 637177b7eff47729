"""The map by keyboard alone (Tab, Enter, Space, Escape; page.keyboard only): a player reaches a
tile with Tab (with a visible focus ring), opens its panel with Enter as a click does, declares
an attack from it (R-ATK-6), then follows their fleet's link from the map's area list and
orders the fleet (R-FLT-4); and the map as text is one link away."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Attack, Tile
from fleets.models import FleetOrder
from tests.e2e.conftest import DESKTOP, OUTPUT, PHONE
from tests.worlds import buy

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 120  # Tab presses before giving up


def tab_to(page, selector: str, *, backwards: bool = False) -> None:
    """Press Tab (Shift+Tab) until the focused element matches ``selector``."""
    for _ in range(LIMIT):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focus_ring(page) -> dict:
    """The focused element's ring: whether :focus-visible applies and its stroke/outline."""
    return page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
        return {visible: e.matches(':focus-visible'), stroke: s.stroke,
                width: parseFloat(s.strokeWidth), outline: s.outlineStyle}; }""")


def test_declare_an_attack_and_order_a_fleet_by_keyboard_alone(browsing, viewport, fleet_world):
    w = fleet_world
    lg = w.league
    target = Tile.objects.get(campaign=lg.campaign, owner=lg.b)  # next to anna's (R-ATK-2 a)
    buy(lg.a, w.rnd, 1)
    page = browsing.signed_in("anna", viewport=viewport,
                              start=f"/campaigns/{lg.campaign.pk}/map/")

    tab_to(page, f'polygon.tile[data-tile-id="{target.pk}"]')
    ring = focus_ring(page)
    assert ring["visible"] and ring["width"] >= 3, ring  # the focus ring shows
    page.keyboard.press("Enter")
    panel = page.locator("#tile-panel")
    expect(panel).to_contain_text("You may attack this tile")
    expect(panel.locator("h2")).to_be_focused()  # the keyboard follows the panel
    page.keyboard.press("Escape")  # and can go back to the tile
    expect(page.locator(f'polygon[data-tile-id="{target.pk}"]')).to_be_focused()
    page.keyboard.press(" ")  # Space opens it as well
    expect(panel.locator("h2")).to_be_focused()
    tab_to(page, "#tile-panel button[type=submit]")
    expect(page.locator(":focus")).to_have_text("Declare attack")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Attack declared on")
    assert Attack.objects.filter(player=lg.a, tile=target, status="active").exists()
    browsing.shot(page, "declared")

    # the reader's own fleet in the map's area list links to its orders
    tab_to(page, f'#area-{w.coast.pk} a[href$="#fleet-{w.anna_fleet.pk}"]')
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/fleets/#fleet-{w.anna_fleet.pk}")
    card = f"#fleet-{w.anna_fleet.pk}"
    tab_to(page, f'{card} [data-path-add="{w.sea.pk}"]')
    page.keyboard.press("Enter")
    tab_to(page, f'{card} [data-path-add="{w.orbit.pk}"]')
    page.keyboard.press(" ")
    expect(page.locator(f"{card} [data-path-steps] li")).to_have_text(["Open sea",
                                                                         "Terra orbit"])
    tab_to(page, f"{card} .path-builder button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Movement order saved.")
    assert FleetOrder.objects.get(fleet=w.anna_fleet).path == [w.sea.pk, w.orbit.pk]


def test_the_map_as_text_is_one_link_from_the_map(browsing, fleet_world):
    lg = fleet_world.league
    page = browsing.signed_in("carl", start=f"/campaigns/{lg.campaign.pk}/map/",
                              locale="de-DE")
    tab_to(page, "a[data-map-text-link]")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Karte als Text")  # after compilemessages
    expect(page.locator("table[data-map-text=tiles] tbody tr")).to_have_count(2)
    areas = page.locator("table[data-map-text=areas]")
    expect(areas).to_contain_text("Open sea")
    expect(areas).not_to_contain_text("Wreckfin")  # ben's fleet's name (R-FLT-7)


LONG_NAMES = ("Nordmarkfestungsanlage der Ewigen Wacht", "Kathedrale des heiligen Imperators",
              "Grauer Pass", "Ödland jenseits der Aschewüste", "Schmiedewelt-Außenposten Vier",
              "Hive Primus", "Mündung", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW")

# every tile name's and owner label's box (in its tile's units) inside the hexagon around
# the tile's centre (radius 24, pointy-top): the letters' band, leaving the font's line gap
INSIDE = """() => {
  const half = y => { y = Math.abs(y); return y >= 24 ? 0 : y <= 12 ? 24 * Math.sqrt(3) / 2
                                                      : Math.sqrt(3) * (24 - y); };
  const out = [];
  for (const text of document.querySelectorAll("svg.hexmap text.tile-name")) {
    for (let i = 0; i < text.getNumberOfChars(); i++) {
      const box = text.getExtentOfChar(i);
      for (const y of [box.y + box.height * 0.2, box.y + box.height * 0.85]) {
        if (box.x < -half(y) || box.x + box.width > half(y)) {
          out.push(text.textContent + ", letter " + i + " at " + y.toFixed(1) + ": "
                   + box.x.toFixed(1) + " to " + (box.x + box.width).toFixed(1));
        }
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["en", "de"])
def test_long_tile_names_are_whole_and_inside_their_hexes(browsing, demo_long_names, viewport,
                                                          locale):
    campaign, named = demo_long_names
    page = browsing.signed_in("anna", viewport=viewport, locale=locale,
                              start=f"/campaigns/{campaign.pk}/map/")
    drawn = page.evaluate("""() => Array.from(document.querySelectorAll(
        "svg.hexmap text.tile-name"), t => t.textContent)""")
    def letters(text: str) -> str:  # a name's lines run together, a cut word's hyphen aside
        return text.replace(" ", "").replace("-", "")

    for name in named:
        assert letters(name) in {letters(text) for text in drawn}, name
    assert page.evaluate(INSIDE) == []
    assert page.locator("svg.hexmap polygon[fill^='url(#owner-']").count() > 0  # patterns
    browsing.shot(page, "map")
    for index in range(page.locator("figure.planet").count()):
        page.locator("figure.planet").nth(index).screenshot(
            path=str(OUTPUT / f"{browsing.name}-planet-{index}.png"))


@pytest.fixture
def demo_long_names(db):
    from campaigns.models import Tile
    from league.demo import demo_create
    from tests.e2e.conftest import PASSWORD

    campaign, _ = demo_create()
    for user in (p.user for p in campaign.players.select_related("user")):
        user.set_password(PASSWORD)
        user.save()
    tiles = list(Tile.objects.filter(campaign=campaign).order_by("id"))
    named = []
    for tile, name in zip(tiles[::2], LONG_NAMES * 4, strict=False):
        tile.name = name
        tile.save()
        named.append(name)
    return campaign, named
