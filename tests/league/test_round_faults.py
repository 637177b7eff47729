"""The round machine under faults: an automatic phase is never skipped (item 1), the
API advance is idempotent (item 2), enqueue failures neither reach the request nor lose the
work (item 3), and one broken campaign never stops the others (item 4). R-RND-2."""

import time
from dataclasses import replace
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from kombu.exceptions import OperationalError

from campaigns.models import OutboxMail, Round
from config.celery import app as celery_app
from fleets.models import FleetPhase
from league import tasks
from league.phases import TABLE
from league.services import rounds as round_services
from league.services.rounds import advance_due_rounds, campaign_start, round_advance
from tests.worlds import api, check_fleet_phase, client_for, make_league

STUCK = timedelta(seconds=301)  # past ROUND_STUCK_AFTER_SECONDS


def _advance(user, campaign, **body):
    return api(user).post(f"/api/v1/campaigns/{campaign.pk}/advance/", body, format="json")


# --- item 1: leaving fleets only by running its job -----------------------------------------

def test_api_advance_in_fleets_runs_the_pending_job(scripted_fleet_dice, fleet_phase):
    """The job never ran (its task was lost): the admin's advance resolves the phase, in the
    request, instead of moving fleets -> lists without it."""
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")  # on_commit never fires here
    assert not FleetPhase.objects.exists()
    response = _advance(sc.league.admin, sc.league.campaign, expected_phase="fleets")
    assert response.status_code == 200 and response.json()["phase"] == "lists"
    check_fleet_phase(sc)  # fleets moved, battles fought, one record


def test_advance_without_expected_phase_in_fleets_runs_the_job(scripted_fleet_dice,
                                                                         fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    round_advance(round_id=sc.rnd.pk)  # any advance out of fleets
    check_fleet_phase(sc)


def test_manage_page_says_the_button_resolves_the_fleet_phase(scripted_fleet_dice,
                                                                         fleet_phase):
    sc = fleet_phase
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    client = client_for(sc.league.admin)
    url = f"/campaigns/{sc.league.campaign.pk}/manage/"
    page = client.get(url).content.decode()
    assert "Resolve the fleet phase now and advance" in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Flottenphase jetzt auflösen und weiter" in german
    response = client.post(url + "advance/", {"expected_phase": "fleets", "confirm": "yes"})
    assert response.status_code == 302
    check_fleet_phase(sc)


# --- item 2: the API advance is idempotent -------------------------------------------------

@pytest.fixture
def in_lists(db):
    lg = make_league()
    rnd = campaign_start(campaign=lg.campaign)
    round_advance(round_id=rnd.pk, expected_phase="declare")
    round_advance(round_id=rnd.pk, expected_phase="fleets")
    rnd.refresh_from_db()
    assert rnd.phase == "lists"
    return lg, rnd


def test_eight_calls_without_expected_phase_advance_once(in_lists):
    lg, rnd = in_lists
    answers = [_advance(lg.admin, lg.campaign) for _ in range(8)]
    assert answers[0].status_code == 200 and answers[0].json()["phase"] == "battles"
    for refused in answers[1:]:
        assert refused.status_code == 409
        assert refused.json()["code"] == "advance_too_soon"
    rnd.refresh_from_db()
    assert (rnd.number, rnd.phase) == (1, "battles")
    assert lg.campaign.rounds.count() == 1


def test_eight_calls_with_expected_phase_advance_once(in_lists):
    lg, rnd = in_lists
    answers = [_advance(lg.admin, lg.campaign, expected_phase="lists") for _ in range(8)]
    assert [a.status_code for a in answers] == [200] * 8
    assert {a.json()["phase"] for a in answers} == {"battles"}
    rnd.refresh_from_db()
    assert rnd.phase == "battles" and lg.campaign.rounds.count() == 1
    # expected_phase needs no pause; without it the pause is measured from the last advance
    # no roll due: the conquest phase is passed over [reading R-RND-1, R-CON-4]
    after = _advance(lg.admin, lg.campaign, expected_phase="battles").json()
    assert (after["number"], after["phase"]) == (2, "declare")
    assert _advance(lg.admin, lg.campaign).status_code == 409


def test_advance_without_expected_phase_after_the_pause(in_lists, settings):
    settings.ROUND_ADVANCE_MIN_SECONDS = 0
    lg, rnd = in_lists
    assert _advance(lg.admin, lg.campaign).json()["phase"] == "battles"
    assert _advance(lg.admin, lg.campaign).json()["number"] == 2  # conquest passed over


def test_a_bad_expected_phase_is_a_400(in_lists):
    lg, _ = in_lists
    bad = _advance(lg.admin, lg.campaign, expected_phase="nonsense")
    assert bad.status_code == 400 and "expected_phase" in bad.json()["errors"]


def test_schema_documents_expected_phase(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    post = schema["paths"]["/api/v1/campaigns/{campaign_id}/advance/"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "expected_phase" in schema["components"]["schemas"][body]["properties"]
    assert "409" in post["responses"] and "advance_too_soon" in post["description"]


# --- item 3: enqueue failures are logged, the work is found later ---------------------------

@pytest.mark.django_db(transaction=True)
def test_a_failing_enqueue_neither_fails_the_advance_nor_loses_the_job(monkeypatch):
    lg = make_league()
    lg.set_rules(early_advance=False)  # the deadline path alone, no early advance
    rnd = campaign_start(campaign=lg.campaign)

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(tasks.run_phase_job, "delay", broker_down)
    response = _advance(lg.admin, lg.campaign, expected_phase="declare")
    assert response.status_code == 200 and response.json()["phase"] == "fleets"
    rnd.refresh_from_db()
    assert rnd.phase == "fleets"
    assert advance_due_rounds(timezone.now()) == 0  # the job may still be on its way
    monkeypatch.undo()
    assert advance_due_rounds(timezone.now() + STUCK) == 1  # never ran: the periodic job runs it
    rnd.refresh_from_db()
    assert rnd.phase == "lists" and FleetPhase.objects.filter(round=rnd).count() == 1


@pytest.fixture
def broker_on_a_closed_port():
    """Celery publishes to a Redis that does not answer (nothing listens on port 6390)."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}

    def reset_pools():
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    celery_app.conf.update(broker_url="redis://127.0.0.1:6390/0", task_always_eager=False)
    reset_pools()
    yield
    celery_app.conf.update(saved)
    reset_pools()


@pytest.mark.django_db(transaction=True)
def test_admin_advance_into_fleets_with_the_broker_down(broker_on_a_closed_port):
    lg = make_league()
    lg.set_rules(early_advance=False)  # the deadline path alone, no early advance
    rnd = campaign_start(campaign=lg.campaign)
    client = client_for(lg.admin)
    started = time.monotonic()
    response = client.post(f"/campaigns/{lg.campaign.pk}/manage/advance/",
                           {"expected_phase": "declare", "confirm": "yes"})
    assert time.monotonic() - started < 5
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.phase == "fleets"
    started = time.monotonic()
    api_answer = _advance(lg.admin, lg.campaign, expected_phase="declare")  # stale: unchanged
    assert api_answer.status_code == 200 and time.monotonic() - started < 5
    # tick with the broker still down: it cannot enqueue, so it runs the round in-process
    call_command("tick")  # not stuck yet: nothing due
    rnd.refresh_from_db()
    assert rnd.phase == "fleets"
    started = time.monotonic()
    advance_due_rounds(timezone.now() + STUCK)
    assert time.monotonic() - started < 15
    rnd.refresh_from_db()
    assert rnd.phase == "lists" and FleetPhase.objects.filter(round=rnd).count() == 1


# --- item 4: one campaign never stops the others --------------------------------------------

@pytest.fixture
def two_due_campaigns(db):
    healthy = make_league(name="Healthy", admin="hal")
    broken = make_league(name="Broken", admin="bork", players=("eve", "fay"))
    broken.admin.email = "bork@example.org"
    broken.admin.save(update_fields=["email"])
    past = timezone.now() - timedelta(minutes=1)
    rounds = {}
    for lg in (healthy, broken):
        lg.set_rules(early_advance=False)  # the deadline path alone, no early advance
        rnd = campaign_start(campaign=lg.campaign)
        Round.objects.filter(pk=rnd.pk).update(phase_deadline=past)
        rounds[lg.campaign.name] = rnd
    return healthy, broken, rounds


def _break_declare_end(monkeypatch, campaign_id):
    calls = []

    def explode(*, round, now):  # noqa: A002
        if round.campaign_id == campaign_id:
            calls.append(round.pk)
            raise RuntimeError("hook exploded")

    declare = TABLE["declare"]
    monkeypatch.setitem(TABLE, "declare", replace(declare, end=(explode, *declare.end)))
    return calls


def attention_mails() -> list[OutboxMail]:
    """The admins' mails, queued in the outbox (sent after the tick commits)."""
    return list(OutboxMail.objects.filter(subject__contains="needs attention"))


def test_a_broken_round_does_not_stop_the_others(two_due_campaigns, monkeypatch,
                                                            settings):
    healthy, broken, rounds = two_due_campaigns
    calls = _break_declare_end(monkeypatch, broken.campaign.pk)
    call_command("tick")
    good, bad = (Round.objects.get(pk=rounds[name].pk) for name in ("Healthy", "Broken"))
    assert good.phase == "lists"  # advanced through fleets in the same tick
    assert bad.phase == "declare" and bad.attention_at is not None
    assert "hook exploded" in bad.attention_error
    assert len(calls) == 1 + settings.ROUND_JOB_MAX_RETRIES  # retried, then given up
    assert good.attention_at is None
    admin_mails = attention_mails()
    assert len(admin_mails) == 1 and admin_mails[0].to == "bork@example.org"
    assert "Broken" in admin_mails[0].subject and "hook exploded" in admin_mails[0].body

    call_command("tick")  # within the quiet period: not tried again
    assert len(calls) == 1 + settings.ROUND_JOB_MAX_RETRIES
    settings.ROUND_ATTENTION_RETRY_SECONDS = 0
    call_command("tick")  # tried again, fails again: still one mail
    assert len(calls) == 2 * (1 + settings.ROUND_JOB_MAX_RETRIES)
    assert len(attention_mails()) == 1

    monkeypatch.undo()  # fixed: the next tick advances it and clears the flag
    settings.ROUND_ATTENTION_RETRY_SECONDS = 0
    call_command("tick")
    bad.refresh_from_db()
    assert bad.phase == "lists" and bad.attention_at is None and bad.attention_error == ""


def test_needs_attention_on_the_manage_page_and_in_the_api(two_due_campaigns,
                                                                     monkeypatch):
    _, broken, rounds = two_due_campaigns
    _break_declare_end(monkeypatch, broken.campaign.pk)
    call_command("tick")
    client = client_for(broken.admin)
    url = f"/campaigns/{broken.campaign.pk}/manage/"
    page = client.get(url).content.decode()
    assert "This round needs attention." in page and "hook exploded" in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Diese Runde braucht Aufmerksamkeit." in german
    detail = api(broken.admin).get(f"/api/v1/campaigns/{broken.campaign.pk}/rounds/1/").json()
    assert detail["needs_attention"] is True and "hook exploded" in detail["attention_error"]
    player = api(broken.players[0].user).get(
        f"/api/v1/campaigns/{broken.campaign.pk}/rounds/1/").json()
    assert player["needs_attention"] is True and player["attention_error"] is None


def test_a_failing_every_minute_step_does_not_stop_the_others(db, monkeypatch):
    ran = []

    def broken(*, now):
        ran.append("broken")
        raise RuntimeError("step exploded")

    def fine(*, now):
        ran.append("fine")

    monkeypatch.setattr(round_services, "EVERY_MINUTE", (broken, fine))
    call_command("tick")
    assert ran == ["broken", "fine"]


def test_the_round_task_retries_with_backoff_and_a_limit():
    task = tasks.run_due_round
    assert task.name == "campaigns.run_due_round"
    assert task.autoretry_for == (Exception,) and task.retry_backoff and task.max_retries >= 3
    assert tasks.run_phase_job.name == "campaigns.run_phase_job"
    assert tasks.run_phase_job.max_retries == task.max_retries
    assert tasks.advance_due_rounds.name == "campaigns.advance_due_rounds"
