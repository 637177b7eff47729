"""GET /healthz: the database and the broker, 200 when both answer, 503 naming what is down;
within about a second when Redis is unreachable (the cache's socket timeouts).

It also tells when the periodic job's clock last ran (R-RND-2): ``clock`` is "ok", "late" (no
heartbeat for ``CLOCK_LATE_SECONDS``) or "never", and ``clock_last_ran_at`` its time. A late
clock keeps the answer 200: restarting the web server (what a failing health check leads to)
does not start celery beat, and a fresh install has no heartbeat yet; a monitor that should
page on it reads ``clock``."""

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse

from campaigns.selectors.clock import clock_state
from config.cache import CONNECT_TIMEOUT, READ_TIMEOUT


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception:  # any driver error means the database is unusable
        return "down"


def _broker() -> str:
    if not settings.REDIS_URL:
        return "eager"
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=READ_TIMEOUT,
                                      socket_connect_timeout=CONNECT_TIMEOUT)
        client.ping()
        return "ok"
    except redis.RedisError:
        return "down"


def _clock(database: str) -> dict:
    try:
        state = clock_state() if database == "ok" else None
    except Exception:  # e.g. a database not migrated yet: the clock cannot be read
        state = None
    if state is None:
        return {"clock": "unknown", "clock_last_ran_at": None}
    return {"clock": state.status,
            "clock_last_ran_at": state.last_at.isoformat() if state.last_at else None}


def healthz(request):
    report = {"database": _database(), "broker": _broker()}
    healthy = "down" not in report.values()
    return JsonResponse({**report, **_clock(report["database"])},
                        status=200 if healthy else 503)
