"""R-BAT-3, R-BAT-4: the players' result workflow - report, confirm, dispute, the admin's
settlement, the confirm timeout - with every change in the history, and what confirmed results
feed (the chain, R-CON-6; standings)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import Battle, ResultChange
from battles.services.results import (
    battle_result_confirm,
    battle_result_report,
    results_confirm_overdue,
)
from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Round
from league.services.rounds import advance_due_rounds, round_advance
from tests.battles.tabletop import LOSS, WIN
from tests.factories import UserFactory
from tests.worlds import advance_to, api, chain, declare, duel, row, tile

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(lg):
    return duel(lg, "battles")


def post(lg, battle, user, action="", body=None):
    path = f"battles/{battle.pk}/result/" + (f"{action}/" if action else "")
    return api(user).post(lg.url(path), body if body is not None else {}, format="json")


def history(battle):
    return [(h.by.username if h.by else None, h.old and h.old["status"], h.new["status"],
             h.new.get("reason", "")) for h in ResultChange.objects.filter(battle=battle)]


def test_r_bat_3_report_then_confirm(lg, battle):
    reported = post(lg, battle, lg.a.user, body=WIN)
    assert reported.status_code == 200
    assert reported.json()["result"] == {**WIN, "status": "reported"}
    assert reported.json()["status"] == "open"
    confirmed = post(lg, battle, lg.b.user, "confirm")
    assert confirmed.status_code == 200
    body = confirmed.json()
    assert body["result"] == {**WIN, "status": "confirmed"} and body["status"] == "done"
    assert [(h["by"], h["new"]["status"]) for h in body["history"]] == [
        ("anna", "reported"), ("ben", "confirmed")]
    assert body["history"][1]["old"] == {**WIN, "status": "reported"}
    assert Battle.objects.get(pk=battle.pk).won


def test_r_bat_3_the_defender_may_report_too(lg, battle):
    assert post(lg, battle, lg.b.user, body=LOSS).status_code == 200
    assert post(lg, battle, lg.a.user, "confirm").json()["result"]["status"] == "confirmed"


def test_r_bat_3_an_admin_playing_the_battle_reports_like_a_player(lg, battle):
    lg.campaign.admins.add(lg.a.user)
    assert post(lg, battle, lg.a.user, body=WIN).json()["result"]["status"] == "reported"
    assert post(lg, battle, lg.admin, body=LOSS).json()["result"]["status"] == "confirmed"


def test_r_bat_3_only_the_other_participant_answers(lg, battle):
    assert post(lg, battle, lg.b.user, "confirm").json()["code"] == "no_report"
    post(lg, battle, lg.a.user, body=WIN)
    own = post(lg, battle, lg.a.user, "confirm")
    assert own.status_code == 400 and own.json()["code"] == "R-BAT-3"
    assert post(lg, battle, lg.a.user, "dispute").json()["code"] == "R-BAT-3"
    assert post(lg, battle, lg.c.user, "confirm").status_code == 403
    assert post(lg, battle, lg.admin, "confirm").status_code == 403
    assert post(lg, battle, UserFactory(), "confirm").status_code == 404
    assert api().post(lg.url(f"battles/{battle.pk}/result/confirm/")).status_code == 401
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"


def test_r_bat_3_reporter_may_amend_until_answered_the_opponent_may_not_overwrite(lg,
                                                                                  battle):
    post(lg, battle, lg.a.user, body=WIN)
    amended = {**WIN, "attacker_vp": 13}
    assert post(lg, battle, lg.a.user, body=amended).json()["result"]["attacker_vp"] == 13
    other = post(lg, battle, lg.b.user, body=LOSS)
    assert other.status_code == 409 and other.json()["code"] == "result_reported"
    assert history(battle) == [("anna", None, "reported", ""),
                               ("anna", "reported", "reported", "")]


def test_r_bat_3_dispute_then_admin_settles(lg, battle):
    lg.set_rules(early_advance=False)  # else battles end once the admin settles
    post(lg, battle, lg.a.user, body=WIN)
    disputed = post(lg, battle, lg.b.user, "dispute", {"reason": "We drew on objectives."})
    assert disputed.status_code == 200
    assert disputed.json()["result"] == {**WIN, "status": "disputed"}
    assert disputed.json()["history"][-1]["new"]["reason"] == "We drew on objectives."
    assert post(lg, battle, lg.b.user, "confirm").json()["code"] == "no_report"
    assert post(lg, battle, lg.a.user, body=WIN).json()["code"] == "result_disputed"
    draw = {"outcome": "draw", "attacker_vp": 8, "defender_vp": 8}
    settled = post(lg, battle, lg.admin, body=draw)
    assert settled.status_code == 200
    assert settled.json()["result"] == {**draw, "status": "confirmed"}
    assert history(battle) == [("anna", None, "reported", ""),
                               ("ben", "reported", "disputed", "We drew on objectives."),
                               ("orga", "disputed", "confirmed", "")]
    again = post(lg, battle, lg.a.user, body=WIN)
    assert again.status_code == 409 and again.json()["code"] == "result_confirmed"


@pytest.mark.parametrize("body", [{"reason": "x" * 501}, {"reason": ["x"]}, []])
def test_r_bat_3_bad_dispute_input_is_400(lg, battle, body):
    post(lg, battle, lg.a.user, body=WIN)
    assert post(lg, battle, lg.b.user, "dispute", body).status_code == 400
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"


@pytest.mark.parametrize("body", [{"outcome": "win", "attacker_vp": 1, "defender_vp": 1},
                                  {"outcome": "draw"}, [], {**WIN, "attacker_vp": -3}])
def test_r_bat_3_bad_reports_are_400(lg, battle, body):
    assert post(lg, battle, lg.a.user, body=body).status_code == 400
    assert not ResultChange.objects.exists()


def test_r_bat_3_players_report_only_in_the_battles_phase(lg):
    battle = duel(lg, "lists")
    response = post(lg, battle, lg.a.user, body={"outcome": "junk"})  # phase before input
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"
    Round.objects.filter(pk=battle.round_id).update(phase="conquest")
    assert post(lg, battle, lg.a.user, body=WIN).status_code == 409


def test_r_atk_4_the_admin_records_a_neutral_garrison_battle(lg):
    lg.set_rules(neutral_needs_battle=True)
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, None))
    advance_to(attack.round, "battles")
    battle = Battle.objects.get(attack=attack)
    assert post(lg, battle, lg.a.user, body=WIN).status_code == 403
    assert post(lg, battle, lg.admin, body=WIN).json()["result"]["status"] == "confirmed"


def test_r_bat_3_an_unanswered_report_counts_as_confirmed_after_confirm_hours(lg, battle):
    now = timezone.now()
    battle_result_report(battle=battle, player=lg.a, now=now, **WIN)
    assert results_confirm_overdue(now=now + timedelta(hours=47)) == 0
    assert results_confirm_overdue(now=now + timedelta(hours=48, seconds=1)) == 1
    fresh = Battle.objects.get(pk=battle.pk)
    assert (fresh.result_status, fresh.status, fresh.outcome) == ("confirmed", "done",
                                                                  "victory")
    assert history(battle)[-1] == (None, "reported", "confirmed",
                                   "R-BAT-3: not answered within 48 hours")
    assert results_confirm_overdue(now=now + timedelta(hours=49)) == 0  # idempotent
    assert ResultChange.objects.filter(battle=battle).count() == 2


def test_r_bat_3_confirm_hours_come_from_the_ruleset_and_the_periodic_job_applies_them(
        lg, battle):
    lg.set_rules(confirm_hours=2, early_advance=False)  # no early advance
    now = timezone.now()
    battle_result_report(battle=battle, player=lg.b, now=now, **LOSS)
    advance_due_rounds(now + timedelta(hours=1))
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"
    advance_due_rounds(now + timedelta(hours=3))  # the battles deadline is 72 h away
    fresh = Battle.objects.get(pk=battle.pk)
    assert fresh.result_status == "confirmed" and fresh.round.phase == "battles"


def test_r_bat_3_a_disputed_result_has_no_timeout(lg, battle):
    now = timezone.now()
    post(lg, battle, lg.a.user, body=WIN)
    post(lg, battle, lg.b.user, "dispute")
    assert results_confirm_overdue(now=now + timedelta(days=30)) == 0


def test_r_rnd_3_at_the_battles_deadline_a_report_stands_a_dispute_takes_the_default(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    row(alpha, lg.c, (0,), r=3)
    rnd = lg.start()
    one = declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    two = declare(lg.c, rnd, tile(alpha, 1, 3, lg.d))
    advance_to(rnd, "battles")
    reported, disputed = (Battle.objects.get(attack=a) for a in (one, two))
    post(lg, reported, lg.a.user, body=WIN)
    post(lg, disputed, lg.c.user, body=WIN)
    post(lg, disputed, lg.d.user, "dispute")
    round_advance(round_id=rnd.pk, expected_phase="battles")
    assert (Battle.objects.get(pk=reported.pk).outcome,
            Battle.objects.get(pk=reported.pk).result_status) == ("victory", "confirmed")
    assert history(reported)[-1][3] == "R-BAT-3: report unanswered at the battles deadline"
    assert Battle.objects.get(pk=disputed.pk).outcome == "defeat"  # defender_holds
    assert history(disputed)[-1][3].startswith("R-RND-3")


def test_r_con_6_a_link_confirmed_by_the_players_settles_the_next_link(lg):
    links = chain(lg)
    post(lg, links[0], lg.a.user, body=LOSS)
    assert Battle.objects.get(pk=links[1].pk).status == "pending"  # only reported
    post(lg, links[0], lg.d.user, "confirm")
    second = Battle.objects.get(pk=links[1].pk)
    assert (second.status, second.defender_id) == ("open", lg.d.pk) and second.point_limits


def test_r_con_6_a_won_link_waits_for_the_roll_decision_after_confirmation(lg):
    links = chain(lg)
    now = timezone.now()
    battle_result_report(battle=links[0], player=lg.a, now=now, **WIN)
    results_confirm_overdue(now=now + timedelta(hours=49))  # the timeout confirms it
    assert Battle.objects.get(pk=links[0].pk).result_status == "confirmed"
    assert Battle.objects.get(pk=links[1].pk).status == "pending"
    decided = api(lg.a.user).post(lg.url(f"battles/{links[0].pk}/conquest/"), {"roll": False},
                                  format="json")
    assert decided.status_code == 200
    assert Battle.objects.get(pk=links[1].pk).status == "open"


def test_r_vp_2_only_confirmed_results_count_in_the_standings(lg, battle):
    def won(player):
        rows = api(lg.c.user).get(lg.url("standings/")).json()["rows"]
        return next(r["battles_won"] for r in rows if r["player"] == player.pk)

    post(lg, battle, lg.a.user, body=WIN)
    assert won(lg.a) == 0
    post(lg, battle, lg.b.user, "confirm")
    assert won(lg.a) == 1


def test_r_bat_3_services_refuse_wrong_states_too(lg, battle):
    with pytest.raises(Conflict):
        battle_result_confirm(battle=battle, player=lg.b)


# --- R-BAT-3: a moral victory needs the attacker ahead on points ------------------------------

MORAL_BEHIND = {"outcome": "moral_victory", "attacker_vp": 5, "defender_vp": 8}


@pytest.mark.parametrize("reporter", ["attacker", "defender"])
def test_r_bat_3_a_report_of_a_moral_victory_without_the_lead_is_400(lg, battle, reporter):
    user = lg.a.user if reporter == "attacker" else lg.b.user
    for body in (MORAL_BEHIND, {**MORAL_BEHIND, "attacker_vp": 8}):
        response = post(lg, battle, user, body=body)
        assert response.status_code == 400
        assert response.json()["code"] == "R-BAT-3" and "R-BAT-3" in response.json()["detail"]
    with pytest.raises(RuleViolation, match="R-BAT-3"):
        battle_result_report(battle=battle, player=lg.a, **MORAL_BEHIND)
    assert Battle.objects.get(pk=battle.pk).result_status == ""
    assert not ResultChange.objects.exists()
    assert post(lg, battle, user, body={**MORAL_BEHIND, "attacker_vp": 9}).status_code == 200


def test_r_bat_3_a_report_that_breaks_the_rule_can_not_be_confirmed(lg, battle):
    """A report stored before the rule was checked: confirming it is refused (400), disputing
    it still works, so the admin settles it."""
    Battle.objects.filter(pk=battle.pk).update(result_status="reported", reported_by=lg.a.user,
                                               reported_at=timezone.now(), **MORAL_BEHIND)
    response = post(lg, battle, lg.b.user, "confirm")
    assert response.status_code == 400 and response.json()["code"] == "R-BAT-3"
    with pytest.raises(RuleViolation, match="R-BAT-3"):
        battle_result_confirm(battle=battle, player=lg.b)
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"
    assert not ResultChange.objects.exists()
    assert post(lg, battle, lg.b.user, "dispute").status_code == 200
