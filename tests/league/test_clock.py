"""The periodic job's clock (R-RND-2): every tick path leaves its heartbeat ("beat" for celery
beat and ``manage.py tick``, "in-process" for the clock of ``make run``); the in-process clock
thread advances a round whose deadline passed and survives a failing tick; the advances the
clock makes are in the audit log as "automatic" (actor None), each once."""

import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from campaigns.models import AdminAction, ClockBeat, Round
from league import clock, tasks
from league.services.rounds import advance_due_rounds, campaign_advance, campaign_start
from tests.worlds import make_league


def _league_due(now):
    """A league whose round 1 is in declare with its deadline passed at ``now`` (early
    advance off: the deadline alone moves it)."""
    lg = make_league()
    lg.campaign.ruleset = {**lg.campaign.ruleset, "early_advance": False}
    lg.campaign.save()
    rnd = campaign_start(campaign=lg.campaign, now=now - timedelta(hours=49))
    assert rnd.phase_deadline < now
    return lg, rnd


def _beat(name: str) -> ClockBeat:
    return ClockBeat.objects.get(name=name)


# --- the heartbeat of every tick path ----------------------------------------------------------

@pytest.mark.django_db
def test_r_rnd_2_the_periodic_job_leaves_a_beat_heartbeat_with_its_due_rounds():
    now = timezone.now()
    _league_due(now)
    assert advance_due_rounds(now) == 1
    beat = _beat("beat")
    assert (beat.last_at, beat.due_rounds) == (now, 1)
    later = now + timedelta(minutes=1)
    advance_due_rounds(later)  # the same row, updated
    assert ClockBeat.objects.count() == 1 and _beat("beat").last_at == later
    assert _beat("beat").due_rounds == 0


@pytest.mark.django_db
def test_r_rnd_2_manage_py_tick_leaves_the_beat_heartbeat(capsys):
    call_command("tick")
    assert "Handled 0 due round(s)." in capsys.readouterr().out
    assert timezone.now() - _beat("beat").last_at < timedelta(minutes=1)


@pytest.mark.django_db
def test_r_rnd_2_the_celery_beat_task_leaves_the_beat_heartbeat():
    tasks.advance_due_rounds.apply()  # what beat's schedule calls, run here
    assert timezone.now() - _beat("beat").last_at < timedelta(minutes=1)
    assert not ClockBeat.objects.filter(name="in-process").exists()


@pytest.mark.django_db(transaction=True)
def test_r_rnd_2_the_in_process_tick_leaves_its_own_heartbeat():
    assert clock.tick() == 0  # on its own connection, closed after
    assert timezone.now() - _beat("in-process").last_at < timedelta(minutes=1)
    assert not ClockBeat.objects.filter(name="beat").exists()


@pytest.mark.django_db
def test_a_heartbeat_that_cannot_be_written_never_fails_the_tick(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ClockBeat.objects, "update_or_create", broken)
    assert advance_due_rounds() == 0
    assert "could not be written" in caplog.text


# --- the audit log: the clock's advances, automatic, each once --------------------------------

@pytest.mark.django_db
def test_r_rnd_2_the_clocks_advances_are_in_the_audit_log_as_automatic():
    now = timezone.now()
    lg, rnd = _league_due(now)
    advance_due_rounds(now)
    rnd.refresh_from_db()
    assert rnd.phase == "lists"  # declare -> fleets at the deadline, fleets' job -> lists
    entries = list(AdminAction.objects.filter(campaign=lg.campaign).order_by("id"))
    assert [(e.kind, e.actor, e.before, e.after, e.public) for e in entries] == [
        ("round.deadline_advance", None, {"phase": "declare"}, {"phase": "fleets"}, True),
        ("round.job_advance", None, {"phase": "fleets"}, {"phase": "lists"}, True)]
    assert all(e.round_id == rnd.pk and e.target == "round 1" for e in entries)
    advance_due_rounds(now)  # nothing due: nothing more logged
    assert AdminAction.objects.filter(campaign=lg.campaign).count() == 2


@pytest.mark.django_db
def test_r_rnd_2_an_admin_advance_is_logged_once_as_the_admins():
    lg = make_league()
    rnd = campaign_start(campaign=lg.campaign)
    campaign_advance(campaign=lg.campaign, expected_phase="declare", by=lg.admin)
    kinds = list(AdminAction.objects.filter(campaign=lg.campaign).values_list("kind", "actor"))
    assert kinds == [("round.advance", lg.admin.pk)]  # not also as the clock's
    rnd.refresh_from_db()
    assert rnd.phase == "fleets"


def test_r_rnd_2_the_clocks_kinds_are_labelled_in_english_and_german():
    from django.utils import translation

    from web.presenters.admin_log import KIND_LABELS, kind_label

    assert kind_label("round.deadline_advance") == "Phase advanced: its deadline passed"
    for kind in ("round.deadline_advance", "round.job_advance"):
        with translation.override("de"):
            german = kind_label(kind)
        assert german != str(KIND_LABELS[kind]) and "weitergeschaltet" in german


# --- the clock thread ---------------------------------------------------------------------------

def _wait(condition, seconds: float = 20) -> bool:
    """Polls ``condition``; SQLite's shared-memory test database answers a read that meets the
    clock thread's write with "table is locked" (no busy timeout there): read again."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except OperationalError:
            pass
        time.sleep(0.05)
    return False


def test_a_failing_tick_never_stops_the_next(caplog):
    calls = []

    def job():
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            raise RuntimeError("the database went away")

    ticker = clock.Clock(0.01, job=job)
    ticker.start()
    try:
        assert _wait(lambda: len(calls) >= 3)
    finally:
        ticker.stop()
        ticker.join(5)
    assert not ticker.is_alive() and ticker.ticks >= 3
    assert set(calls) == {"feldzug-clock"} and ticker.daemon
    assert "The clock's tick failed" in caplog.text and "went away" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_r_rnd_2_the_clock_thread_advances_a_round_whose_deadline_passed():
    _lg, rnd = _league_due(timezone.now())
    ticker = clock.Clock(0.2)
    ticker.start()
    try:
        assert _wait(lambda: Round.objects.get(pk=rnd.pk).phase == "lists")
    finally:
        ticker.stop()
        ticker.join(10)
    assert _beat("in-process").due_rounds >= 0
    assert AdminAction.objects.filter(kind="round.deadline_advance", actor=None).count() == 1


def test_start_runs_no_clock_unless_the_setting_says_so(settings, monkeypatch):
    settings.IN_PROCESS_CLOCK = False
    assert clock.start() is None
    started = []
    monkeypatch.setattr(clock.Clock, "start", lambda self: started.append(self))
    monkeypatch.setattr(clock.Clock, "is_alive", lambda self: bool(started))
    monkeypatch.setattr(clock, "_running", None)
    settings.IN_PROCESS_CLOCK, settings.CLOCK_SECONDS = True, 5
    first = clock.start()
    assert first is clock.start() and len(started) == 1  # one clock per process
    assert first.seconds == 5
