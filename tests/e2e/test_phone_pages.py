"""Phone pages (390 x 844): the campaign tabs are one row scrolling sideways, the account in a
menu; the deciding columns (a conquest's chance, the standings' victory points) stay in view
without sideways scrolling; a result below its form comes into view after submit; the manage
page folds its sections and reaches each in one tap; the time zone menu picks the browser's
zone. (The height of the page top: tests/e2e/test_phone_layout.py.) Screenshots in
test-output/e2e, and in $FELDZUG_SHOTS when set."""

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from campaigns.models import Tile
from tests.e2e.conftest import PHONE
from tests.factories import UserFactory
from tests.worlds import advance_to, declare, session_of

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("FELDZUG_SHOTS")  # a folder to save the screenshots in as well

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# Cells (by selector) whose box reaches outside the viewport's width.
OUT_OF_VIEW = """(selector) => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll(selector)].filter(cell => {
    const box = cell.getBoundingClientRect();
    return box.left < -0.5 || box.right > width + 0.5;
  }).map(cell => cell.textContent.trim());
}"""


def _shot(browsing, page, name: str) -> None:
    browsing.shot(page, name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_the_tabs_scroll_in_one_row_with_the_current_tab_in_view(browsing, page_world):
    page = browsing.signed_in("anna", viewport=PHONE, locale="de-DE",
                              start=page_world.url("log/"))
    row = page.locator("[data-tab-row]")
    assert row.evaluate("el => el.scrollWidth > el.clientWidth")  # more tabs than fit
    expect(row.locator("[aria-current=page]")).to_be_in_viewport(ratio=1)
    # the account menu opens from the user's name and closes on Escape
    page.locator("details[data-menu] summary").click()
    expect(page.get_by_role("button", name="Abmelden")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Abmelden")).to_be_hidden()


def test_the_deciding_columns_stay_in_view_on_a_phone(browsing, page_world):
    """Anna won two attacks on neutral tiles with long names: her conquest choice shows each
    tile's name and chance within the screen; the standings show every player's victory
    points."""
    for key, name in (("free", "Grauer Pass am Nordhang"), ("far", "Festung Eisenwacht")):
        Tile.objects.filter(pk=page_world.tiles[key].pk).update(name=name)
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=2)
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["far"], armies=0)
    advance_to(page_world.rnd, "conquest")
    page = browsing.signed_in("anna", viewport=PHONE, locale="de-DE",
                              start=page_world.url("conquest/"))
    expect(page.locator("td.chance")).to_have_count(2)
    assert page.evaluate(SIDEWAYS) == 0
    assert page.evaluate(OUT_OF_VIEW, "td.chance, table.conquest thead th:last-child") == []
    assert page.evaluate(OUT_OF_VIEW, "table.conquest [data-map-link]") == []
    _shot(browsing, page, "de-conquest-choice")

    page.goto(page_world.url("standings/"))
    assert page.evaluate(SIDEWAYS) == 0
    assert page.evaluate(OUT_OF_VIEW, "table.standings :is(th, td):nth-child(6)") == []
    if page.locator("table.standings").evaluate("t => t.parentElement.scrollWidth > "
                                                "t.parentElement.clientWidth"):
        expect(page.locator(".scroll-hint")).to_be_visible()  # says the table scrolls
    _shot(browsing, page, "de-standings")


def test_the_naval_odds_come_into_view_after_show_the_odds(browsing, fleet_world):
    w = fleet_world
    page = browsing.signed_in(w.league.a.user.username, viewport=PHONE,
                              start=f"/campaigns/{w.league.campaign.pk}/fleets/")
    page.select_option("#id_odds-attacker", f"fleet-{w.anna_fleet.pk}")
    page.select_option("#id_odds-defender", "hand")
    page.fill("#id_odds-defender_ships", "3 4 3\n2 5 2")
    page.get_by_role("button", name="Show the odds").click()
    result = page.locator("#naval-odds-result")
    expect(result).to_be_in_viewport()
    expect(result).to_be_focused()
    _shot(browsing, page, "en-naval-odds")


def test_the_manage_page_folds_its_sections_and_reaches_each_in_one_tap(browsing, page_world):
    admin = page_world.lg.admin.username
    page = browsing.signed_in(admin, viewport=PHONE, locale="de-DE",
                              start=page_world.url("manage/"))
    assert page.evaluate("document.documentElement.scrollHeight") < 3000
    expect(page.locator("details#round")).to_have_attribute("open", "")
    expect(page.locator("details#settings")).not_to_have_attribute("open", "")
    _shot(browsing, page, "de-manage")
    page.locator(".section-nav").get_by_role("link", name="Einstellungen").click()
    expect(page.locator("details#settings")).to_have_attribute("open", "")
    name = page.locator("#id_name")
    expect(name).to_be_in_viewport()
    name.fill("Liga Nord")
    page.locator("#settings").get_by_role("button").click()
    page.wait_for_url(re.compile(r"/manage/#settings$"))
    expect(page.locator("details#settings")).to_have_attribute("open", "")  # back where it was
    expect(page.locator("#id_name")).to_have_value("Liga Nord")


def test_the_time_zone_menu_picks_the_browser_s_zone(browsing, db):
    """A staff member without a zone of their own creates a campaign: the menu, which only
    holds the site's default, shows the browser's zone; the common zones come first."""
    UserFactory(username="chef", is_staff=True)
    context = browsing.browser.new_context(viewport=PHONE, base_url=browsing.base,
                                           locale="de-DE", timezone_id="Europe/Vienna")
    browsing.contexts.append(context)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": browsing.base,
                          "value": session_of("chef")}])
    page = context.new_page()
    browsing.pages.append(page)
    page.goto("/")
    zone = page.locator("#id_time_zone")
    expect(zone).to_have_value("Europe/Vienna")
    first = zone.locator("optgroup").first.locator("option")
    assert first.evaluate_all("os => os.map(o => o.value)") == [
        "Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/London", "UTC"]
