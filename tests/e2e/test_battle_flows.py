"""In the browser: hand in an army list by uploading a roster, agree a date (one proposes, the
other accepts), report and confirm a result."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from battles.models import ArmyList, Battle
from tests.battles.tabletop import ros
from tests.worlds import battle_url, page_duel

pytestmark = pytest.mark.django_db(transaction=True)


def test_upload_a_roster_and_see_the_parsed_units(browsing, viewport, page_world):
    battle = page_duel(page_world, "lists")
    page = browsing.signed_in("anna", viewport=viewport)
    page.goto(page_world.url("battles/"))
    page.locator(f'[data-battle-id="{battle.pk}"] h3 a').click()
    expect(page.locator("#limits table")).to_contain_text("Mechanicus")
    roster = ros([("Tech-Priest Dominus", 95), ("Skitarii Rangers", 100)], total=200,
                 name="Forge cohort")
    page.set_input_files("#id_file", files=[{"name": "cohort.ros", "mimeType":
                                             "application/xml", "buffer": roster}])
    page.get_by_role("button", name="Hand in the list").click()
    expect(page.locator(".messages")).to_contain_text("Your army list is in: 195 points.")
    units = page.locator("table.units")
    expect(units).to_contain_text("Tech-Priest Dominus")
    expect(units).to_contain_text("Skitarii Rangers")
    expect(page.locator(".warnings")).to_be_visible()  # the roster states 200, the sum is 195
    assert ArmyList.objects.get(battle=battle, player=page_world.lg.a).source == "ros"


def test_propose_and_accept_a_date(browsing, viewport, page_world):
    battle = page_duel(page_world, "lists")
    when = (timezone.now() + timedelta(days=6)).replace(hour=19, minute=30)
    anna = browsing.signed_in("anna", viewport=viewport)
    anna.goto(battle_url(page_world, battle))
    anna.fill("#id_proposed_at", when.strftime("%Y-%m-%dT%H:%M"))
    anna.fill("#id_place", "Club cellar, table 3")
    anna.get_by_role("button", name="Propose", exact=True).click()
    expect(anna.locator(".proposal")).to_contain_text("waiting for your opponent")
    ben = browsing.signed_in("ben", viewport=viewport)
    ben.goto(battle_url(page_world, battle))
    expect(ben.locator(".proposal")).to_contain_text("Club cellar, table 3")
    ben.get_by_role("button", name="Accept this date").click()
    expect(ben.locator("[data-scheduled]")).to_contain_text("Agreed:")
    expect(ben.locator("[data-scheduled]")).to_contain_text("Club cellar, table 3")
    battle.refresh_from_db()
    assert battle.scheduled_at == when.replace(second=0, microsecond=0)


def test_report_and_confirm_a_result(browsing, viewport, page_world):
    battle = page_duel(page_world, "battles")
    anna = browsing.signed_in("anna", viewport=viewport)
    anna.goto(battle_url(page_world, battle))
    anna.select_option("#id_outcome", "defeat")
    anna.fill("#id_attacker_vp", "3")
    anna.fill("#id_defender_vp", "14")
    anna.get_by_role("button", name="Report", exact=True).click()
    expect(anna.locator("[data-result-status]")).to_contain_text("reported")
    ben = browsing.signed_in("ben", viewport=viewport)
    ben.goto(battle_url(page_world, battle))
    expect(ben.locator("#result")).to_contain_text("Your opponent reported this result")
    ben.get_by_role("button", name="Confirm the result").click()
    expect(ben.locator("[data-result-status]")).to_contain_text("confirmed")
    expect(ben.locator("ol.history li")).to_have_count(2)
    battle.refresh_from_db()
    assert (battle.result_status, battle.outcome, battle.defender_vp) == ("confirmed", "defeat",
                                                                         14)
    assert battle.status == Battle.Status.DONE
