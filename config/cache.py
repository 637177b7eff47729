"""The default cache: Redis when it answers, a cache in this process when it does not.

Only the API's throttle counters live in the cache (sessions and the login lockout live in the
database), so Redis being down must not turn a request into a 500 (item 3). Every
call goes to Redis with short socket timeouts; when Redis fails, a warning is logged and the
call, and every call in the next ``RETRY_AFTER`` seconds, is answered by an in-process local
memory cache instead: throttling keeps counting per process instead of failing, and a request
waits for a dead Redis at most once per ``RETRY_AFTER`` per process."""

import logging
import re
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 10.0  # seconds without asking Redis after it failed
CONNECT_TIMEOUT = 0.5  # seconds to open a connection to Redis
READ_TIMEOUT = 1.0  # seconds to wait for Redis's answer

_down_until: dict[str, float] = {}  # location -> time.monotonic() when to ask Redis again
_lock = threading.Lock()


# values kept under a campaign's revision (campaigns/cache.py), in each process's
# memory whatever the default cache is: no round trip, and nothing depends on Redis.
LOCAL = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
         "LOCATION": "feldzug-revisions", "TIMEOUT": 24 * 3600,
         "OPTIONS": {"MAX_ENTRIES": 1000}}


def local_caches() -> dict:
    """The ``CACHES`` setting without Redis: everything in this process's memory."""
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "local": LOCAL}


def redis_caches(location: str) -> dict:
    """The ``CACHES`` setting for a Redis at ``location`` (config/settings.py)."""
    return {"local": LOCAL, "default": {
        "BACKEND": "config.cache.FallbackRedisCache",
        "LOCATION": location,
        "KEY_PREFIX": "feldzug",
        "OPTIONS": {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": READ_TIMEOUT},
    }}


class FallbackRedisCache(RedisCache):
    """Django's Redis cache, answered from local memory while Redis is unreachable."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        self._shown = re.sub(r"//[^/@]*@", "//", self._location)  # no password in the log
        local = {key: value for key, value in params.items() if key != "OPTIONS"}
        # LocMemCache instances of one name share their memory: one fallback per process.
        self._fallback = LocMemCache(f"redis-fallback:{self._location}", local)

    def _call(self, method: str, *args, **kwargs):
        if time.monotonic() >= _down_until.get(self._location, 0.0):
            try:
                result = getattr(super(), method)(*args, **kwargs)
            except RedisError as error:
                self._went_down(error)
            else:
                self._came_back()
                return result
        return getattr(self._fallback, method)(*args, **kwargs)

    def _went_down(self, error: RedisError) -> None:
        with _lock:
            _down_until[self._location] = time.monotonic() + RETRY_AFTER
        log.warning("Redis cache at %s is unreachable (%s): using this process's memory for "
                    "%.0f s", self._shown, error, RETRY_AFTER)

    def _came_back(self) -> None:
        if self._location in _down_until:
            with _lock:
                if _down_until.pop(self._location, None) is not None:
                    log.info("Redis cache at %s answers again", self._shown)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", keys, version)

    def clear(self):
        return self._call("clear")
