"""Redis is not a single point of failure. With Redis down (cache, broker,
result backend and health check pointed at a closed port) the API - anonymous, with a token,
the token endpoint - the pages, a login and a form that queues mail answer as usual and
quickly; /healthz says 503. The throttles keep counting in this process's memory meanwhile
(config/cache.py)."""

import logging
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client
from django.utils import timezone

from battles.models import Notification
from battles.services.notifications import notifications_resend
from campaigns.models import Campaign, Webhook
from config import cache as fallback_cache
from config.cache import redis_caches
from config.celery import app as celery_app
from league.services.pause import campaign_pause
from tests.conftest import _worker_redis
from tests.worlds import api, battle_url, client_for, page_duel, with_emails

CLOSED = "redis://127.0.0.1:6390/0"  # nothing listens here
QUICK = 3.0  # seconds a request may take with Redis down
BROKER_WAIT = 2.5  # an enqueue waits on the broker at most ~2 s (config/settings.py)


@pytest.fixture
def redis_down(settings, monkeypatch):
    """Cache, broker and health check point at a closed port; tasks are really enqueued."""
    take_redis_down(settings, monkeypatch)


def take_redis_down(settings, monkeypatch) -> None:
    settings.REDIS_URL = CLOSED
    settings.CACHES = redis_caches(CLOSED)
    settings.CELERY_BROKER_URL = CLOSED
    # the result backend too: a new backend object (the app caches one) at the closed port
    monkeypatch.setitem(celery_app.conf, "result_backend", CLOSED)
    monkeypatch.setattr(celery_app, "_backend_cache", None)
    monkeypatch.setattr(celery_app, "_local", threading.local())
    # Celery may have read its broker URL already (an earlier test in this process): new
    # connections go to the closed port whatever its configuration says.
    connect = celery_app.connection_for_write
    monkeypatch.setattr(celery_app, "connection_for_write",
                        lambda url=None, *args, **kwargs: connect(CLOSED, *args, **kwargs))
    monkeypatch.setattr(fallback_cache, "_down_until", {})
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr(celery_app, "_pool", None)  # connections to the old broker
    monkeypatch.setattr(celery_app.amqp, "_producer_pool", None)
    fallback_cache.FallbackRedisCache(CLOSED, {})._fallback.clear()  # counters start at 0


def timed(call, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, **kwargs)
    elapsed = time.monotonic() - started
    assert elapsed < QUICK, f"took {elapsed:.1f} s with Redis down"
    return response


def test_redis_down_healthz_says_503_quickly(client, db, redis_down):
    response = timed(client.get, "/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "down", "clock": "never",
                               "clock_last_ran_at": None}


def test_redis_down_anonymous_api_list_and_detail_answer(client, public_page_world, redis_down,
                                                         caplog):
    campaign = public_page_world.campaign
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        listed = timed(client.get, "/api/v1/campaigns/")
        detail = timed(client.get, f"/api/v1/campaigns/{campaign.pk}/")
    assert listed.status_code == 200
    assert campaign.name in [row["name"] for row in listed.json()["results"]]
    assert detail.status_code == 200 and detail.json()["name"] == campaign.name
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "unreachable" in warnings[0].getMessage()  # once, not per call


def test_redis_down_token_endpoint_and_token_requests_answer(client, page_world, redis_down):
    user = page_world.lg.a.user
    user.set_password("correct horse 42")
    user.save()
    response = timed(client.post, "/api/v1/auth/token/",
                     {"username": user.username, "password": "correct horse 42"},
                     content_type="application/json")
    assert response.status_code == 200
    auth = {"HTTP_AUTHORIZATION": f"Token {response.json()['token']}"}
    me = timed(client.get, "/api/v1/me/", **auth)
    assert me.status_code == 200 and me.json()["username"] == user.username
    private = timed(client.get, f"/api/v1/campaigns/{page_world.campaign.pk}/", **auth)
    assert private.status_code == 200
    assert timed(client.get, "/api/v1/campaigns/", **auth).status_code == 200


def test_redis_down_throttles_still_count_in_this_process(client, db, redis_down):
    """The token endpoint's strict rate (10/min) holds while Redis is down: a local fallback,
    not a silent hole for password guessing."""
    rate = int(django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"].split("/")[0])
    statuses = [timed(client.post, "/api/v1/auth/token/", {"username": f"x{i}", "password": "y"},
                      content_type="application/json").status_code for i in range(rate + 1)]
    assert statuses[:rate] == [400] * rate
    assert statuses[rate] == 429


def test_redis_down_pages_and_login_work(page_world, redis_down):
    client = Client()
    assert timed(client.get, "/").status_code == 200
    user = page_world.lg.a.user
    user.set_password("correct horse 42")
    user.save()
    login = timed(client.post, "/accounts/login/",
                  {"username": user.username, "password": "correct horse 42"})
    assert login.status_code == 302  # session and lockout check in the database
    assert timed(client.get, page_world.url()).status_code == 200
    assert timed(client.get, page_world.url("map/")).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_redis_down_a_form_that_queues_mail_answers_and_the_mail_is_resent_later(
        page_world, settings, monkeypatch, caplog):
    with_emails(page_world.lg)
    battle = page_duel(page_world)  # the phase mails go out while Redis is still up
    mail.outbox.clear()
    take_redis_down(settings, monkeypatch)
    anna = client_for(page_world.lg.a.user)
    when = (timezone.now() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    with caplog.at_level(logging.WARNING):
        response = timed(anna.post, battle_url(page_world, battle, "schedule/"),
                         {"proposed_at": when, "place": "Club cellar"})
    assert response.status_code == 302  # committed, and no 500 for the lost enqueue
    queued = Notification.objects.get(kind="date_proposed")
    assert queued.sent_at is None and mail.outbox == []
    assert any("Could not enqueue battles.send_notifications" in r.getMessage()
               for r in caplog.records)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)  # the broker is back
    assert notifications_resend(now=timezone.now() + timedelta(minutes=6)) == [queued.pk]
    queued.refresh_from_db()
    assert queued.sent_at is not None and len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("where", ["page", "api"])
def test_redis_down_resume_and_webhook_test_never_wait_on_the_result_backend(
        page_world, settings, monkeypatch, caplog, where):
    """Resuming a campaign and sending a webhook's test event enqueue a delivery after commit;
    with the broker AND the result backend down each answers in about the broker's connect
    timeout: ``delay`` never subscribes to a result nobody reads (Celery's result backend
    would retry 20 times, a second apart)."""
    lg = page_world.lg
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Checking")
    hook = Webhook.objects.create(campaign=lg.campaign, url="https://hooks.example.org/h",
                                  secret="s", events=["campaign_resumed"])
    take_redis_down(settings, monkeypatch)
    if where == "page":
        client, base = client_for(lg.admin), page_world.url("manage/")
        resume, test = f"{base}resume/", f"{base}webhooks/{hook.pk}/test/"
    else:
        client, base = api(lg.admin), f"/api/v1/campaigns/{lg.campaign.pk}/"
        resume, test = f"{base}resume/", f"{base}webhooks/{hook.pk}/test/"
    with caplog.at_level(logging.WARNING):
        for url in (resume, test):
            started = time.monotonic()
            response = client.post(url)
            elapsed = time.monotonic() - started
            assert response.status_code < 400, (url, response.status_code)
            assert elapsed < BROKER_WAIT, f"{url} took {elapsed:.1f} s with Redis down"
    assert Campaign.objects.get(pk=lg.campaign.pk).paused_at is None
    assert hook.deliveries.count() == 2  # kept for the periodic retry
    assert sum("Could not enqueue" in r.getMessage() for r in caplog.records) == 2


def test_no_task_but_the_wiring_check_subscribes_to_its_result():
    """``delay`` of a task whose result is kept subscribes to it on the result backend first
    (Redis): nobody reads our tasks' results, so none keeps one but ``campaigns.ping``."""
    celery_app.loader.import_default_modules()
    ours = {name: task for name, task in celery_app.tasks.items()
            if not name.startswith("celery.")}
    assert "campaigns.run_due_round" in ours and "campaigns.send_mail" in ours
    assert [name for name, task in ours.items() if not task.ignore_result] == ["campaigns.ping"]


def test_fallback_cache_uses_redis_when_it_answers():
    """With a real Redis (CI), the cache is shared through Redis, not kept in the process."""
    if not django_settings.REDIS_URL:
        pytest.skip("REDIS_URL is unset: no Redis to share the cache through")
    import redis

    location = _worker_redis(django_settings.REDIS_URL)
    backend = fallback_cache.FallbackRedisCache(location, {"KEY_PREFIX": "feldzug-h2"})
    backend.set("shared", 41, 30)
    assert backend.incr("shared") == 42
    raw = redis.Redis.from_url(location)
    assert any(b"shared" in key for key in raw.keys("feldzug-h2*"))
    backend.delete("shared")
