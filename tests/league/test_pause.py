"""Pause, resume and extend, and their audit entries,, on the services:
the periodic job leaves a paused campaign alone, the deadline resumes with the time it had left
(explicit ``now=``), no reminders go out, the every-minute steps wait, the confirm_hours windows
do not run out during a pause [reading R-BAT-3], and a pause racing the periodic advance on
PostgreSQL either comes after the advance or prevents it (R-RND-2)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from battles.models import Battle
from battles.services.notifications import reminders_send
from battles.services.results import battle_result_report, results_confirm_overdue
from campaigns.errors import Conflict, RuleViolation
from campaigns.models import AdminAction, Campaign, Round
from league.services.pause import campaign_pause, campaign_resume, round_extend_deadline
from league.services.rounds import (
    advance_due_rounds,
    campaign_advance,
    campaign_start,
    due_rounds,
    round_advance,
    round_run_due,
    round_run_phase_job,
    round_set_deadline,
)
from tests.concurrency import at_once
from tests.factories import CampaignFactory, PlayerFactory, UserFactory
from tests.worlds import duel

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


def _started(lg, now=T0) -> Round:
    return campaign_start(campaign=lg.campaign, now=now)


def _fresh(rnd: Round) -> Round:
    return Round.objects.select_related("campaign").get(pk=rnd.pk)


def test_pause_stops_the_periodic_job_past_the_deadline(lg):
    rnd = _started(lg)  # declare: 48 h
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Easter", now=T0 + 10 * H)
    later = T0 + 100 * H  # long past the old deadline
    assert due_rounds(later) == []
    advance_due_rounds(now=later)
    assert _fresh(rnd).phase == "declare"


def test_resume_restores_the_time_left(lg):
    rnd = _started(lg)
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Easter", now=T0 + 10 * H)
    paused = _fresh(rnd)
    assert paused.phase_deadline is None and paused.deadline_left == 38 * H
    assert paused.campaign.paused_at == T0 + 10 * H and paused.campaign.pause_reason == "Easter"
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 200 * H)
    resumed = _fresh(rnd)
    assert resumed.phase_deadline == T0 + 238 * H and resumed.deadline_left is None
    assert resumed.campaign.paused_at is None and resumed.campaign.pause_reason == ""
    advance_due_rounds(now=T0 + 237 * H)
    assert _fresh(rnd).phase == "declare"
    advance_due_rounds(now=T0 + 238 * H)
    assert _fresh(rnd).phase != "declare"  # the deadline runs again


def test_pausing_twice_and_resuming_a_running_campaign_are_409(lg):
    _started(lg)
    with pytest.raises(Conflict) as not_paused:
        campaign_resume(campaign=lg.campaign, by=lg.admin)
    assert not_paused.value.code == "not_paused"
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + H)
    with pytest.raises(Conflict) as again:
        campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + 2 * H)
    assert again.value.code == "already_paused"
    assert Campaign.objects.get(pk=lg.campaign.pk).paused_at == T0 + H  # the clock kept


def test_admin_advance_is_refused_while_paused(lg):
    rnd = _started(lg)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + H)
    with pytest.raises(Conflict) as refused:
        campaign_advance(campaign=lg.campaign, expected_phase="declare", by=lg.admin)
    assert refused.value.code == "campaign_paused" and "resume" in refused.value.message
    with pytest.raises(Conflict):
        round_advance(round_id=rnd.pk, expected_phase="declare")
    assert _fresh(rnd).phase == "declare"


def test_no_reminders_while_paused(lg):
    rnd = _started(lg)  # the reminder is due in the last 24 hours (REMINDER_BEFORE)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + 30 * H)
    assert reminders_send(now=T0 + 40 * H) == 0
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 100 * H)
    # 18 hours were left: the reminder goes out once the resumed deadline is near
    assert reminders_send(now=T0 + 101 * H) == 1
    assert _fresh(rnd).phase == "declare"


def test_extend_moves_the_deadline_by_exactly_n_hours(lg):
    rnd = _started(lg)
    moved = round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=30, now=T0 + H)
    assert moved.phase_deadline == T0 + 48 * H + 30 * H
    entry = AdminAction.objects.get(kind="round.extend")
    assert entry.after == {"hours": 30, "deadline": (T0 + 78 * H).isoformat()}
    assert entry.actor == lg.admin and entry.round_id == rnd.pk


@pytest.mark.parametrize("hours", [0, 721, "24", None, True, 1.5])
def test_extend_takes_1_to_720_whole_hours(lg, hours):
    _started(lg)
    with pytest.raises(RuleViolation) as refused:
        round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=hours)
    assert refused.value.code == "R-RND-1" and refused.value.field == "hours"


def test_extend_while_paused_grows_the_time_left(lg):
    rnd = _started(lg)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + 8 * H)
    round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=24, now=T0 + 9 * H)
    assert _fresh(rnd).deadline_left == 64 * H and _fresh(rnd).phase_deadline is None
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 50 * H)
    assert _fresh(rnd).phase_deadline == T0 + 114 * H


def test_extend_refused_for_automatic_phases_and_passed_lists(lg):
    rnd = _started(lg)
    Round.objects.filter(pk=rnd.pk).update(phase="fleets", phase_deadline=None)
    with pytest.raises(Conflict):
        round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=24)
    Round.objects.filter(pk=rnd.pk).update(phase="lists", phase_deadline=T0)
    with pytest.raises(Conflict) as revealed:  # R-ARM-3: revealed lists stay revealed
        round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=24, now=T0 + H)
    assert revealed.value.code == "lists_revealed"


def test_setting_an_absolute_deadline_while_paused_is_refused(lg):
    rnd = _started(lg)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + H)
    with pytest.raises(Conflict) as refused:
        round_set_deadline(rnd=rnd, deadline=T0 + 99 * H, now=T0 + 2 * H, by=lg.admin)
    assert refused.value.code == "campaign_paused"


def test_a_passed_deadline_stays_passed_and_moves_on_after_resume(lg):
    """[reading R-ARM-3] Lists revealed by a deadline that passed before the pause (the job
    had not run yet) stay revealed; the round moves on right after the resume."""
    rnd = _started(lg)
    Round.objects.filter(pk=rnd.pk).update(phase="lists", phase_deadline=T0)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + H)
    assert _fresh(rnd).phase_deadline == T0 and _fresh(rnd).deadline_left == timedelta(0)
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 5 * H)
    assert _fresh(rnd).phase_deadline == T0
    assert due_rounds(T0 + 5 * H) == [(rnd.pk, "lists")]


def test_r_bat_3_confirm_window_does_not_run_out_during_a_pause(league):
    """A report 10 h old with confirm_hours 48 when the pause began still has 38 h after the
    resume; the every-minute step does nothing while paused."""
    battle = duel(league, "battles")
    battle_result_report(battle=battle, player=league.a, outcome="victory", attacker_vp=10,
                         defender_vp=3, now=T0)
    campaign_pause(campaign=league.campaign, by=league.admin, now=T0 + 10 * H)
    assert results_confirm_overdue(now=T0 + 100 * H) == 0
    campaign_resume(campaign=league.campaign, by=league.admin, now=T0 + 110 * H)
    assert results_confirm_overdue(now=T0 + 147 * H) == 0
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"
    assert results_confirm_overdue(now=T0 + 148 * H) == 1
    assert Battle.objects.get(pk=battle.pk).result_status == "confirmed"


def test_audit_entries_for_advance_deadline_pause_resume(lg):
    rnd = _started(lg)
    round_set_deadline(rnd=rnd, deadline=T0 + 300 * H, now=T0 + H, by=lg.admin)
    moved = AdminAction.objects.get(kind="round.deadline")
    assert moved.before == {"deadline": (T0 + 48 * H).isoformat()}
    assert moved.after == {"deadline": (T0 + 300 * H).isoformat()}
    assert moved.actor == lg.admin and moved.public
    campaign_advance(campaign=lg.campaign, expected_phase="declare", by=lg.admin, now=T0 + H)
    advanced = AdminAction.objects.get(kind="round.advance")
    assert advanced.before == {"phase": "declare"} and advanced.after == {"phase": "fleets"}
    assert advanced.actor == lg.admin and advanced.round_id == rnd.pk
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Holidays", now=T0 + 3 * H)
    assert AdminAction.objects.get(kind="campaign.pause").after == {"reason": "Holidays"}
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 9 * H)
    assert AdminAction.objects.get(kind="campaign.resume").before == {
        "paused_at": (T0 + 3 * H).isoformat()}


def test_pause_before_the_start_then_start_is_refused(lg):
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Waiting for the map")
    with pytest.raises(Conflict):
        campaign_advance(campaign=lg.campaign, by=lg.admin)
    assert not lg.campaign.rounds.exists()


def test_a_round_found_due_before_the_pause_does_not_advance_after_it(lg):
    """The periodic job found the round due, then the admin paused: its task, run late, leaves
    the round alone (R-RND-2 with the pause)."""
    rnd = _started(lg)
    late = T0 + 49 * H
    due = due_rounds(late)
    assert due == [(rnd.pk, "declare")]
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=late)
    for round_id, phase in due:
        round_run_due(round_id=round_id, phase=phase, now=late)
    assert _fresh(rnd).phase == "declare"


def test_an_automatic_phase_waits_and_runs_after_the_resume(
        lg, django_capture_on_commit_callbacks):
    rnd = _started(lg)
    Round.objects.filter(pk=rnd.pk).update(phase="fleets", phase_deadline=None)
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=T0 + H)
    assert round_run_phase_job(round_id=rnd.pk, phase="fleets", now=T0 + 2 * H).phase == "fleets"
    with django_capture_on_commit_callbacks(execute=True):
        campaign_resume(campaign=lg.campaign, by=lg.admin, now=T0 + 3 * H)
    assert _fresh(rnd).phase == "lists"  # the resume handed the job on


# --- races on PostgreSQL ---------------------------------------------------------------------

_race = at_once  # tests/concurrency.py


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(6))
def test_pause_racing_the_periodic_advance(attempt):
    """R-RND-2 with the pause: the round either advanced before the pause (and then keeps its
    new phase's time left) or did not advance at all; never while paused."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    campaign = CampaignFactory()
    PlayerFactory(campaign=campaign)
    admin = UserFactory()
    campaign.admins.add(admin)
    rnd = campaign_start(campaign=campaign, now=T0)
    Round.objects.filter(pk=rnd.pk).update(phase="battles", phase_deadline=T0 + H)
    now = T0 + 2 * H  # the battles deadline passed
    results = _race(lambda: advance_due_rounds(now=now),
                    lambda: campaign_pause(campaign=campaign, by=admin, now=now))
    assert not any(isinstance(r, Exception) for r in results), results
    after = _fresh(rnd)
    assert after.campaign.paused_at == now
    if after.phase == "battles":  # the pause came first: nothing moved
        assert after.deadline_left == timedelta(0)
    else:  # the advance came first; no roll was due, so conquest was passed over and round
        # 2 opened [reading R-RND-1], then the pause held the new phase's clock
        assert after.phase == "closed"
        following = Round.objects.get(campaign=campaign, number=2)
        assert following.phase == "declare" and following.phase_deadline is None
        assert following.deadline_left > timedelta(0)
    current = campaign.rounds.order_by("-number").first()
    advance_due_rounds(now=now + 1000 * H)
    assert _fresh(current).phase == current.phase  # nothing advances while paused
