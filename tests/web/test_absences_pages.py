"""Absences (R-RND-3) on the pages: the Away card of the campaign home (my absences,
withdraw, add with days left; English and German), who is away when on the members page, and
"X is away" next to a battle's date [reading R-BAT-2]. A note is the player's and the admins'
only: other members see the dates."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.services.schedule import schedule_accept, schedule_propose
from campaigns.models import Absence
from campaigns.selectors.absences import campaign_day
from tests.web.queries import assert_constant_queries
from tests.worlds import battle_url, client_for, page_duel

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
NOTE = "Wedding in Lisbon"


def today(campaign):
    return campaign_day(campaign, timezone.now())


def _add(campaign, start: int, days: int = 1, note: str = "") -> dict:
    first = today(campaign) + timedelta(days=start)
    return {"starts_on": first.isoformat(),
            "ends_on": (first + timedelta(days=days - 1)).isoformat(), "note": note}


def _home(world) -> str:
    return world.url()


def test_a_player_adds_an_absence_on_the_away_card(page_world):
    lg = page_world.lg
    client = client_for(lg.a.user)
    html = client.get(_home(page_world)).content.decode()
    assert 'id="away"' in html and "21 days of 21 left this season." in html
    response = client.post(reverse("campaigns:absence-add", args=[lg.campaign.pk]),
                           _add(lg.campaign, 2, 3, NOTE), follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and "You are marked away from" in html
    assert NOTE in html and "18 days of 21 left this season." in html
    assert Absence.objects.get(player=lg.a).days == 3


def test_a_refusal_comes_back_next_to_the_form(page_world):
    lg = page_world.lg
    lg.set_rules(absence_days=2)
    response = client_for(lg.a.user).post(
        reverse("campaigns:absence-add", args=[lg.campaign.pk]), _add(lg.campaign, 1, 3))
    html = response.content.decode()
    assert response.status_code == 400
    assert "only 2 of the season&#x27;s 2 days are left" in html and "absence_days" in html
    past = client_for(lg.a.user).post(
        reverse("campaigns:absence-add", args=[lg.campaign.pk]), _add(lg.campaign, -1))
    assert past.status_code == 400 and "can not start in the past" in past.content.decode()
    assert not Absence.objects.exists()


def test_the_card_in_german(page_world):
    lg = page_world.lg
    Absence.objects.create(player=lg.a, starts_on=today(lg.campaign) + timedelta(days=1),
                           ends_on=today(lg.campaign) + timedelta(days=2))
    html = client_for(lg.a.user).get(_home(page_world), **DE).content.decode()
    assert "Abwesend" in html and "Deine Abwesenheiten" in html
    assert "19 von 21 Tagen übrig in dieser Saison." in html
    assert "Zurückziehen" in html


def test_absences_off_shows_no_form(page_world):
    page_world.lg.set_rules(absence_days=0)
    html = client_for(page_world.lg.a.user).get(_home(page_world)).content.decode()
    assert "Absences are off in this campaign." in html and 'id="absence-form"' not in html


def test_notes_are_hidden_from_other_members_on_the_page(page_world):
    lg = page_world.lg
    Absence.objects.create(player=lg.a, starts_on=today(lg.campaign) + timedelta(days=1),
                           ends_on=today(lg.campaign) + timedelta(days=1), note=NOTE)
    other = client_for(lg.b.user).get(_home(page_world)).content.decode()
    assert 'id="away-list"' in other and "Mechanicus" in other and NOTE not in other
    members = client_for(lg.admin).get(
        reverse("campaigns:manage-members", args=[lg.campaign.pk])).content.decode()
    assert 'id="absences"' in members and NOTE in members
    outsider = client_for(None).get(_home(page_world))
    assert NOTE not in outsider.content.decode()


def test_withdraw_on_the_page_and_admin_on_the_members_page(page_world):
    lg = page_world.lg
    mine = Absence.objects.create(player=lg.a, starts_on=today(lg.campaign) + timedelta(days=1),
                                  ends_on=today(lg.campaign) + timedelta(days=1))
    url = reverse("campaigns:absence-withdraw", args=[lg.campaign.pk, mine.pk])
    refused = client_for(lg.b.user).post(url)
    assert refused.status_code == 403 and Absence.objects.filter(pk=mine.pk).exists()
    response = client_for(lg.a.user).post(url, follow=True)
    assert "Absence withdrawn." in response.content.decode()
    assert not Absence.objects.filter(pk=mine.pk).exists()
    current = Absence.objects.create(player=lg.b, starts_on=today(lg.campaign) -
                                     timedelta(days=1), ends_on=today(lg.campaign))
    url = reverse("campaigns:absence-withdraw", args=[lg.campaign.pk, current.pk])
    response = client_for(lg.admin).post(url, {"back": "members"})
    assert response.status_code == 302 and response["Location"].endswith("#absences")
    current.refresh_from_db()
    assert current.ends_on == today(lg.campaign) - timedelta(days=1)


def test_r_bat_2_the_battle_page_says_who_is_away_on_the_agreed_date(page_world):
    lg = page_world.lg
    battle = page_duel(page_world)
    now = timezone.now()
    at = now + timedelta(days=3)
    schedule_propose(battle=battle, player=lg.b, proposed_at=at, place="Club", now=now)
    schedule_accept(battle=battle, player=lg.a, now=now)
    day = campaign_day(lg.campaign, at)
    Absence.objects.create(player=lg.a, starts_on=day, ends_on=day + timedelta(days=1),
                           note=NOTE)
    html = client_for(lg.b.user).get(battle_url(page_world, battle)).content.decode()
    assert 'id="battle-away"' in html and "Mechanicus is away" in html
    assert "on the agreed date: either side may propose another." in html
    assert NOTE not in html
    assert "Propose another date" in html or "Propose a date" in html


def test_home_page_queries_stay_constant_with_more_absences(page_world):
    lg = page_world.lg

    def grow():
        start = today(lg.campaign) + timedelta(days=1)
        for player in lg.players:
            for week in range(4):
                day = start + timedelta(days=7 * week)
                Absence.objects.create(player=player, starts_on=day, ends_on=day, note="n")

    assert_constant_queries(client_for(lg.a.user), _home(page_world), grow)


def test_visitors_of_a_public_campaign_see_no_away_card(public_page_world):
    lg = public_page_world.lg
    Absence.objects.create(player=lg.a, starts_on=today(lg.campaign) + timedelta(days=1),
                           ends_on=today(lg.campaign) + timedelta(days=1), note=NOTE)
    response = client_for(None).get(_home(public_page_world))
    html = response.content.decode()
    assert response.status_code == 200 and 'id="away"' not in html and NOTE not in html
