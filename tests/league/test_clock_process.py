"""``make run``'s clock in a real server process (R-RND-2): ``manage.py serve`` as the Makefile
starts it (runserver with its autoreloader, no broker), on a fresh SQLite database with the demo
campaign whose declare deadline has passed, moves the round on by itself within seconds (a
short CLOCK_SECONDS; 120 s at most), and leaves the "in-process" heartbeat. Runs everywhere,
CI included: about 15 s, most of it the migrations."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PREPARE = """
import django
django.setup()
from datetime import timedelta
from django.core.management import call_command
from django.utils import timezone
from campaigns.models import Campaign
from league.demo import DEMO_NAME
from league.services.rounds import round_set_deadline
call_command("migrate", "--noinput", verbosity=0)
call_command("demo")
campaign = Campaign.objects.get(name=DEMO_NAME)
campaign.ruleset = {**campaign.ruleset, "early_advance": False}  # the deadline alone moves it
campaign.save()
rnd = campaign.rounds.get(number=1)
round_set_deadline(rnd=rnd, deadline=timezone.now() - timedelta(minutes=1))
print("round", rnd.pk)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(database: Path) -> dict:
    """The embedded default of ``make run``: SQLite, no broker (an empty REDIS_URL also wins
    over a .env file), the clock on; every second instead of every minute."""
    env = {key: value for key, value in os.environ.items() if key != "RUN_MAIN"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{database}",
               REDIS_URL="", DEBUG="true", CLOCK_SECONDS="1", IN_PROCESS_CLOCK="true",
               PYTHONUNBUFFERED="1")
    return env


def _read(database: Path, sql: str, *args):
    with sqlite3.connect(database, timeout=10) as db:
        return db.execute(sql, args).fetchone()


def test_r_rnd_2_make_runs_clock_moves_a_passed_deadline_in_a_real_server(tmp_path):
    database, log = tmp_path / "db.sqlite3", tmp_path / "serve.log"
    env = _environment(database)
    prepared = subprocess.run([sys.executable, "-c", PREPARE], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stderr
    round_id = int(prepared.stdout.strip().splitlines()[-1].split()[1])
    assert _read(database, "SELECT phase FROM campaigns_round WHERE id = ?", round_id) == (
        "declare",)

    port = _free_port()
    with log.open("w") as out:
        server = subprocess.Popen(  # as `make run`: with the autoreloader
            [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        phase, deadline = "declare", time.monotonic() + 120
        while phase in ("declare", "fleets") and time.monotonic() < deadline \
                and server.poll() is None:
            time.sleep(0.5)
            phase = _read(database, "SELECT phase FROM campaigns_round WHERE id = ?",
                          round_id)[0]
        took = 120 - (deadline - time.monotonic())
        beat, recorded = None, time.monotonic() + 30
        while beat is None and time.monotonic() < recorded and server.poll() is None:
            # the tick records its beat after its work: on a loaded machine a moment later
            beat = _read(database, "SELECT due_rounds FROM campaigns_clockbeat WHERE name = ?",
                         "in-process")
            if beat is None:
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its autoreloaded child
        server.wait(timeout=30)
    output = log.read_text()
    assert phase == "lists", output  # declare -> fleets at the deadline -> its job -> lists
    assert took < 60, took
    assert f"Feldzug is running at http://127.0.0.1:{port}/" in output
    assert "the clock advances deadlines every 1 s" in output
    assert beat is not None, output
    logged = _read(database, "SELECT actor_id FROM campaigns_adminaction WHERE kind = ?",
                   "round.deadline_advance")
    assert logged == (None,), output
    assert "database is locked" not in output
