"""The periodic job's heartbeat (R-RND-2): every tick of a clock leaves one, so the organiser's
pages and ``/healthz`` can tell when the clock last ran (``campaigns.selectors.clock``)."""

import logging
from datetime import datetime

from django.db import transaction

from campaigns.models import ClockBeat

log = logging.getLogger(__name__)

BEAT = "beat"  # celery beat, or ``manage.py tick``
IN_PROCESS = "in-process"  # the clock of ``make run`` (``league.clock``)


def clock_beat_record(*, name: str, due_rounds: int, now: datetime) -> None:
    """Upsert clock ``name``'s heartbeat. Never raises: the tick's work is done already, and a
    heartbeat that could not be written shows as a late clock, which is the truth."""
    try:
        with transaction.atomic():
            ClockBeat.objects.update_or_create(
                name=name, defaults={"last_at": now, "due_rounds": due_rounds})
    except Exception:  # a heartbeat is never worth failing the tick for
        log.exception("The heartbeat of clock %r could not be written", name)
