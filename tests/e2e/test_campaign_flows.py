"""In the browser: log in, buy an army and declare an attack by clicking a map tile, switch the
language, and commit a conquest choice to see the dice."""

import re

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns.models import Attack
from tests.e2e.conftest import PHONE
from tests.worlds import advance_to, declare

pytestmark = pytest.mark.django_db(transaction=True)


def test_log_in_and_declare_an_attack_by_clicking_the_map(browsing, viewport, page_world):
    target = page_world.tiles["free"]
    page = browsing.login("anna", viewport=viewport)
    expect(page.locator("h1")).to_have_text("My campaigns")
    page.get_by_role("link", name=page_world.campaign.name).click()
    page.get_by_role("link", name="Map", exact=True).click()
    page.fill("#id_attack_armies", "1")
    page.get_by_role("button", name="Buy").click()
    expect(page.locator(".messages")).to_contain_text("Bought 1 attack army")
    page.locator(f'polygon[data-tile-id="{target.pk}"]').click()
    panel = page.locator("#tile-panel")
    expect(panel).to_contain_text("You may attack this tile")
    browsing.shot(page, "checked")
    panel.get_by_role("button", name="Declare attack").click()
    expect(page.locator(".messages")).to_contain_text("Attack declared on Alpha (2, 0)")
    expect(page.locator("ol.declarations")).to_contain_text("Mechanicus on Alpha (2, 0)")
    assert Attack.objects.filter(player=page_world.lg.a, tile=target, status="active").exists()


def test_a_refused_tile_names_the_broken_rule(browsing, page_world):
    page = browsing.signed_in("anna", viewport=PHONE)
    page.goto(page_world.url("map/"))
    page.locator(f'polygon[data-tile-id="{page_world.tiles["far"].pk}"]').click()
    expect(page.locator("#tile-panel .refusal")).to_contain_text("You may not attack this tile")


def test_on_a_phone_the_tile_panel_comes_into_view(browsing, page_world):
    page = browsing.signed_in("anna", viewport=PHONE)
    page.goto(page_world.url("map/"))
    page.locator(f'polygon[data-tile-id="{page_world.tiles["far"].pk}"]').click()
    panel = page.locator("#tile-panel")
    expect(panel).to_contain_text("You may not attack this tile")
    page.wait_for_function("() => { const b = document.querySelector('#tile-panel')"
                           ".getBoundingClientRect(); return b.top >= 0 && b.top < innerHeight "
                           "- 120; }")
    assert page.evaluate("scrollY") > 300  # the page scrolled down to the panel


def test_switch_the_language(browsing, page_world):
    page = browsing.signed_in("anna")
    page.goto(page_world.url())
    expect(page.locator("html")).to_have_attribute("lang", "en")
    with page.expect_navigation():
        page.select_option("#language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("nav.tabs")).to_contain_text("Übersicht")
    expect(page.locator("h2#events")).to_have_text("Letzte Ereignisse")
    german = browsing.page(locale="de-DE")  # a German browser gets German by default
    german.goto("/accounts/login/")
    expect(german.locator("html")).to_have_attribute("lang", "de")
    expect(german.locator("h1")).to_have_text("Anmelden")


def test_commit_a_conquest_choice_and_see_the_dice(browsing, viewport, page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "battles")
    battle = Battle.objects.get(attack=attack)
    battle_result_enter(battle=battle, by_admin_user=page_world.lg.admin, outcome="victory",
                        attacker_vp=10, defender_vp=2)
    advance_to(page_world.rnd, "conquest")
    page = browsing.signed_in("anna", viewport=viewport)
    page.goto(page_world.url("conquest/"))
    row = page.locator(f'tr[data-attack-id="{attack.pk}"]')
    expect(row.locator("input[type=checkbox]")).to_be_checked()
    expect(row.locator(".chance")).to_contain_text(re.compile(r"\d+/36"))
    page.get_by_role("button", name="Commit my choice").click()
    expect(page.locator(".messages")).to_contain_text("Your choice is sealed.")
    rolls = page.locator("table.rolls")
    expect(rolls.locator(".dice")).to_have_count(1)
    expect(rolls).to_contain_text(re.compile(r"taken|failed"))
