"""The organiser reads why a result was disputed where they settle it (R-BAT-3): the manage
page's result form for the battle, and the battle page; English and German."""

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.services.results import battle_result_dispute, battle_result_report
from tests.worlds import client_for, duel

pytestmark = pytest.mark.django_db
REASON = "Ben's army had 1750 points, not 1500"


def _disputed(lg, reason: str = REASON) -> Battle:
    battle = duel(lg, "battles")
    battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=12,
                         defender_vp=4)
    return battle_result_dispute(battle=Battle.objects.get(pk=battle.pk), player=lg.b,
                                 reason=reason)


def _section(html: str, battle: Battle) -> str:
    start = html.index(f'id="battle-{battle.pk}"')
    return html[start:html.index("</article>", start)]


@pytest.mark.parametrize(("language", "heading"), [("en", "Disputed by ben:"),
                                                   ("de", "Bestritten von ben:")])
def test_r_bat_3_manage_page_shows_the_reason_at_the_result_form(lg, language, heading):
    battle = _disputed(lg)
    url = reverse("campaigns:manage", args=[lg.campaign.pk]) + "?round=1"
    html = client_for(lg.admin).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = _section(html, battle)
    assert heading in section and "Ben&#x27;s army had 1750 points, not 1500" in section
    assert section.index("data-dispute-reason") < section.index("<form")


def test_r_bat_3_the_reason_stays_when_the_admin_s_entry_is_refused(lg):
    battle = _disputed(lg)
    url = reverse("campaigns:manage-result", args=[lg.campaign.pk, battle.pk])
    response = client_for(lg.admin).post(url, {f"b{battle.pk}-outcome": "victory",
                                               f"b{battle.pk}-attacker_vp": "-3",
                                               f"b{battle.pk}-defender_vp": "4"})
    assert response.status_code == 400
    assert "1750 points" in _section(response.content.decode(), battle)


def test_r_bat_3_a_dispute_without_words_says_so(lg):
    battle = _disputed(lg, reason="")
    url = reverse("campaigns:manage", args=[lg.campaign.pk]) + "?round=1"
    german = client_for(lg.admin).get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bestritten von ben: ohne Begründung" in " ".join(
        _section(german, battle).replace("<strong>", "").replace("</strong>", "").split())


def test_r_bat_3_battle_page_shows_the_reason_to_the_admin(lg):
    battle = _disputed(lg)
    url = reverse("campaigns:battle", args=[lg.campaign.pk, battle.pk])
    html = client_for(lg.admin).get(url).content.decode()
    result = html[html.index('id="result"'):html.index('id="history"')]
    assert "Disputed by ben:" in result and "1750 points" in result
    settled = client_for(lg.admin)
    settled.post(reverse("campaigns:manage-result", args=[lg.campaign.pk, battle.pk]),
                 {f"b{battle.pk}-outcome": "draw", f"b{battle.pk}-attacker_vp": "8",
                  f"b{battle.pk}-defender_vp": "8"})
    after = settled.get(url).content.decode()
    assert "data-dispute-reason" not in after  # settled: the reason stays in the history
    assert "1750 points" in after[after.index('id="history"'):]
