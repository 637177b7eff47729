"""The API's per-user throttle. In production the default cache is Redis, and a
throttle check is a round trip to it on every request; reads by a signed-in user count in each
process's memory instead (the ``local`` cache, as ``campaigns.cache``), so a GET costs none.
Writes still count in the shared cache, across every process, as before."""

from django.core.cache import cache, caches
from rest_framework import throttling
from rest_framework.permissions import SAFE_METHODS

from campaigns.cache import ALIAS


class UserRateThrottle(throttling.UserRateThrottle):
    """``user`` rate: reads per process (a client spread over N workers may read up to N
    times the rate), writes site-wide."""

    def allow_request(self, request, view) -> bool:
        self.cache = caches[ALIAS] if request.method in SAFE_METHODS else cache
        return super().allow_request(request, view)
