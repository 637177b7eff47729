"""The battles app's admin pages: they render, and they are read-only (every write goes
through a service); a calendar token's secret never shows."""

import pytest
from django.utils import timezone

from battles.services.feeds import calendar_token_of
from tests.worlds import duel

pytestmark = pytest.mark.django_db

PAGES = ["battle", "armylist", "scheduleproposal", "conquestchoice", "conquestroll",
         "calendardeadline", "calendartoken", "notificationpreference", "notification"]


@pytest.mark.parametrize("page", PAGES)
def test_admin_lists_render_and_offer_no_add(admin_client, league, page):
    duel(league)
    response = admin_client.get(f"/admin/battles/{page}/")
    assert response.status_code == 200
    assert admin_client.get(f"/admin/battles/{page}/add/").status_code == 403


def test_a_battle_shows_its_history_but_cannot_be_changed(admin_client, league):
    battle = duel(league)
    response = admin_client.get(f"/admin/battles/battle/{battle.pk}/change/")
    assert response.status_code == 200
    assert b'name="_save"' not in response.content
    admin_client.post(f"/admin/battles/battle/{battle.pk}/change/", {"status": "done"})
    battle.refresh_from_db()
    assert battle.status != "done"


def test_the_calendar_token_secret_is_not_shown(admin_client, lg):
    token = calendar_token_of(user=lg.a.user, now=timezone.now())
    response = admin_client.get(f"/admin/battles/calendartoken/{token.pk}/change/")
    assert response.status_code == 200
    assert token.token.encode() not in response.content
