"""R-BAT-3 [decision] on the pages: in the last 24 hours before the ``battles`` deadline the
organiser's dashboard lists the open disputes (who disputed and why) under a warning of what the
deadline does to them; the battle page says what happens at the deadline to a disputed result,
an unconfirmed one and an unplayed battle, in English and German."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.services.results import battle_result_dispute, battle_result_report
from campaigns.models import Round
from tests.battles.tabletop import WIN
from tests.web.rule_text import unlinked
from tests.worlds import battle_url, client_for, page_duel

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def flat(html: str) -> str:
    return " ".join(unlinked(html).split())


def deadline_in(world, hours: float) -> None:
    Round.objects.filter(pk=world.rnd.pk).update(
        phase_deadline=timezone.now() + timedelta(hours=hours))


def disputed(world):
    battle = page_duel(world, "battles")
    battle_result_report(battle=battle, player=world.lg.a, **WIN)
    battle_result_dispute(battle=battle, player=world.lg.b, reason="Objectives miscounted")
    return battle


def dashboard(world, **headers) -> str:
    response = client_for(world.lg.admin).get(world.url("manage/dashboard/"), **headers)
    assert response.status_code == 200
    html = response.content.decode()
    return flat(html[html.index('id="disputes"'):html.index('id="absences"')])


def test_r_bat_3_the_dashboard_warns_of_open_disputes_in_the_last_24_hours(page_world):
    disputed(page_world)
    deadline_in(page_world, 30)
    early = dashboard(page_world)
    assert "Objectives miscounted" in early  # the dispute and its reason, always
    assert 'id="disputes-deadline"' not in early  # no warning yet
    deadline_in(page_world, 10)
    section = dashboard(page_world)
    assert 'id="disputes-deadline"' in section and "Objectives miscounted" in section
    assert "The battles deadline is less than 24 hours away" in section
    assert "a dispute you have not settled by then gives its battle the campaign's outcome " \
           "for an unplayed battle: a defeat of the attacker (R-BAT-3)" in section
    german = dashboard(page_world, **GERMAN)
    assert "Die Frist der Schlachtphase endet in weniger als 24 Stunden" in german
    assert "eine Niederlage des Angreifers (R-BAT-3)" in german


def test_r_bat_3_no_warning_without_an_open_dispute(page_world):
    page_duel(page_world, "battles")
    deadline_in(page_world, 10)
    assert 'id="disputes-deadline"' not in dashboard(page_world)


def fate(world, battle, user=None, **headers) -> str:
    response = client_for(user or world.lg.a.user).get(battle_url(world, battle), **headers)
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="deadline-fate"')
    return flat(html[start:html.index("</p>", start)])


UNPLAYED = ("If no result is confirmed when the battles deadline passes, the battle counts as "
            "a defeat of the attacker (R-RND-3).",
            "Ist beim Ablauf der Frist der Schlachtphase kein Ergebnis bestätigt, zählt die "
            "Schlacht als eine Niederlage des Angreifers (R-RND-3).")
REPORTED = ("If this result is neither confirmed nor disputed when the battles deadline "
            "passes, it counts as confirmed (R-BAT-3).",
            "Ist dieses Ergebnis beim Ablauf der Frist der Schlachtphase weder bestätigt noch "
            "bestritten, gilt es als bestätigt (R-BAT-3).")
DISPUTED = ("If the league admin has not settled this dispute when the battles deadline passes, "
            "the battle counts as a defeat of the attacker (R-BAT-3).",
            "Hat die Ligaleitung diesen Streitfall beim Ablauf der Frist der Schlachtphase nicht "
            "entschieden, zählt die Schlacht als eine Niederlage des Angreifers (R-BAT-3).")


def test_r_bat_3_the_battle_page_says_what_the_deadline_does(page_world):
    battle = page_duel(page_world, "battles")
    for words, headers in zip(UNPLAYED, ({}, GERMAN), strict=True):
        assert words in fate(page_world, battle, **headers)
    battle_result_report(battle=battle, player=page_world.lg.a, **WIN)
    for words, headers in zip(REPORTED, ({}, GERMAN), strict=True):
        assert words in fate(page_world, battle, **headers)
    battle_result_dispute(battle=battle, player=page_world.lg.b, reason="no")
    for words, headers in zip(DISPUTED, ({}, GERMAN), strict=True):
        assert words in fate(page_world, battle, **headers)
    assert DISPUTED[0] in fate(page_world, battle, user=page_world.lg.admin)


def test_r_bat_3_the_ruleset_s_unplayed_outcome_is_named(page_world):
    page_world.lg.set_rules(unplayed_outcome="attacker_wins")
    battle = disputed(page_world)
    assert "the battle counts as a victory of the attacker (R-BAT-3)" in fate(page_world, battle)
    deadline_in(page_world, 10)
    assert "unplayed battle: a victory of the attacker (R-BAT-3)" in dashboard(page_world)


def test_r_bat_3_no_deadline_sentence_once_the_battles_phase_is_over(page_world):
    battle = disputed(page_world)
    Round.objects.filter(pk=page_world.rnd.pk).update(phase="conquest")
    html = client_for(page_world.lg.a.user).get(battle_url(page_world, battle)).content
    assert b'id="deadline-fate"' not in html
