"""When the periodic job's clock last ran (R-RND-2), the one reading that the organiser's pages,
the API's dashboard and ``/healthz`` share: "never" (no heartbeat yet), "ok", or "late" (no
heartbeat for ``CLOCK_LATE_SECONDS``, 3 minutes: deadlines pass but nothing moves the rounds)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from campaigns.models import ClockBeat

NEVER, OK, LATE = "never", "ok", "late"


@dataclass(frozen=True)
class ClockState:
    status: str  # NEVER, OK or LATE
    last_at: datetime | None  # the newest heartbeat of any clock

    @property
    def late(self) -> bool:
        """Nothing moves the rounds on: no clock ran lately, or none ever did."""
        return self.status != OK


def clock_state(now: datetime | None = None) -> ClockState:
    """The newest heartbeat of any clock (celery beat, ``tick``, the in-process clock), in one
    query."""
    now = now or timezone.now()
    last = ClockBeat.objects.aggregate(last=Max("last_at"))["last"]
    if last is None:
        return ClockState(NEVER, None)
    late = now - last >= timedelta(seconds=settings.CLOCK_LATE_SECONDS)
    return ClockState(LATE if late else OK, last)
