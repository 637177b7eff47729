"""GET /healthz: the database and the broker, 200 when both answer, 503 naming what is down;
within about a second when Redis is unreachable (the cache's socket timeouts)."""

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse

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


def healthz(request):
    report = {"database": _database(), "broker": _broker()}
    healthy = "down" not in report.values()
    return JsonResponse(report, status=200 if healthy else 503)
