"""Refusals of battles/ services and selectors, and the rules/ reasons they pass on (R-ARM-1,
R-ATK-1, R-ECO-1, R-BAT-2, R-BAT-3, R-CON-4), speak the reader's language: German under
``translation.override("de")``, through the API for a German client and on the list page,
with the rule id kept as the code and in the text."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation

from battles.rosters import parse_entries
from battles.selectors.lists import visible_lists
from battles.services.attacks import attack_declare, purchase_create
from battles.services.conquest import conquest_choose
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_enter
from battles.services.schedule import schedule_propose
from campaigns.errors import DomainError
from tests.battles.tabletop import entries_list
from tests.factories import UserFactory
from tests.web.rule_text import unlinked
from tests.worlds import api, battle_url, client_for, duel, page_duel, row

pytestmark = pytest.mark.django_db
OVER = entries_list(("Titan", 1400), ("Escort", 200))  # 1600 points, the limit is 1500


def german(call, error=DomainError) -> str:
    with translation.override("de"), pytest.raises(error) as exc:
        call()
    return getattr(exc.value, "message", None) or str(exc.value)


@pytest.fixture
def declare_world(lg):
    """Anna and ben side by side on Alpha, round 1 in declare, nothing bought."""
    alpha = lg.planet("Alpha")
    (a1,) = row(alpha, lg.a, (0,))
    (b1,) = row(alpha, lg.b, (1,))
    return lg, lg.start(), a1, b1


def test_r_arm_1_a_list_over_the_limit(lg):
    battle = duel(lg)
    text = german(lambda: army_list_submit(battle=battle, player=lg.a,
                                           parsed=parse_entries(OVER)))
    assert "Die Liste hat insgesamt 1600 Punkte" in text and "100 zu viel (R-ARM-1)" in text
    assert "The list totals" not in text


def test_r_atk_1_no_attack_army_left(declare_world):
    lg, rnd, _a1, b1 = declare_world
    text = german(lambda: attack_declare(player=lg.a, round=rnd, tile=b1))
    assert text == ("R-ATK-1: keine Angriffsarmee mehr übrig: 0 in dieser Runde gekauft, "
                    "0 schon eingesetzt")


def test_r_atk_1_own_tile(declare_world):
    lg, rnd, a1, _b1 = declare_world
    purchase_create(player=lg.a, round=rnd, attack_armies=1)
    text = german(lambda: attack_declare(player=lg.a, round=rnd, tile=a1))
    assert "ist dein eigenes Feld" in text and "your own tile" not in text


def test_r_eco_1_requisition_short_counts_armies(declare_world):
    lg, rnd, _a1, _b1 = declare_world
    text = german(lambda: purchase_create(player=lg.a, round=rnd, attack_armies=50))
    assert text.startswith("R-ECO-1: 50 Angriffsarmeen kosten 50 Requisition")
    assert "attack armies cost" not in text


def test_wrong_phase_names_the_phase_in_german(lg):
    battle = duel(lg)  # round 1 is in the lists phase
    text = german(lambda: attack_declare(player=lg.b, round=battle.round, tile=battle.tile))
    assert "Runde 1 ist in der Phase Armeelisten" in text and "is in the" not in text


def test_r_bat_3_moral_victory_needs_the_attacker_ahead(lg):
    battle = duel(lg, "battles")
    text = german(lambda: battle_result_enter(battle=battle, by_admin_user=lg.admin,
                                              outcome="moral_victory", attacker_vp=5,
                                              defender_vp=7))
    assert text.startswith("R-BAT-3: Ein moralischer Sieg") and "SP Angreifer 5" in text
    assert "moral victory needs" not in text


def test_r_bat_2_a_date_in_the_past(lg):
    battle = duel(lg)
    past = timezone.now() - timedelta(days=1)
    text = german(lambda: schedule_propose(battle=battle, player=lg.a, proposed_at=past,
                                           place="Club"))
    assert "in der Zukunft" in text and "in the future" not in text


def test_conquest_choice_outside_the_conquest_phase(lg):
    battle = duel(lg)
    text = german(lambda: conquest_choose(player=lg.a, rnd=battle.round, roll=[]))
    assert "Eroberungsphase" in text and "conquest phase" not in text


def test_an_outsider_may_not_see_the_lists(lg):
    battle = duel(lg)
    outsider = UserFactory()
    text = german(lambda: visible_lists(battle, battle.round, outsider, timezone.now()),
                  PermissionDenied)
    assert "Armeelisten" in text and "army lists" not in text


# --- through the API and the page, for a German reader ---

def test_api_answers_a_german_client_in_german(declare_world):
    lg, _rnd, _a1, b1 = declare_world
    response = api(lg.a.user).post(lg.url("rounds/1/attacks/"), {"tile": b1.pk}, format="json",
                                   HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-ATK-1"
    assert body["detail"].startswith("R-ATK-1: keine Angriffsarmee mehr übrig")
    english = api(lg.a.user).post(lg.url("rounds/1/attacks/"), {"tile": b1.pk}, format="json",
                                  HTTP_ACCEPT_LANGUAGE="en").json()
    assert "no attack army left" in english["detail"]


def test_api_refuses_a_list_over_the_limit_in_german(lg):
    battle = duel(lg)
    response = api(lg.a.user).post(lg.url(f"battles/{battle.pk}/army-list/"), OVER,
                                   format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-ARM-1" and "100 zu viel (R-ARM-1)" in body["detail"]
    assert "points" not in body["detail"]


def test_the_list_page_shows_the_refusal_in_german(page_world):
    battle = page_duel(page_world)
    limit = battle.point_limits[str(page_world.lg.a.pk)]
    response = client_for(page_world.lg.a.user).post(
        battle_url(page_world, battle, "army-list/"), {"text": f"Titan - {limit + 40}"},
        HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    html = unlinked(response.content.decode())
    assert "40 zu viel (R-ARM-1)" in html and "40 over" not in html
