"""django-axes' database handler with a second, wider lock per address. Each failed login
costs a password hash (about a second of CPU with the production hasher), and made-up
usernames never lock an account. Once one address has ``AXES_ADDRESS_FAILURE_LIMIT``
failures within ``AXES_COOLOFF_TIME``, every login from it is refused by
``axes.backends.AxesStandaloneBackend`` (first in ``AUTHENTICATION_BACKENDS``) before any
password is hashed: on the login page, the admin's login, the API token endpoint and the pages
that confirm a password. The account lock (``AXES_FAILURE_LIMIT`` for one username from one
address) stays as it was; 0 turns the address lock off."""

from axes.attempts import get_cool_off_threshold
from axes.conf import settings
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.db.models import Sum


class AccountAndAddressHandler(AxesDatabaseHandler):
    def address_locked(self, request) -> bool:
        limit = settings.AXES_ADDRESS_FAILURE_LIMIT
        if not limit or not settings.AXES_LOCK_OUT_AT_FAILURE:
            return False
        failures = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address,
            attempt_time__gte=get_cool_off_threshold(request),
        ).aggregate(n=Sum("failures_since_start"))["n"] or 0
        return failures >= limit

    def is_locked(self, request, credentials: dict | None = None) -> bool:
        return super().is_locked(request, credentials) or self.address_locked(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request, **kwargs)
        # the page answers with the lockout (AxesMiddleware), as for a locked account
        if request is not None and not getattr(request, "axes_locked_out", False) \
                and not self.is_whitelisted(request, credentials) \
                and self.address_locked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials
