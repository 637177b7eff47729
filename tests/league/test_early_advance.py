"""Early advance (R-RND-2 [reading]): a waiting phase advances as soon as
every player who can act in it has acted or said "done for this phase"; otherwise at its
deadline. Safe under races like every advance."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle
from battles.rosters import parse_entries
from battles.services.conquest import conquest_choose
from battles.services.lists import army_list_submit
from battles.services.results import (
    battle_result_confirm,
    battle_result_dispute,
    battle_result_report,
)
from campaigns.errors import Conflict
from campaigns.models import Absence, AdminAction, Campaign, PhaseDone, Round
from campaigns.selectors.absences import campaign_day
from league.selectors.readiness import readiness
from league.services import readiness as services
from league.services.readiness import (
    phase_done_clear,
    phase_done_mark,
    readiness_sweep,
    round_advance_if_ready,
)
from league.services.rounds import advance_due_rounds, round_run_due
from tests.concurrency import at_once
from tests.factories import PlayerFactory
from tests.worlds import advance_to, declare, duel, make_league, row, tile


def _phase(rnd: Round) -> str:
    rnd.refresh_from_db()
    return rnd.phase


def _done(rnd: Round, *players, **kwargs):
    return [phase_done_mark(round=rnd, player=p, **kwargs) for p in players]


def _early_advances(campaign) -> int:
    return AdminAction.objects.filter(campaign=campaign, kind="round.early_advance").count()


def _submit(battle: Battle, player) -> None:
    army_list_submit(battle=battle, player=player, parsed=parse_entries(
        {"name": "List", "entries": [{"name": "Unit", "points": 500}]}))


def _away(player) -> Absence:
    today = campaign_day(player.campaign, timezone.now())
    return Absence.objects.create(player=player, starts_on=today, ends_on=today)


# --- declare: only "done" counts --------------------------------------------------------------

def test_declare_advances_when_every_player_is_done(lg):
    rnd = lg.start()
    results = _done(rnd, *lg.players[:3])
    assert _phase(rnd) == "declare" and results == [(True, False)] * 3
    created, advanced = phase_done_mark(round=rnd, player=lg.d)
    assert (created, advanced) == (True, True)
    assert _phase(rnd) in ("fleets", "lists")  # fleets runs its job after commit
    entry = AdminAction.objects.get(campaign=lg.campaign, kind="round.early_advance")
    assert entry.actor is None and entry.public and entry.target == "round 1"
    assert entry.before == {"phase": "declare"} and entry.after == {"phase": "fleets"}


def test_one_player_missing_keeps_the_phase(lg):
    """R-RND-2: declaring is open-ended; a declaration is no sign of being done."""
    rnd = lg.start()
    _done(rnd, *lg.players[:3])
    state = readiness(rnd, now=timezone.now())
    assert not state.ready and state.done_count == 3 and state.waiting == {lg.d.pk}
    assert readiness_sweep(now=timezone.now()) == 0
    assert _phase(rnd) == "declare" and _early_advances(lg.campaign) == 0


def test_an_away_player_counts_as_ready(lg):
    """R-RND-3: an away player's inputs take their defaults; the phase does not wait."""
    rnd = lg.start()
    _away(lg.d)
    _done(rnd, *lg.players[:2])
    assert _phase(rnd) == "declare"
    assert phase_done_mark(round=rnd, player=lg.c) == (True, True)
    assert _phase(rnd) != "declare"


def test_marking_twice_is_one_mark_and_clear_takes_it_back(lg):
    rnd = lg.start()
    assert phase_done_mark(round=rnd, player=lg.a) == (True, False)
    assert phase_done_mark(round=rnd, player=lg.a) == (False, False)
    assert PhaseDone.objects.filter(round=rnd, player=lg.a, phase="declare").count() == 1
    assert phase_done_clear(round=rnd, player=lg.a, phase="declare") is True
    assert phase_done_clear(round=rnd, player=lg.a) is False
    _done(rnd, lg.b, lg.c, lg.d)
    assert _phase(rnd) == "declare"  # anna took hers back


# --- lists, battles, conquest: acting counts ------------------------------------------------

def test_lists_advance_when_both_lists_are_in_and_reveal_them(lg):
    """R-ARM-3: leaving lists early reveals the lists, as at the deadline."""
    battle = duel(lg, "lists")
    rnd = battle.round
    _submit(battle, lg.a)
    assert readiness_sweep(now=timezone.now()) == 0 and _phase(rnd) == "lists"
    _submit(battle, lg.b)
    # carl and dora have no battle: nothing waits for them
    assert readiness_sweep(now=timezone.now()) == 1
    assert _phase(rnd) == "battles"
    battle.refresh_from_db()
    assert battle.lists_revealed_at is not None


def test_a_done_stands_for_a_missing_list(lg):
    battle = duel(lg, "lists")
    _submit(battle, lg.a)
    assert phase_done_mark(round=battle.round, player=lg.b) == (True, True)
    assert _phase(battle.round) == "battles"


def test_battles_wait_for_the_confirming_side(lg):
    battle = duel(lg, "battles")
    rnd = battle.round
    battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=5,
                         defender_vp=1)
    state = readiness(rnd, now=timezone.now())
    assert state.waiting == {lg.b.pk} and not state.ready  # ben owes the confirmation
    assert round_advance_if_ready(round_id=rnd.pk) is False
    battle_result_confirm(battle=Battle.objects.get(pk=battle.pk), player=lg.b)
    assert round_advance_if_ready(round_id=rnd.pk) is True
    assert _phase(rnd) == "conquest"


def test_a_disputed_result_holds_the_phase_for_the_admin(lg):
    """[reading R-RND-2] ending battles early would take the disputed battle as unplayed
    (R-RND-3): the admin settles it first, or the deadline passes."""
    battle = duel(lg, "battles")
    battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=5,
                         defender_vp=1)
    battle_result_dispute(battle=Battle.objects.get(pk=battle.pk), player=lg.b, reason="no")
    _done(battle.round, *lg.players)
    state = readiness(battle.round, now=timezone.now())
    assert state.held and not state.waiting and not state.ready
    assert _phase(battle.round) == "battles"


def test_conquest_advances_once_the_choice_is_made(lg):
    battle = duel(lg, "battles")
    battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=5,
                         defender_vp=1)
    battle_result_confirm(battle=Battle.objects.get(pk=battle.pk), player=lg.b)
    rnd = advance_to(battle.round, "conquest")
    assert readiness(rnd, now=timezone.now()).waiting == {lg.a.pk}
    conquest_choose(player=lg.a, rnd=rnd, roll=[battle.attack_id])
    assert readiness_sweep(now=timezone.now()) == 1
    rnd.refresh_from_db()
    assert rnd.phase == "closed" and lg.campaign.rounds.get(number=2).phase == "declare"


def _conquest_without_rolls(lg) -> Round:
    """A conquest phase nobody can roll in: one without a won attack is passed over on
    entering [reading R-RND-1, R-CON-4], so here its won attack went away after it opened
    (an admin's correction), set directly."""
    rnd = advance_to(lg.start(), "battles")
    Round.objects.filter(pk=rnd.pk).update(phase="conquest")
    rnd.refresh_from_db()
    return rnd


def test_a_phase_nobody_can_act_in_is_ready_at_once(lg):
    """A conquest phase nobody won anything in waits for nobody."""
    rnd = _conquest_without_rolls(lg)
    assert readiness(rnd, now=timezone.now()).ready
    assert readiness_sweep(now=timezone.now()) == 1
    assert _phase(rnd) == "closed"


# --- when it never advances early --------------------------------------------------------------

def test_early_advance_off_never_advances_early(lg):
    lg.set_rules(early_advance=False)
    rnd = _conquest_without_rolls(lg)  # nobody can act: ready, were it on
    assert readiness_sweep(now=timezone.now()) == 0
    assert round_advance_if_ready(round_id=rnd.pk) is False
    with pytest.raises(Conflict) as refused:
        phase_done_mark(round=rnd, player=lg.a)
    assert refused.value.code == "early_advance_off"
    assert _phase(rnd) == "conquest"


def test_a_paused_campaign_never_advances_early(lg):
    rnd = lg.start()
    _done(rnd, *lg.players[:3])
    Campaign.objects.filter(pk=lg.campaign.pk).update(paused_at=timezone.now(),
                                                      pause_reason="Christmas break")
    with pytest.raises(Conflict) as refused:
        phase_done_mark(round=rnd, player=lg.d)
    assert refused.value.code == "campaign_paused" and refused.value.status == 409
    assert "Christmas break" in refused.value.message
    PhaseDone.objects.create(round=rnd, player=lg.d, phase="declare")  # as if before
    assert readiness_sweep(now=timezone.now()) == 0
    assert round_advance_if_ready(round_id=rnd.pk) is False
    assert _phase(rnd) == "declare"


def test_the_deadline_still_advances_a_phase_nobody_is_done_with(lg):
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))  # anna attacks ben: lists wait for them
    phase_done_mark(round=rnd, player=lg.a)
    advance_due_rounds(rnd.phase_deadline + timedelta(minutes=1))
    assert _phase(rnd) == "lists"  # where the duel's lists are still owed
    assert _early_advances(lg.campaign) == 0


def test_done_counts_for_its_own_phase_only(lg):
    battle = duel(lg, "lists")
    rnd = battle.round
    PhaseDone.objects.create(round=rnd, player=lg.b, phase="declare")
    _submit(battle, lg.a)
    assert readiness(rnd, now=timezone.now()).waiting == {lg.b.pk}


# --- refusals ------------------------------------------------------------------------------------

def test_mark_after_the_phase_moved_on_is_409(lg):
    rnd = lg.start()
    advance_to(rnd, "lists")
    with pytest.raises(Conflict) as refused:
        phase_done_mark(round=rnd, player=lg.a, phase="declare")
    assert refused.value.code == "phase_over" and refused.value.status == 409
    assert not PhaseDone.objects.filter(round=rnd).exists()


def test_mark_outside_a_waiting_phase_is_409(lg):
    rnd = lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase="fleets")
    with pytest.raises(Conflict):
        phase_done_mark(round=rnd, player=lg.a)


def test_only_the_campaigns_players_mark(lg):
    rnd = lg.start()
    with pytest.raises(PermissionDenied):
        phase_done_mark(round=rnd, player=None)
    with pytest.raises(PermissionDenied):
        phase_done_mark(round=rnd, player=PlayerFactory())  # of another campaign


def test_a_failing_advance_keeps_the_mark(lg, monkeypatch):
    rnd = lg.start()
    _done(rnd, *lg.players[:3])

    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "round_advance", broken)
    assert phase_done_mark(round=rnd, player=lg.d) == (True, False)
    assert PhaseDone.objects.filter(round=rnd).count() == 4
    monkeypatch.undo()
    assert readiness_sweep(now=timezone.now()) == 1  # the periodic job picks it up
    assert _phase(rnd) != "declare"


# --- the periodic job ----------------------------------------------------------------------------

def test_the_periodic_job_advances_ready_rounds(lg):
    rnd = _conquest_without_rolls(lg)
    advance_due_rounds(timezone.now())
    assert _phase(rnd) == "closed"


def _sweep_queries(phase: str, players: int, name: str) -> int:
    lg = make_league(name=name, admin=f"orga-{name}",
                     players=tuple(f"{name}-{i}" for i in range(players)))
    if phase == "declare":
        lg.start()
    else:
        duel(lg, phase)  # a battle of two of them: its lists or result are owed
    with CaptureQueriesContext(connection) as queries:
        assert readiness_sweep(now=timezone.now()) == 0
    Round.objects.filter(campaign=lg.campaign).update(phase="closed")  # out of the next sweep
    return len(queries)


@pytest.mark.parametrize("phase", ["declare", "lists", "battles"])
def test_the_readiness_sweep_needs_few_queries_per_round(db, phase):
    """The same number of queries per round however many players the campaign has, and few."""
    small = _sweep_queries(phase, 2, "small")
    large = _sweep_queries(phase, 9, "large")
    assert small == large <= 12


# --- races (PostgreSQL row locks) ----------------------------------------------------------------

_together = at_once  # tests/concurrency.py


def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")


def _duel_declared():
    """Anna attacks ben: once declare is left, the lists phase waits for their lists."""
    lg = make_league()
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    return lg, rnd


@pytest.mark.django_db(transaction=True)
def test_two_players_done_at_once_advance_once():
    _needs_postgres()
    lg, rnd = _duel_declared()
    _done(rnd, lg.a, lg.b)
    results = _together(lambda: phase_done_mark(round=rnd, player=lg.c),
                        lambda: phase_done_mark(round=rnd, player=lg.d))
    assert sorted(advanced for _created, advanced in results) == [False, True]
    assert _phase(rnd) == "lists"  # declare -> fleets (its job) -> lists, once
    assert _early_advances(lg.campaign) == 1


@pytest.mark.django_db(transaction=True)
def test_a_done_racing_the_deadline_advances_once():
    _needs_postgres()
    lg, rnd = _duel_declared()
    _done(rnd, lg.a, lg.b, lg.c)
    deadline = rnd.phase_deadline
    results = _together(
        lambda: phase_done_mark(round=rnd, player=lg.d, phase="declare",
                                now=deadline - timedelta(seconds=1)),
        lambda: round_run_due(round_id=rnd.pk, phase="declare",
                              now=deadline + timedelta(seconds=1)))
    failed = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(r, Conflict) and r.code == "phase_over" for r in failed), results
    assert _phase(rnd) == "lists"
    assert _early_advances(lg.campaign) <= 1


@pytest.mark.django_db(transaction=True)
def test_racing_readiness_checks_advance_and_log_once():
    _needs_postgres()
    lg, rnd = _duel_declared()
    for player in lg.players:
        PhaseDone.objects.create(round=rnd, player=player, phase="declare")
    results = _together(*[lambda: round_advance_if_ready(round_id=rnd.pk, phase="declare")
                          for _ in range(4)])
    assert sorted(results) == [False, False, False, True]
    assert _phase(rnd) == "lists" and _early_advances(lg.campaign) == 1
