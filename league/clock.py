"""The in-process clock of ``make run`` (R-RND-2): without a broker there is no celery beat, so
the serving process itself runs the periodic job (``advance_due_rounds``) every
``CLOCK_SECONDS`` in a daemon thread. ``manage.py serve`` starts it in the process that serves
(with the autoreloader, its child), only when ``IN_PROCESS_CLOCK`` is on; tests, other
commands and celery never start one. Production keeps celery beat.

Each tick runs on a database connection of its own, closed after it; a failing tick is logged
and the next one runs as usual. Two clocks never advance one round twice: every advance locks
the round and states the phase it leaves (``league.services.rounds``)."""

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections, connection

from campaigns.services.clock import IN_PROCESS
from league.services.rounds import advance_due_rounds

log = logging.getLogger(__name__)


def tick() -> int:
    """One run of the periodic job, on this thread's own connection; its heartbeat is
    "in-process"."""
    close_old_connections()
    try:
        return advance_due_rounds(clock=IN_PROCESS)
    finally:
        connection.close()


class Clock(threading.Thread):
    """Calls ``job`` at once, then every ``seconds`` until stopped (or the process ends)."""

    def __init__(self, seconds: float, job: Callable[[], object] = tick):
        super().__init__(name="feldzug-clock", daemon=True)
        self.seconds, self.job = seconds, job
        self.ticks = 0  # ticks begun, failed ones included
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.is_set():
            self.ticks += 1
            try:
                self.job()
            except Exception:  # this tick's problem: the next one runs as usual
                log.exception("The clock's tick failed; it runs again in %s s", self.seconds)
            self._stopped.wait(self.seconds)

    def stop(self) -> None:
        self._stopped.set()


_running: Clock | None = None


def start() -> Clock | None:
    """Start this process's clock, once, if ``IN_PROCESS_CLOCK`` says so; None otherwise."""
    global _running
    if not settings.IN_PROCESS_CLOCK:
        return None
    if _running is None or not _running.is_alive():
        _running = Clock(settings.CLOCK_SECONDS)
        _running.start()
    return _running
