"""Costly one-click actions ask first, in the browser: with script the question opens in a
dialog (Cancel and Escape change nothing, "Yes" acts); without script the same question is a
page. Phone and desktop, English and German; screenshots in test-output/e2e/."""

import re

import pytest
from django.conf import settings

from campaigns.models import Attack, Round
from tests.e2e.conftest import DESKTOP, OUTPUT, PHONE, TIMEOUT_MS
from tests.worlds import declare, session_of

pytestmark = pytest.mark.django_db(transaction=True)
DIALOG = "dialog.confirm-dialog[open]"


def _seen(browsing, page, step: str) -> None:
    """A screenshot of what the reader sees (the viewport, where the dialog sits)."""
    page.screenshot(path=str(OUTPUT / f"{browsing.name}-{step}.png"))


def _status(attack: Attack) -> str:
    attack.refresh_from_db()
    return attack.status


def test_withdraw_asks_in_a_dialog_and_cancel_keeps_the_attack(browsing, page_world):
    lg = page_world.lg
    attack = declare(lg.a, page_world.rnd, page_world.tiles["free"])
    page = browsing.signed_in(lg.a.user.username, viewport=PHONE,
                              start=page_world.url("map/"))
    withdraw = page.locator(f'li[data-attack-id="{attack.pk}"] button')
    withdraw.click()
    dialog = page.locator(DIALOG)
    dialog.wait_for()
    text = dialog.inner_text()
    assert "Withdraw your attack on Alpha (2, 0)?" in text
    assert "Its attack army stays spent" in text and "not refunded" in text
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Cancel"  # Enter alone never acts
    _seen(browsing, page, "phone-en-dialog")
    dialog.get_by_role("link", name="Cancel").click()
    page.locator(DIALOG).wait_for(state="hidden")
    assert _status(attack) == Attack.Status.ACTIVE
    assert page.url.endswith(page_world.url("map/"))  # still on the map, nothing sent
    withdraw.click()
    page.locator(DIALOG).wait_for()
    page.keyboard.press("Escape")
    page.locator(DIALOG).wait_for(state="hidden")
    assert _status(attack) == Attack.Status.ACTIVE
    withdraw.click()
    page.locator(DIALOG).get_by_role("button", name="Yes, withdraw the attack").click()
    page.get_by_text("Declaration withdrawn; its attack army stays spent.").wait_for()
    assert _status(attack) == Attack.Status.WITHDRAWN


def test_advance_asks_in_a_dialog_on_a_desktop_in_german(browsing, page_world):
    page = browsing.signed_in(page_world.lg.admin.username, viewport=DESKTOP, locale="de-DE",
                              start=page_world.url("manage/"))
    page.locator("#round form[data-confirm] button[type=submit]").click()
    dialog = page.locator(DIALOG)
    dialog.wait_for()
    assert "Die Phase Ansage von Runde 1 beenden?" in dialog.inner_text()
    _seen(browsing, page, "desktop-de-dialog")
    dialog.get_by_role("link", name="Abbrechen").click()
    dialog.wait_for(state="hidden")
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.DECLARE
    page.locator("#round form[data-confirm] button[type=submit]").click()
    page.locator(DIALOG).get_by_role("button", name="Ja, Phase Ansage beenden").click()
    page.wait_for_url(re.compile(r"/manage/#round$"))
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase != Round.Phase.DECLARE


def _without_script(browsing, username: str, *, viewport, locale: str):
    context = browsing.browser.new_context(viewport=viewport, locale=locale,
                                           base_url=browsing.base, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": browsing.base,
                          "value": session_of(username)}])
    browsing.contexts.append(context)
    page = context.new_page()
    browsing.pages.append(page)
    return page


@pytest.mark.parametrize(("viewport", "locale"), [(PHONE, "de-DE"), (DESKTOP, "en-GB")],
                         ids=["phone-de", "desktop-en"])
def test_without_script_the_question_is_a_page(browsing, page_world, viewport, locale):
    lg = page_world.lg
    attack = declare(lg.a, page_world.rnd, page_world.tiles["free"])
    page = _without_script(browsing, lg.a.user.username, viewport=viewport, locale=locale)
    page.goto(page_world.url("map/"))
    page.locator(f'li[data-attack-id="{attack.pk}"] button').click()
    page.locator("main [data-confirm-box]").wait_for()
    assert page.locator("h1").inner_text() in (
        "Withdraw your attack on Alpha (2, 0)?", "Deinen Angriff auf Alpha (2, 0) zurückziehen?")
    _seen(browsing, page, "page")
    assert _status(attack) == Attack.Status.ACTIVE
    page.locator("main [data-confirm-cancel]").click()
    page.wait_for_url(re.compile(r"/map/$"))
    assert _status(attack) == Attack.Status.ACTIVE
    page.locator(f'li[data-attack-id="{attack.pk}"] button').click()
    page.locator("main [data-confirm-yes]").click()
    page.wait_for_url(re.compile(r"/map/$"))
    assert _status(attack) == Attack.Status.WITHDRAWN
