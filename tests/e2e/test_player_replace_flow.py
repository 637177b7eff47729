"""Replacing a player in the browser: the campaign admin, on a phone and in German, replaces a
player mid-season from the members page; the seat's history shows both holders."""

import pytest

from campaigns.models import Player
from tests.e2e.conftest import PHONE
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_admin_replaces_a_player_on_a_phone_in_german(browsing, page_world):
    lg = page_world.lg
    UserFactory(username="nina")
    page = browsing.signed_in(lg.admin.username, viewport=PHONE, locale="de-DE")
    page.goto(page_world.url("manage/members/"))
    seat = page.locator(f"#player-{lg.a.pk}")
    seat.get_by_text("Spieler ersetzen").click()
    seat.locator(f"input[name=replace{lg.a.pk}-account]").fill("nina")
    seat.get_by_role("button", name="Platz übergeben").click()
    page.wait_for_url(f"**/manage/members/#player-{lg.a.pk}")
    assert "nina hat jetzt den Platz von Mechanicus." in page.content()
    history = page.locator(f"#player-{lg.a.pk} .seat-holders").inner_text()
    assert "anna" in history and "nina" in history and "bis" in history
    assert Player.objects.get(pk=lg.a.pk).user.username == "nina"
