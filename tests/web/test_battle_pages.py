"""The battle pages: who may open them, limits with their breakdown, the army list workflow with
the opponent's list hidden until revealed (R-ARM-3), dates (R-BAT-2), results and their history
(R-BAT-3/4), the chain roll decision (R-CON-6), the personal calendar feed, and query counts."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from battles.models import ArmyList, Battle, CalendarToken, ConquestRoll, ScheduleProposal
from battles.services.results import battle_result_enter
from tests.battles.tabletop import ros
from tests.web.queries import assert_constant_queries
from tests.web.rule_text import unlinked
from tests.worlds import (
    ANNA_UNIT,
    BEN_UNIT,
    advance_to,
    battle_url,
    build_page_world,
    client_for,
    declare,
    grow_battles,
    hand_in,
    page_duel,
)


def _html(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return unlinked(response.content.decode())


def _roles(world, outsider):
    lg = world.lg
    return {"anonymous": None, "outsider": outsider, "attacker": lg.b.user,
            "defender": lg.a.user, "onlooker": lg.c.user, "admin": lg.admin}


@pytest.mark.parametrize("visibility", ["private", "public"])
@pytest.mark.parametrize("role", ["anonymous", "outsider", "attacker", "defender", "onlooker",
                                  "admin"])
def test_status_of_the_battle_pages_per_role(db, outsider, visibility, role):
    world = build_page_world(visibility)
    battle = page_duel(world)
    user = _roles(world, outsider)[role]
    expected = {"anonymous": 302, "outsider": 403}.get(role, 200)
    if visibility == "private" and role == "outsider":
        expected = 404  # anonymous: the login page, as for a missing campaign
    for url in (world.url("battles/"), battle_url(world, battle)):
        response = client_for(user).get(url)
        assert response.status_code == expected, (url, role)


def test_a_battle_of_another_campaign_is_404(page_world):
    other = build_page_world()
    battle = page_duel(other)
    assert client_for(page_world.lg.a.user).get(battle_url(page_world, battle)).status_code == 404


def test_the_list_shows_my_battles_with_opponent_limits_and_status(page_world):
    battle = page_duel(page_world)
    anna = _html(client_for(page_world.lg.a.user), page_world.url("battles/"))
    mine = anna.split('id="mine-title"', 1)[1].split("</section>", 1)[0]
    assert f'data-battle-id="{battle.pk}"' in mine
    assert "Orks" in mine and "Mechanicus" in mine and "to be played" in mine
    limits = battle.point_limits
    breakdown = battle.bonus[str(page_world.lg.b.pk)]
    base = limits[str(page_world.lg.b.pk)] - breakdown["tiles"] - breakdown["markers"]
    assert f"{base} base + {breakdown['tiles']} tiles + {breakdown['markers']} markers" in mine
    carl = _html(client_for(page_world.lg.c.user), page_world.url("battles/"))
    assert "You fight no battle in this round." in carl
    assert f'data-battle-id="{battle.pk}"' in carl.split('id="all-title"', 1)[1]


def test_the_detail_shows_the_limit_breakdown(page_world):
    battle = page_duel(page_world)
    html = _html(client_for(page_world.lg.c.user), battle_url(page_world, battle))
    for player in (page_world.lg.a, page_world.lg.b):
        row = html.split(f'<tr data-player-id="{player.pk}">', 1)[1].split("</tr>", 1)[0]
        assert f"<strong>{battle.point_limits[str(player.pk)]}</strong>" in row


# --- army lists (R-ARM-1..3) ----------------------------------------------------------------

def test_r_arm_3_the_opponents_list_is_absent_until_revealed(page_world):
    battle = page_duel(page_world)
    hand_in(battle, page_world.lg.b, BEN_UNIT)
    url = battle_url(page_world, battle)
    for user in (page_world.lg.a.user, page_world.lg.c.user):  # the opponent, an onlooker
        html = _html(client_for(user), url)
        assert BEN_UNIT not in html
        assert BEN_UNIT not in _html(client_for(user), page_world.url("battles/"))
    assert "Handed in; hidden until the lists are revealed." in _html(
        client_for(page_world.lg.a.user), url)
    assert BEN_UNIT in _html(client_for(page_world.lg.b.user), url)
    assert BEN_UNIT in _html(client_for(page_world.lg.admin), url)
    hand_in(battle, page_world.lg.a, ANNA_UNIT)
    Battle.objects.filter(pk=battle.pk).update(lists_revealed_at=timezone.now())
    html = _html(client_for(page_world.lg.a.user), url)
    assert BEN_UNIT in html and ANNA_UNIT in html
    assert BEN_UNIT not in _html(client_for(page_world.lg.c.user), url)


def test_pasting_a_list_stores_it_and_shows_the_units(page_world):
    battle = page_duel(page_world)
    client = client_for(page_world.lg.a.user)
    text = "Tech-Priest - 90\nServitors: 60\nTotal: 200"
    response = client.post(battle_url(page_world, battle, "army-list/"),
                           {"name": "Cohort", "text": text})
    assert response.status_code == 302
    stored = ArmyList.objects.get(battle=battle, player=page_world.lg.a)
    assert (stored.total, stored.roster_total, stored.source) == (150, 200, "text")
    html = _html(client, battle_url(page_world, battle))
    assert "Tech-Priest" in html and "Servitors" in html and "the list states 200" in html
    assert stored.warnings and stored.warnings[0] in html
    assert "Replace your list" in html


def test_an_unreadable_list_is_explained_next_to_the_field(page_world):
    battle = page_duel(page_world)
    response = client_for(page_world.lg.a.user).post(battle_url(page_world, battle, "army-list/"),
                                                     {"text": "just some words"})
    assert response.status_code == 400
    html = response.content.decode()
    field = html.split('<div class="field invalid">', 1)[1].split("</div>", 1)[0]
    assert 'name="text"' in field and "Line 1: cannot read" in field
    assert not ArmyList.objects.exists()


def test_r_arm_1_a_list_over_the_limit_is_refused_with_the_excess(page_world):
    battle = page_duel(page_world)
    limit = battle.point_limits[str(page_world.lg.a.pk)]
    response = client_for(page_world.lg.a.user).post(battle_url(page_world, battle, "army-list/"),
                                                     {"text": f"Titan - {limit + 40}"})
    assert response.status_code == 400
    html = unlinked(response.content.decode())
    assert "40 over (R-ARM-1)" in html and "errorlist nonfield" in html


def test_a_roster_upload_is_parsed_and_shown(page_world):
    battle = page_duel(page_world)
    client = client_for(page_world.lg.a.user)
    upload = ros([("Captain", 85), ("Intercessor Squad", 100)], total=190)
    response = client.post(battle_url(page_world, battle, "army-list/"),
                           {"file": SimpleUploadedFile("cohort.ros", upload)})
    assert response.status_code == 302
    stored = ArmyList.objects.get(battle=battle, player=page_world.lg.a)
    assert [e["name"] for e in stored.entries] == ["Captain", "Intercessor Squad"]
    html = _html(client, battle_url(page_world, battle))
    assert "Intercessor Squad" in html and "BattleScribe .ros" in html
    assert 'class="warnings"' in html  # the stated 190 is not the sum 185


def test_only_participants_hand_in_lists(page_world):
    battle = page_duel(page_world)
    response = client_for(page_world.lg.c.user).post(battle_url(page_world, battle, "army-list/"),
                                                     {"text": "Guard - 50"})
    assert response.status_code == 403
    assert not ArmyList.objects.exists()


# --- dates (R-BAT-2) ------------------------------------------------------------------------

def _future(days: int = 5) -> str:
    return (timezone.now() + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def test_r_bat_2_one_side_proposes_the_other_accepts(page_world):
    battle = page_duel(page_world)
    anna, ben = client_for(page_world.lg.a.user), client_for(page_world.lg.b.user)
    response = anna.post(battle_url(page_world, battle, "schedule/"),
                         {"proposed_at": _future(), "place": "Club cellar"})
    assert response.status_code == 302
    proposal = ScheduleProposal.objects.get(battle=battle)
    assert "Accept this date" not in _html(anna, battle_url(page_world, battle))
    assert "Accept this date" in _html(ben, battle_url(page_world, battle))
    response = ben.post(battle_url(page_world, battle, "schedule/accept/"),
                        {"proposal": proposal.pk})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.place == "Club cellar" and battle.scheduled_at is not None
    assert "Club cellar" in _html(anna, page_world.url("battles/"))
    assert "Agreed:" in _html(anna, battle_url(page_world, battle))


def test_a_date_in_the_past_is_refused_next_to_the_field(page_world):
    battle = page_duel(page_world)
    response = client_for(page_world.lg.a.user).post(
        battle_url(page_world, battle, "schedule/"),
        {"proposed_at": (timezone.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
         "place": "Club"})
    assert response.status_code == 400
    html = response.content.decode()
    field = html.split('<div class="field invalid">', 1)[1].split("</div>", 1)[0]
    assert 'name="proposed_at"' in field and "in the future" in field


def test_the_proposer_can_not_accept_its_own_proposal(page_world):
    battle = page_duel(page_world)
    anna = client_for(page_world.lg.a.user)
    anna.post(battle_url(page_world, battle, "schedule/"), {"proposed_at": _future(), "place": "X"})
    response = anna.post(battle_url(page_world, battle, "schedule/accept/"), follow=True)
    assert "Refused:" in response.content.decode()
    battle.refresh_from_db()
    assert battle.scheduled_at is None


# --- results (R-BAT-3, R-BAT-4) -------------------------------------------------------------

RESULT = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}


def test_r_bat_3_report_then_confirm_and_the_history(page_world):
    battle = page_duel(page_world, "battles")
    anna, ben = client_for(page_world.lg.a.user), client_for(page_world.lg.b.user)
    assert anna.post(battle_url(page_world, battle, "result/"), RESULT).status_code == 302
    assert "Confirm the result" not in _html(anna, battle_url(page_world, battle))
    assert "Confirm the result" in _html(ben, battle_url(page_world, battle))
    assert ben.post(battle_url(page_world, battle, "result/confirm/")).status_code == 302
    battle.refresh_from_db()
    assert (battle.result_status, battle.outcome) == ("confirmed", "victory")
    history = _html(anna, battle_url(page_world, battle)).split('id="history-title"', 1)[1]
    assert history.count("<li>") == 2 and "anna" in history and "ben" in history


def test_r_bat_3_a_dispute_keeps_its_reason(page_world):
    battle = page_duel(page_world, "battles")
    client_for(page_world.lg.b.user).post(battle_url(page_world, battle, "result/"), RESULT)
    response = client_for(page_world.lg.a.user).post(
        battle_url(page_world, battle, "result/dispute/"), {"reason": "The Gargant was proxied"})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.result_status == "disputed"
    html = _html(client_for(page_world.lg.admin), battle_url(page_world, battle))
    assert "The Gargant was proxied" in html and "Enter or correct the result" in html


def test_invalid_victory_points_show_next_to_the_field(page_world):
    battle = page_duel(page_world, "battles")
    response = client_for(page_world.lg.a.user).post(battle_url(page_world, battle, "result/"),
                                                     {**RESULT, "attacker_vp": -3})
    assert response.status_code == 400
    field = response.content.decode().split('<div class="field invalid">', 1)[1]
    assert 'name="attacker_vp"' in field.split("</div>", 1)[0]


def test_onlookers_and_admins_do_not_report_as_players(page_world):
    battle = page_duel(page_world, "battles")
    assert client_for(page_world.lg.c.user).post(battle_url(page_world, battle, "result/"),
                                                 RESULT).status_code == 403
    assert client_for(page_world.lg.admin).post(battle_url(page_world, battle, "result/"),
                                                RESULT).status_code == 403
    battle.refresh_from_db()
    assert battle.result_status == ""


def test_reporting_before_the_battles_phase_is_refused(page_world):
    battle = page_duel(page_world, "lists")
    html = _html(client_for(page_world.lg.a.user), battle_url(page_world, battle))
    assert "Report the result" not in html
    response = client_for(page_world.lg.a.user).post(battle_url(page_world, battle, "result/"),
                                                     RESULT)
    assert response.status_code == 400 and "battles phase" in response.content.decode()


# --- the chain roll decision (R-CON-6) ------------------------------------------------------

def test_r_con_6_the_winner_of_a_chain_link_rolls_from_the_page(page_world):
    rnd, target = page_world.rnd, page_world.tiles["free"]
    first = declare(page_world.lg.a, rnd, target)
    declare(page_world.lg.b, rnd, target)
    advance_to(rnd, "battles")
    battle = Battle.objects.get(attack=first)
    battle_result_enter(battle=battle, by_admin_user=page_world.lg.admin, **RESULT)
    anna = client_for(page_world.lg.a.user)
    assert "Roll for the tile now?" in _html(anna, battle_url(page_world, battle))
    response = anna.post(battle_url(page_world, battle, "chain/"), {"decision": "roll"},
                         follow=True)
    roll = ConquestRoll.objects.get(attack=first)
    assert f"= {roll.total} against {roll.threshold}" in response.content.decode()
    assert "Roll for the tile now?" not in _html(anna, battle_url(page_world, battle))


# --- the calendar feeds (R-BAT-2) -----------------------------------------------------------

def test_the_personal_feed_address_shows_only_on_request(page_world):
    battle = page_duel(page_world)
    client = client_for(page_world.lg.a.user)
    html = _html(client, battle_url(page_world, battle))
    assert f"/api/v1/campaigns/{page_world.campaign.pk}/calendar.ics" in html
    assert "/api/v1/me/calendar.ics" not in html
    response = client.post(page_world.url("battles/calendar/"), {"show": "1"},
                           HTTP_HX_REQUEST="true")
    token = CalendarToken.objects.get(user=page_world.lg.a.user).token
    assert f"/api/v1/me/calendar.ics?token={token}" in response.content.decode()
    assert token not in _html(client, battle_url(page_world, battle))
    assert token not in _html(client_for(page_world.lg.b.user), battle_url(page_world, battle))
    response = client.post(page_world.url("battles/calendar/"), {"regenerate": "1"})
    fresh = CalendarToken.objects.get(user=page_world.lg.a.user).token
    assert fresh != token and fresh in response.content.decode()
    assert client.get(f"/api/v1/me/calendar.ics?token={fresh}").status_code == 200


# --- queries --------------------------------------------------------------------------------

@pytest.mark.parametrize("role", ["defender", "admin", "onlooker"])
def test_battle_page_queries_stay_constant(page_world, role):
    battle = page_duel(page_world, "battles")
    hand_in(battle, page_world.lg.b, BEN_UNIT)
    user = {"defender": page_world.lg.a.user, "admin": page_world.lg.admin,
            "onlooker": page_world.lg.c.user}[role]
    client = client_for(user)
    grow = lambda: grow_battles(page_world, battle)  # noqa: E731
    for url in (page_world.url("battles/"), battle_url(page_world, battle)):
        assert_constant_queries(client, url, grow)


MORAL_BEHIND = {"outcome": "moral_victory", "attacker_vp": 6, "defender_vp": 6}


def test_r_bat_3_a_moral_victory_behind_on_points_is_refused_next_to_the_outcome(page_world):
    battle = page_duel(page_world, "battles")
    anna = client_for(page_world.lg.a.user)
    response = anna.post(battle_url(page_world, battle, "result/"), MORAL_BEHIND)
    assert response.status_code == 400
    field = response.content.decode().split('<div class="field invalid">', 1)[1]
    field = field.split("</div>", 1)[0]
    assert 'name="outcome"' in field and "R-BAT-3" in field
    assert "moral victory needs the attacker ahead on points" in field
    battle.refresh_from_db()
    assert battle.result_status == ""
    german = client_for(page_world.lg.a.user).post(
        battle_url(page_world, battle, "result/"), MORAL_BEHIND, HTTP_ACCEPT_LANGUAGE="de")
    assert "ein moralischer Sieg verlangt, dass der Angreifer nach Punkten vorn liegt" in \
        german.content.decode()


def test_r_bat_3_confirming_a_report_that_breaks_the_rule_is_refused(page_world):
    battle = page_duel(page_world, "battles")
    Battle.objects.filter(pk=battle.pk).update(result_status="reported",
                                               reported_by=page_world.lg.a.user, **MORAL_BEHIND)
    ben = client_for(page_world.lg.b.user)
    response = ben.post(battle_url(page_world, battle, "result/confirm/"), follow=True)
    html = response.content.decode()
    assert "Refused:" in html and "R-BAT-3" in html
    battle.refresh_from_db()
    assert battle.result_status == "reported"
