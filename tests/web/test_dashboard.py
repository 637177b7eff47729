"""The organiser's dashboard page (campaign admins only): who still owes
what in the current phase - now including conquest choices (R-CON-4) - "done", away, last
nudge, reliability, disputes (R-BAT-4) and absences; the nudge buttons; constant queries."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from battles.models import Battle
from battles.services.results import (
    battle_result_dispute,
    battle_result_enter,
    battle_result_report,
)
from campaigns.models import Absence, Nudge, PhaseDone, PhaseInput
from campaigns.selectors.absences import campaign_day
from tests.battles.tabletop import WIN
from tests.factories import PlayerFactory, UserFactory
from tests.web.queries import assert_constant_queries
from tests.worlds import advance_to, client_for, declare, page_duel, with_emails

pytestmark = pytest.mark.django_db


def page(world, user=None):
    user = user or world.lg.admin
    return client_for(user).get(world.url("manage/dashboard/"))


def card(html: str, player) -> str:
    """The player's card of the dashboard."""
    start = html.index(f'id="player-{player.pk}"')
    return html[start:html.index("</li>\n", html.index('class="facts"', start))]


def test_the_admin_sees_who_still_owes_a_conquest_choice(page_world):
    """The issue: "today the admin cannot even see who still owes a conquest choice"."""
    lg = page_world.lg
    attack = declare(lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "battles")
    battle_result_enter(battle=Battle.objects.get(attack=attack), by_admin_user=lg.admin,
                        **WIN)
    advance_to(page_world.rnd, "conquest")
    html = page(page_world).content.decode()
    assert "Conquest choice: whether to roll for 1 won attack." in card(html, lg.a)
    assert "owes nothing" in card(html, lg.b)
    assert "Nudge everyone who owes" in html or "Nudge the 1 player who owes" in html


def test_round_phase_deadline_and_each_players_facts(page_world):
    lg = page_world.lg
    battle = page_duel(page_world, "lists")
    now = timezone.now()
    PhaseDone.objects.create(round=battle.round, player=lg.b, phase="lists")
    today = campaign_day(page_world.campaign, now)
    Absence.objects.create(player=lg.c, starts_on=today, ends_on=today, note="Holiday")
    Absence.objects.create(player=lg.d, starts_on=today + timedelta(days=3),
                           ends_on=today + timedelta(days=5))
    Nudge.objects.create(round=battle.round, player=lg.a, phase="lists", by=lg.admin, at=now)
    html = page(page_world).content.decode()
    assert "Round 1" in html and "Army lists" in html and "data-countdown" in html
    anna = card(html, lg.a)
    assert "Army list for" in anna and f"/battles/{battle.pk}/" in anna
    assert "<time" in anna.split("Last nudge")[1]  # the nudge's time, localized
    assert "0 of 1 input on time" in anna  # declare ended without input of hers
    assert "said done" in card(html, lg.b) and "1 of 1 input on time" in card(html, lg.b)
    assert "away today" in card(html, lg.c)
    assert "Holiday" in html and "(now)" in html


def test_disputes_to_settle_link_the_battle(page_world):
    lg = page_world.lg
    battle = page_duel(page_world, "battles")
    battle_result_report(battle=battle, player=lg.a, **WIN)
    battle_result_dispute(battle=battle, player=lg.b, reason="no")
    html = page(page_world).content.decode()
    section = html[html.index('id="disputes"'):]
    assert f"/campaigns/{page_world.campaign.pk}/battles/{battle.pk}/" in section
    assert f"#battle-{battle.pk}" in section


def test_only_campaign_admins(page_world, outsider):
    assert page(page_world, page_world.lg.a.user).status_code == 403
    assert page(page_world, outsider).status_code == 404
    assert client_for().get(page_world.url("manage/dashboard/")).status_code == 302  # log in
    nudge_url = page_world.url("manage/dashboard/nudge/")
    assert client_for(page_world.lg.a.user).post(nudge_url).status_code == 403
    assert Nudge.objects.count() == 0


def test_linked_from_manage_and_the_admins_tabs(page_world):
    url = page_world.url("manage/dashboard/")
    assert url in client_for(page_world.lg.admin).get(page_world.url("manage/")).content.decode()
    assert url in client_for(page_world.lg.admin).get(page_world.url()).content.decode()
    assert url not in client_for(page_world.lg.a.user).get(page_world.url()).content.decode()


def test_nudge_buttons_send_then_say_who_was_skipped(page_world,
                                                     django_capture_on_commit_callbacks):
    lg = with_emails(page_world.lg)
    battle = page_duel(page_world, "lists")
    mail.outbox.clear()
    admin = client_for(lg.admin)
    url = page_world.url("manage/dashboard/nudge/")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(url, {"player": [lg.a.pk]}, follow=True)
    html = response.content.decode()
    assert "Nudged by e-mail: anna." in html
    assert [m.to[0] for m in mail.outbox] == ["anna@example.org"]
    html = admin.post(url, follow=True).content.decode()  # everyone who owes
    assert "Nudged by e-mail: ben." in html
    assert "anna was nudged less than 12 hours ago (again from" in html
    assert Nudge.objects.filter(round=battle.round).count() == 2


def test_the_page_in_german(page_world):
    page_duel(page_world, "lists")
    html = client_for(page_world.lg.admin).get(page_world.url("manage/dashboard/"),
                                               HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Armeeliste für" in html and "Zuverlässigkeit" in html


def test_dashboard_queries_stay_constant_for_2_or_8_players(page_world):
    lg = page_world.lg
    battle = page_duel(page_world, "lists")
    now = timezone.now()
    today = campaign_day(page_world.campaign, now)

    def grow():
        for index in range(6):
            player = PlayerFactory(campaign=page_world.campaign,
                                   user=UserFactory(username=f"extra{index}"))
            Absence.objects.create(player=player, starts_on=today, ends_on=today)
            Nudge.objects.create(round=battle.round, player=player, phase="lists", at=now)
            PhaseInput.objects.create(round=battle.round, player=player, phase="declare",
                                      on_time=False, absent=True)
            PhaseDone.objects.create(round=battle.round, player=player, phase="lists")

    assert_constant_queries(client_for(lg.admin), page_world.url("manage/dashboard/"), grow)


def test_the_campaign_home_words_the_new_kinds_in_english_and_german(page_world):
    """The player's own to-do (``_owed.html``): fleets without orders (R-FLT-4) in declare,
    dates to agree (R-BAT-2) in battles."""
    lg = page_world.lg
    ben = client_for(lg.b.user)
    assert "Optional: your fleet has no movement order" in ben.get(page_world.url()).content \
        .decode()
    german = ben.get(page_world.url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Optional: Deine Flotte hat in dieser Runde keinen Bewegungsbefehl" in german
    page_duel(page_world, "battles")
    assert "Propose a date for your battle:" in ben.get(page_world.url()).content.decode()
    german = ben.get(page_world.url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Schlage einen Termin für deine Schlacht vor:" in german


def test_before_the_start_the_page_and_api_answer(league):
    html = client_for(league.admin).get(f"/campaigns/{league.campaign.pk}/manage/dashboard/")
    assert "The campaign has not started yet." in html.content.decode()
    from tests.worlds import api

    body = api(league.admin).get(league.url("dashboard/")).json()
    assert (body["round"], body["phase"], body["deadline"]) == (None, None, None)
    assert all(row["owed"] == [] and not row["owes"] for row in body["players"])
