"""One lock order for a campaign and its round (``campaigns/locking.py``): every service that
locks both takes the campaign row first, then the round, so a pause, a player's "done", the
admin's advance and the periodic job racing each other queue instead of deadlocking
(R-RND-2, the campaign's pause). A deadlock that happens anyway is retried, and never answered
as "database unavailable"."""

import contextlib
import logging
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.rosters import parse_entries
from battles.services.attacks import purchase_create
from battles.services.corrections import player_armies_adjust
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_report
from campaigns import access, locking
from campaigns.errors import Conflict
from campaigns.models import Campaign, Round
from campaigns.selectors.rounds import current_round
from campaigns.services.corrections import check_correctable
from league.services.pause import campaign_pause, campaign_resume, round_extend_deadline
from league.services.readiness import phase_done_mark, round_advance_if_ready
from league.services.rounds import advance_due_rounds, campaign_advance, round_run_due
from tests.concurrency import at_once
from tests.worlds import declare, duel, make_league, row, tile

DEADLINE = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
BEFORE = DEADLINE - timedelta(minutes=1)  # the pause, the last "done", the admin's advance
AFTER = DEADLINE + timedelta(minutes=1)  # the periodic job finds the deadline passed


def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")


def _declare_waiting_for_dora():
    """Anna attacks ben; anna, ben and carl said done for declare, dora has not."""
    lg = make_league()
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    for player in (lg.a, lg.b, lg.c):
        phase_done_mark(round=rnd, player=player, now=BEFORE)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=DEADLINE)
    return lg, rnd


class _DatabaseErrors(logging.Handler):
    """Database errors that services log and swallow (the early advance after a "done", the
    periodic job's retries): a deadlock there must show in the test too."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        if record.exc_info and isinstance(record.exc_info[1], OperationalError):
            self.seen.append(record.exc_info[1])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(20))
def test_r_rnd_2_pause_done_advance_and_periodic_job_never_deadlock(attempt):
    _needs_postgres()
    lg, rnd = _declare_waiting_for_dora()
    errors = _DatabaseErrors()
    logging.getLogger().addHandler(errors)
    try:
        results = at_once(
            lambda: campaign_pause(campaign=lg.campaign, by=lg.admin, now=BEFORE),
            lambda: phase_done_mark(round=rnd, player=lg.d, phase="declare", now=BEFORE),
            lambda: campaign_advance(campaign=lg.campaign, expected_phase="declare",
                                     now=BEFORE, by=lg.admin),
            lambda: advance_due_rounds(now=AFTER))
    finally:
        logging.getLogger().removeHandler(errors)
    failed = [r for r in results if isinstance(r, OperationalError)]
    assert not failed and not errors.seen, (results, errors.seen)
    assert not isinstance(results[0], Exception), results  # nothing else pauses: it must work
    rnd.refresh_from_db()
    campaign = rnd.campaign
    assert Round.objects.filter(campaign=campaign).count() == 1
    # at most one advance: declare, or its automatic fleets phase, or the lists after it
    assert rnd.phase in ("declare", "fleets", "lists"), rnd.phase
    assert rnd.attention_at is None  # the periodic job never gave up on it
    # the pause holds the clock of whichever phase it found
    assert campaign.paused_at == BEFORE
    if rnd.phase in ("declare", "lists"):
        assert rnd.phase_deadline is None and rnd.deadline_left > timedelta(0)
    advance_due_rounds(now=AFTER + timedelta(days=30))
    rnd.refresh_from_db()
    assert rnd.phase in ("declare", "fleets", "lists")  # nothing moves while paused


# --- the order itself (the SQL each service sends) ----------------------------------------------

def _locked_tables(sql: str) -> set[str]:
    """The tables whose rows a SELECT ... FOR [NO KEY] UPDATE locks: every table of its outer
    FROM and JOINs, or those named after OF (tables in a sub-SELECT are only read)."""
    head, _, lock = re.split(r" (FOR (?:NO KEY )?UPDATE)", sql, maxsplit=1)
    outer = head.split(" WHERE ", 1)[0]
    tables = re.findall(r'(?:FROM|JOIN) "?(\w+)"?(?: (?!ON\b|WHERE\b|INNER\b|LEFT\b)(\w+))?',
                        outer)
    named = set(re.findall(r'"?(\w+)"?', lock.split(" OF ", 1)[1])) if " OF " in lock else None
    return {table for table, alias in tables
            if named is None or table in named or alias in named}


def _lock_sequence(queries) -> list[set[str]]:
    return [_locked_tables(q["sql"]) for q in queries.captured_queries
            if re.search(r" FOR (NO KEY )?UPDATE", q["sql"])]


def _check_order(queries) -> None:
    """campaigns.locking: campaign, then round, then player: a round is locked only once its
    campaign is, by an earlier statement (a join locks its rows in an order of its own)."""
    sequence = _lock_sequence(queries)
    assert any("campaigns_round" in locked for locked in sequence), sequence
    held: set[str] = set()
    for locked in sequence:
        if "campaigns_round" in locked - held:
            assert "campaigns_campaign" in held, sequence
        if "campaigns_player" in locked - held and "campaigns_round" in locked | held:
            assert "campaigns_round" in held, sequence
        held |= locked


def _capture(call):
    # a service refused after its locks (409) still shows its order
    with CaptureQueriesContext(connection) as queries, contextlib.suppress(Conflict):
        call()
    return queries


@pytest.fixture
def started(db):
    _needs_postgres()
    lg = make_league()
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    return lg, rnd, tile(alpha, 1, 0, lg.b)


def _pause_then_resume(lg):
    campaign_pause(campaign=lg.campaign, by=lg.admin, now=BEFORE)
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=BEFORE)


SERVICES = {
    "pause and resume": lambda lg, rnd, target: _pause_then_resume(lg),
    "extend": lambda lg, rnd, target: round_extend_deadline(campaign=lg.campaign, by=lg.admin,
                                                            hours=2),
    "admin advance": lambda lg, rnd, target: campaign_advance(
        campaign=lg.campaign, expected_phase="declare", by=lg.admin),
    "periodic job": lambda lg, rnd, target: (
        Round.objects.filter(pk=rnd.pk).update(phase_deadline=DEADLINE),
        round_run_due(round_id=rnd.pk, phase="declare", now=AFTER)),
    "done": lambda lg, rnd, target: phase_done_mark(round=rnd, player=lg.a),
    "early advance": lambda lg, rnd, target: round_advance_if_ready(round_id=rnd.pk),
    "purchase": lambda lg, rnd, target: purchase_create(player=lg.a, round=rnd,
                                                        attack_armies=1),
    "declaration": lambda lg, rnd, target: declare(lg.a, rnd, target),
    "armies correction": lambda lg, rnd, target: player_armies_adjust(
        player=lg.b, by=lg.admin, reason="typo", requisition=5),
    "map correction guard": lambda lg, rnd, target: check_correctable(lg.campaign),
    "current round for a write": lambda lg, rnd, target: current_round(lg.campaign, lock=True),
}


@pytest.mark.parametrize("service", SERVICES)
def test_r_rnd_2_services_lock_the_campaign_before_its_round(started, service, settings):
    settings.PREPARED_STATEMENTS = False  # the declaration's SQL as it is, not EXECUTE
    lg, rnd, target = started
    _check_order(_capture(lambda: SERVICES[service](lg, rnd, target)))


@pytest.mark.parametrize("phase", ["lists", "battles"])
def test_r_rnd_2_battle_services_lock_the_campaign_before_its_round(db, phase):
    _needs_postgres()
    lg = make_league()
    battle = duel(lg, phase)
    if phase == "lists":
        call = lambda: army_list_submit(  # noqa: E731
            battle=battle, player=lg.a, parsed=parse_entries(
                {"name": "List", "entries": [{"name": "Unit", "points": 500}]}))
    else:
        call = lambda: battle_result_report(battle=battle, player=lg.a,  # noqa: E731
                                            outcome="victory", attacker_vp=10, defender_vp=0)
    _check_order(_capture(call))


def test_the_order_check_sees_a_round_locked_before_its_campaign(started):
    """The check itself fails on the order the services had before: the round locked with
    its campaign in one joined statement, or before it."""
    lg, rnd, _target = started
    with pytest.raises(AssertionError):
        _check_order(_capture(lambda: Round.objects.select_for_update()
                              .select_related("campaign").get(pk=rnd.pk)))
    with pytest.raises(AssertionError):
        _check_order(_capture(lambda: (
            Round.objects.select_for_update().get(pk=rnd.pk),
            Campaign.objects.select_for_update().get(pk=lg.campaign.pk))))


# --- a deadlock that outlasts the retries -------------------------------------------------------

def _deadlock() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = type("DeadlockDetected", (Exception,), {"sqlstate": "40P01"})()
    return error


def test_a_deadlock_is_retried_then_succeeds(transactional_db, monkeypatch):
    monkeypatch.setattr(locking, "PAUSE_SECONDS", 0)
    calls = []

    @locking.retry_on_deadlock
    def service():
        calls.append(1)
        if len(calls) < 3:
            raise _deadlock()
        return "done"

    assert service() == "done" and len(calls) == 3


def test_a_lost_connection_is_not_retried(transactional_db):
    calls = []

    @locking.retry_on_deadlock
    def service():
        calls.append(1)
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError):
        service()
    assert len(calls) == 1


@pytest.mark.parametrize("api", [True, False])
def test_a_deadlock_after_the_retries_is_a_409_try_again_never_503(lg, monkeypatch, api):
    monkeypatch.setattr(locking, "PAUSE_SECONDS", 0)

    def deadlocked(*args, **kwargs):
        raise _deadlock()

    monkeypatch.setattr(access, "is_campaign_admin", deadlocked)
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(lg.admin)
    if api:
        response = client.post(f"/api/v1/campaigns/{lg.campaign.pk}/pause/", {"reason": "x"},
                               content_type="application/json")
        assert response.json()["code"] == "try_again"
    else:
        response = client.post(reverse("campaigns:manage-pause", args=[lg.campaign.pk]),
                               {"reason": "x"})
    assert response.status_code == 409, response.content
    assert "versuche es noch einmal" in response.content.decode()
