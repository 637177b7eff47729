"""The fleets phase of a round (R-RND-1 step 2) with scripted dice, through the phase machine and
through a real Celery worker; run twice, concurrently, and on the logged round stream
(R-FLT-6, R-INT-1..6, R-SEA-1..2, R-NAV-8, R-NAV-12, R-VP-1, R-DICE-2/3)."""

import os
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from campaigns.models import DiceRoll, Round
from config.celery import app as celery_app
from fleets.models import Fleet, FleetPhase, NavalBattle, SeaHazard, Ship
from fleets.services import phase as resolution
from league.selectors.standings import live_standings
from league.services.rounds import round_advance, round_run_phase_job
from rules.dice import verify
from tests.concurrency import at_once
from tests.worlds import check_fleet_phase, scripted_dice

IN_CI = bool(os.environ.get("CI"))


def snapshot(rnd: Round) -> dict:
    """Everything the phase writes."""
    return {
        "fleets": sorted(Fleet.objects.filter(campaign=rnd.campaign).values_list(
            "pk", "area_id", "arrived_round", "arrived_step")),
        "ships": sorted(Ship.objects.filter(fleet__campaign=rnd.campaign).values_list(
            "pk", "fleet_id", "position")),
        "battles": NavalBattle.objects.filter(round=rnd).count(),
        "hazards": sorted(SeaHazard.objects.values_list("pk", "owner_id", "hits", "active")),
        "phases": FleetPhase.objects.filter(round=rnd).count(),
        "rolls": DiceRoll.objects.filter(round=rnd).count(),
        "round": Round.objects.filter(pk=rnd.pk).values_list("phase", "next_counter").get(),
    }


def test_r_int_6_scripted_round_has_every_fleet_event(scripted_fleet_dice, fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
    check_fleet_phase(sc)


def test_r_vp_2_standings_count_naval_victory_points_ships_and_fleets(scripted_fleet_dice,
                                                                      fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
    rows = {row["username"]: row for row in live_standings(sc.league.campaign)}
    assert rows["anna"]["victory_points"] == 6
    assert (rows["anna"]["fleets"], rows["anna"]["ships"]) == (2, 3)  # A2 with its prize, A3
    assert (rows["ben"]["fleets"], rows["ben"]["ships"]) == (2, 2)


def test_r_rnd_2_tick_runs_the_fleet_phase_without_a_broker(scripted_fleet_dice, fleet_phase):
    sc = fleet_phase
    sc.league.set_rules(early_advance=False)  # the empty lists phase stays
    Round.objects.filter(pk=sc.rnd.pk).update(phase_deadline="2000-01-01T00:00Z")
    call_command("tick")
    check_fleet_phase(sc)


def test_r_rnd_2_the_job_run_twice_resolves_the_phase_once(scripted_fleet_dice, fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    resolution.fleet_phase_resolve(round=sc.rnd)  # a first run that did not advance
    before = snapshot(sc.rnd)
    again = resolution.fleet_phase_resolve(round=sc.rnd, dice=scripted_dice([]))
    assert snapshot(sc.rnd) == before and again.pk == FleetPhase.objects.get().pk
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")  # the retried job: no new draws
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
    check_fleet_phase(sc)
    after = snapshot(sc.rnd)
    assert {k: v for k, v in after.items() if k != "round"} == {
        k: v for k, v in before.items() if k != "round"}


def test_r_dice_3_the_phase_draws_from_the_logged_round_stream(fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
    sc.rnd.refresh_from_db()
    record = FleetPhase.objects.get(round=sc.rnd)
    rolls = list(DiceRoll.objects.filter(round=sc.rnd).order_by("counter"))
    assert record.dice_count == len(rolls) == sc.rnd.next_counter > 0
    assert rolls[0].purpose == "fleets:order" and rolls[0].object == "fleets:order"
    report = verify(bytes(sc.rnd.server_seed),
                    [{"counter": r.counter, "purpose": r.purpose, "sides": r.sides,
                      "faces": r.faces} for r in rolls], sc.league.campaign.pk, sc.rnd.number)
    assert report.verified and report.checked == len(rolls)
    by_counter = {r.counter: r for r in rolls}
    for battle in NavalBattle.objects.filter(round=sc.rnd):
        mine = [by_counter[k] for k in range(battle.first_counter,
                                             battle.first_counter + battle.dice_count)]
        assert all(r.object.startswith("naval-battle:") for r in mine)
        logged = [face for r in mine for face in r.faces]
        shown = [face for e in battle.events for face in e.get("dice", [])]
        assert sorted(logged) == sorted(shown)  # every face the log holds is in an event


@pytest.mark.django_db(transaction=True)
def test_r_rnd_2_concurrent_jobs_resolve_the_phase_once(scripted_fleet_dice, fleet_phase):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    sc = fleet_phase
    Round.objects.filter(pk=sc.rnd.pk).update(phase="fleets")
    results = at_once(*[lambda: round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
                        for _ in range(4)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert FleetPhase.objects.filter(round=sc.rnd).count() == 1
    check_fleet_phase(sc)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_r_rnd_1_the_fleet_phase_runs_on_a_real_worker(scripted_fleet_dice, fleet_phase):
    if not settings.REDIS_URL:
        if IN_CI:
            pytest.fail("CI must run with REDIS_URL set")
        pytest.skip("REDIS_URL is unset: tasks run eagerly, no worker to start")
    sc = fleet_phase
    with start_worker(celery_app, perform_ping_check=False, shutdown_timeout=20):
        round_advance(round_id=sc.rnd.pk, expected_phase="declare")  # enqueues the job
        deadline = time.monotonic() + 60
        while Round.objects.get(pk=sc.rnd.pk).phase != "lists":
            assert time.monotonic() < deadline, "the worker did not run the fleet phase"
            time.sleep(0.2)
    check_fleet_phase(sc)
