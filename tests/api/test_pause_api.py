"""Pause, resume and extend in the REST API: pause, resume, extend (campaign admin only), the
pause in the campaign detail, player writes refused with 409 ``campaign_paused`` naming the
reason, the admin's corrections still allowed, weekly deadlines through the ruleset endpoint."""

from datetime import timedelta

import pytest

from battles.services.results import battle_result_report
from campaigns.models import AdminAction, Round
from league.services.pause import campaign_pause
from tests.worlds import api, duel, make_league

pytestmark = pytest.mark.django_db
WIN = {"outcome": "victory", "attacker_vp": 10, "defender_vp": 2}


def _paused(lg, reason="Club closed for Easter"):
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason=reason)


def test_pause_and_resume_through_the_api(lg):
    lg.start()
    admin = api(lg.admin)
    paused = admin.post(lg.url("pause/"), {"reason": "Easter"}, format="json")
    assert paused.status_code == 200, paused.json()
    body = paused.json()
    assert body["paused"] is True and body["pause_reason"] == "Easter" and body["paused_at"]
    assert body["current_round"]["phase_deadline"] is None
    detail = api(lg.a.user).get(lg.url("")).json()  # players read the pause
    assert detail["paused"] is True and detail["pause_reason"] == "Easter"
    rnd = api(lg.a.user).get(lg.url("rounds/1/")).json()
    assert 47 * 3600 < rnd["deadline_left_seconds"] <= 48 * 3600
    again = admin.post(lg.url("pause/"), {"reason": "x"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_paused"
    resumed = admin.post(lg.url("resume/"), format="json")
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    assert resumed.json()["current_round"]["phase_deadline"] is not None
    assert admin.post(lg.url("resume/"), format="json").json()["code"] == "not_paused"


def test_only_the_admin_pauses_resumes_and_extends(lg):
    lg.start()
    for path in ("pause/", "resume/", "rounds/current/extend/"):
        assert api().post(lg.url(path), {}, format="json").status_code == 401
        assert api(lg.a.user).post(lg.url(path), {"hours": 24}, format="json").status_code == 403
    assert not AdminAction.objects.filter(kind__startswith="campaign.").exists()


def test_extend_through_the_api(lg):
    rnd = lg.start()
    before = Round.objects.get(pk=rnd.pk).phase_deadline
    response = api(lg.admin).post(lg.url("rounds/current/extend/"), {"hours": 24},
                                  format="json")
    assert response.status_code == 200, response.json()
    assert Round.objects.get(pk=rnd.pk).phase_deadline - before == timedelta(hours=24)
    bad = api(lg.admin).post(lg.url("rounds/current/extend/"), {"hours": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "R-RND-1"
    assert "hours" in bad.json()["errors"]
    assert api(lg.admin).post(lg.url("rounds/current/extend/"), ["x"],
                              format="json").status_code == 400


def test_extend_before_the_start_is_409(lg):
    response = api(lg.admin).post(lg.url("rounds/current/extend/"), {"hours": 24},
                                  format="json")
    assert response.status_code == 409 and response.json()["code"] == "no_round"


def test_player_writes_are_409_naming_the_pause(lg):
    rnd = lg.start()
    _paused(lg)
    player = api(lg.a.user)
    for path, body in ((f"rounds/{rnd.number}/purchases/", {"attack_armies": 1}),
                       (f"rounds/{rnd.number}/attacks/", {"tile": 1})):
        response = player.post(lg.url(path), body, format="json")
        assert response.status_code == 409, (path, response.json())
        assert response.json()["code"] == "campaign_paused"
        assert "Club closed for Easter" in response.json()["detail"]


def test_battle_writes_are_409_but_the_admin_still_corrects(league):
    battle = duel(league, "battles")
    battle_result_report(battle=battle, player=league.a, **WIN)
    _paused(league)
    base = league.url(f"battles/{battle.pk}/")
    confirm = api(league.b.user).post(base + "result/confirm/", {}, format="json")
    assert confirm.status_code == 409 and confirm.json()["code"] == "campaign_paused"
    schedule = api(league.b.user).post(base + "schedule/", {
        "proposed_at": "2030-01-01T18:00:00Z", "place": "Club"}, format="json")
    assert schedule.status_code == 409 and schedule.json()["code"] == "campaign_paused"
    entered = api(league.admin).post(base + "result/", WIN, format="json")
    assert entered.status_code == 200, entered.json()


def test_admin_advance_is_409_while_paused(lg):
    lg.start()
    _paused(lg)
    response = api(lg.admin).post(lg.url("advance/"), {"expected_phase": "declare"},
                                  format="json")
    assert response.status_code == 409 and response.json()["code"] == "campaign_paused"
    assert "resume" in response.json()["detail"]


def test_weekly_deadlines_through_the_ruleset_endpoint(lg):
    weekly = {"declare": {"weekday": "wednesday", "time": "20:00"}}
    response = api(lg.admin).patch(lg.url(""), {"ruleset": {"weekly_deadlines": weekly}},
                                   format="json")
    assert response.status_code == 200
    assert response.json()["ruleset"]["weekly_deadlines"] == weekly
    bad = api(lg.admin).patch(lg.url(""), {"ruleset": {"weekly_deadlines": {
        "declare": {"weekday": "someday", "time": "20:00"}}}}, format="json")
    assert bad.status_code == 400
    assert "ruleset.weekly_deadlines.declare.weekday" in bad.json()["errors"]
    late = api(lg.admin).patch(lg.url(""), {"ruleset": {"weekly_deadlines": {
        "lists": {"weekday": "friday", "time": "25:00"}}}}, format="json")
    assert "ruleset.weekly_deadlines.lists.time" in late.json()["errors"]


def test_the_pause_shows_in_the_public_campaign_list(db):
    lg = make_league(visibility="public", name="Open league")
    lg.start()
    _paused(lg, "Tournament weekend")
    rows = api().get("/api/v1/campaigns/").json()["results"]
    row = next(r for r in rows if r["id"] == lg.campaign.pk)
    assert row["paused"] is True and row["pause_reason"] == "Tournament weekend"
