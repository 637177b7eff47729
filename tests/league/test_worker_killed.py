"""A worker killed in the middle of the fleets phase (item 9): the job's transaction
dies with it, the periodic job finds the automatic phase stuck after
``ROUND_STUCK_AFTER_SECONDS`` and hands it to another worker, and the phase is resolved exactly
once: one record, no duplicate dice counters, no duplicate naval battles (R-RND-2, R-DICE-3,
R-FLT-6). Needs Redis and PostgreSQL (the worker is a separate process); runs in CI."""

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from campaigns.models import DiceRoll, Round
from config.celery import app as celery_app
from fleets.models import FleetPhase, NavalBattle
from league.services.rounds import advance_due_rounds, due_rounds
from league.tasks import run_phase_job

IN_CI = bool(os.environ.get("CI"))
ROOT = Path(__file__).resolve().parents[2]


def _require_services():
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI must run with REDIS_URL and PostgreSQL")
        pytest.skip("needs Redis and PostgreSQL: the worker is a separate process")


@pytest.fixture
def own_queue():
    """The round tasks go to a queue of this test's own, so no other test's worker takes
    them (CI runs tests in parallel on one broker)."""
    queue = f"killed-worker-{uuid.uuid4().hex[:8]}"
    saved = celery_app.conf.task_routes

    def route(routes):
        celery_app.conf.task_routes = routes
        celery_app.amqp.flush_routes()
        celery_app.amqp.__dict__.pop("router", None)  # a cached property holding the routes

    route({"campaigns.run_phase_job": {"queue": queue},
           "campaigns.run_due_round": {"queue": queue}})
    yield queue
    route(saved)
    celery_app.amqp.queues.pop(queue, None)


def _worker(queue: str, log: Path) -> subprocess.Popen:
    db = connection.settings_dict
    url = (f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
           f"{db['PORT'] or 5432}/{db['NAME']}")
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": celery_app.conf.broker_url}
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
               "-Q", queue, "-n", f"{queue}-{uuid.uuid4().hex[:4]}@%h", "--without-gossip",
               "--without-mingle", "--without-heartbeat", "-l", "info"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("ab"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen, sig=signal.SIGKILL) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    process.wait(timeout=20)


def _round_is_locked(round_id: int) -> bool:
    """True while another connection holds the round's row (the job is running)."""
    try:
        with transaction.atomic():
            Round.objects.select_for_update(nowait=True).filter(pk=round_id).exists()
    except DatabaseError:
        return True
    return False


def _wait(condition, seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}; worker log:\n{log.read_text()[-3000:]}")
        time.sleep(0.05)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_leads_to_exactly_one_resolution(own_queue, settings,
                                                                     tmp_path):
    _require_services()
    from bench.fleet_phase import build  # a large fleets phase: 400 fleets of 6 ships

    rnd, _orders = build(400, 6, 60, random.Random(14))
    log = tmp_path / "worker.log"
    first = _worker(own_queue, log)
    second = None
    try:
        run_phase_job.delay(rnd.pk, "fleets")
        _wait(lambda: _round_is_locked(rnd.pk), 30, "the job to start", log)
        assert (rnd.pk, "fleets") not in due_rounds(_now())  # a running job is not doubled
        time.sleep(0.3)  # well inside the job
        _stop(first)  # SIGKILL, mid-phase
        _wait(lambda: not _round_is_locked(rnd.pk), 20, "PostgreSQL to drop the lock", log)
        rnd.refresh_from_db()
        assert rnd.phase == "fleets", "the job finished before the kill: make the phase larger"
        assert not FleetPhase.objects.filter(round=rnd).exists()  # rolled back with the worker

        settings.ROUND_STUCK_AFTER_SECONDS = 2
        _wait(lambda: (rnd.pk, "fleets") in due_rounds(_now()), 10, "the stuck threshold", log)
        second = _worker(own_queue, log)
        assert advance_due_rounds() >= 1  # enqueued for the new worker
        _wait(lambda: Round.objects.get(pk=rnd.pk).phase == "lists", 40,
              "the stuck phase to be resolved", log)
    finally:
        _stop(first)
        if second is not None:
            _stop(second, signal.SIGTERM)

    assert "campaigns.run_due_round" in log.read_text()  # a worker resolved it, not the job
    record = FleetPhase.objects.get(round=rnd)
    counters = list(DiceRoll.objects.filter(round=rnd).values_list("counter", flat=True))
    assert len(counters) == len(set(counters)) == record.dice_count > 0
    battles = Counter(NavalBattle.objects.filter(round=rnd).values_list(
        "area_id", "sequence", "engine", "attacker_id", "defender_id"))
    assert battles and max(battles.values()) == 1
    assert sum(battles.values()) == sum(1 for e in record.events if e.get("step") == "battle")


def _now():
    from django.utils import timezone

    return timezone.now()
