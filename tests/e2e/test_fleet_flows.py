"""In the browser: build a fleet's path by clicking areas, and step through a naval battle
replay."""

import pytest
from playwright.sync_api import expect

from fleets.models import FleetOrder, NavalBattle

pytestmark = pytest.mark.django_db(transaction=True)


def test_build_a_path_by_clicking_areas(browsing, viewport, fleet_world):
    w = fleet_world
    page = browsing.signed_in("anna", viewport=viewport)
    page.goto(f"/campaigns/{w.league.campaign.pk}/fleets/")
    card = page.locator(f"#fleet-{w.anna_fleet.pk}")
    builder = card.locator("[data-path-builder]")
    expect(builder.locator(f'[data-path-add="{w.orbit.pk}"]')).to_be_hidden()  # not adjacent
    builder.locator(f'[data-path-add="{w.sea.pk}"]').click()
    builder.locator(f'[data-path-add="{w.orbit.pk}"]').click()
    expect(builder.locator("[data-path-steps] li")).to_have_text(["Open sea", "Terra orbit"])
    expect(builder.locator("input[name$=path]")).to_have_value(f"{w.sea.pk}, {w.orbit.pk}")
    builder.get_by_role("button", name="Save the order").click()
    expect(page.locator(".messages")).to_contain_text("Movement order saved.")
    expect(page.locator(f"#fleet-{w.anna_fleet.pk} .path")).to_have_text(
        "Anna's coast → Open sea → Terra orbit")
    assert FleetOrder.objects.get(fleet=w.anna_fleet).path == [w.sea.pk, w.orbit.pk]


def test_open_a_naval_battle_replay(browsing, viewport, resolved_fleet_phase):
    sc = resolved_fleet_phase
    battle = NavalBattle.objects.get(round=sc.rnd, area=sc.areas["X"])
    page = browsing.signed_in("anna", viewport=viewport)
    page.goto(f"/campaigns/{sc.league.campaign.pk}/fleets/")
    page.locator(f'[data-naval-id="{battle.pk}"] a').click()
    steps = page.locator("[data-step]")
    expect(steps.nth(0)).to_be_visible()
    expect(steps.nth(1)).to_be_hidden()  # the step-through shows one step at a time
    position = page.locator("[data-replay-position]")
    expect(position).to_have_text(f"Step 1 of {len(battle.events)}")
    next_step = page.get_by_role("button", name="Next step")
    for _ in range(5):
        next_step.click()
    expect(position).to_have_text(f"Step 6 of {len(battle.events)}")
    expect(page.locator("[data-step].current")).to_contain_text("Iron Fist boards Merchant Prince")
    browsing.shot(page, "boarding")
    page.get_by_role("button", name="Show all").click()
    expect(page.locator("[data-step]:visible")).to_have_count(len(battle.events))
    expect(page.locator("[data-step].capture").first).to_contain_text("captured")
