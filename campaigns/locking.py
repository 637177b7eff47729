"""Row locks: the one order in which a transaction locks a campaign and what belongs to it
(R-RND-2: a pause, a player's "done", the admin's advance and the periodic job race each
other; modelled on pretix's ``base/services/locking.py``).

The order:

1. the campaign row (``lock_campaign``),
2. its round: the current one, or the one named (``lock_round``, ``lock_current_round``),
3. a player,
4. the object the service changes (an attack, a battle, a fleet, ...).

A transaction may skip a step, never go back to an earlier one. The helpers here lock a round
only together with its campaign, campaign first, so every service that locks a round keeps
the order by calling them; a service that needs another row of steps 3 and 4 locks it
after them, with ``of=("self",)`` when the query joins other tables (PostgreSQL locks every
joined row otherwise, in an order of its own). Rounds are only created with the campaign
locked (``league.services.rounds``), so the current round does not change under its lock.

Locks are ``FOR NO KEY UPDATE``: rows that refer to the campaign or the round (a log entry,
a "done" mark, an attack) can still be inserted beside the lock; their foreign-key check
would otherwise wait for it, a lock taken behind the order's back. SQLite locks the whole
database for every writing transaction and ignores row locks.

A deadlock that happens anyway (a path not following the order) is retried by
``retry_on_deadlock`` at the services' entry points; ``config.faults`` answers one that
outlasts its retries with 409 "try again", never 503."""

import functools
import random
import time

from django.db import OperationalError, connection
from django.db.models import Subquery

from campaigns.models import Campaign, Round

RETRIES = 3
PAUSE_SECONDS = 0.05  # before a retry, times the attempt, with jitter
TRANSIENT_SQLSTATES = frozenset({"40P01", "40001"})  # deadlock detected, serialization failure


def lock_campaign(campaign_id: int, *, skip_locked: bool = False) -> Campaign | None:
    """Step 1: the campaign row, locked (None when ``skip_locked`` and another holds it)."""
    return (Campaign.objects.select_for_update(no_key=True, skip_locked=skip_locked)
            .filter(pk=campaign_id).first())


def lock_round(round_id: int, *, skip_locked: bool = False) -> Round | None:
    """Steps 1 and 2: the round's campaign, then the round, both locked; the round's
    ``campaign`` is the locked row. Raises ``Round.DoesNotExist`` for a round that does not
    exist; None when ``skip_locked`` and another transaction holds either row."""
    of_round = Round.objects.filter(pk=round_id).values("campaign_id")
    campaign = (Campaign.objects.select_for_update(no_key=True, skip_locked=skip_locked)
                .filter(pk=Subquery(of_round)).first())  # a round never changes campaign
    if campaign is None:
        if skip_locked and Round.objects.filter(pk=round_id).exists():
            return None
        raise Round.DoesNotExist(f"no round {round_id}")
    rnd = (Round.objects.select_for_update(no_key=True, skip_locked=skip_locked)
           .filter(pk=round_id).first())
    if rnd is not None:
        rnd.campaign = campaign
    return rnd


def lock_current_round(campaign: Campaign | int) -> tuple[Campaign, Round | None]:
    """Steps 1 and 2: the campaign, then its current (highest-numbered) round, both locked;
    the round is None before the campaign starts."""
    campaign = lock_campaign(campaign if isinstance(campaign, int) else campaign.pk)
    if campaign is None:
        raise Campaign.DoesNotExist
    rnd = (Round.objects.select_for_update(no_key=True).filter(campaign=campaign)
           .order_by("-number").first())
    if rnd is not None:
        rnd.campaign = campaign
    return campaign, rnd


def is_transient(error: BaseException) -> bool:
    """A deadlock or a serialization failure: the transaction was rolled back and running it
    again may succeed (psycopg's ``DeadlockDetected``, ``SerializationFailure``)."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    return getattr(cause, "sqlstate", None) in TRANSIENT_SQLSTATES \
        or getattr(cause, "pgcode", None) in TRANSIENT_SQLSTATES


def retry_on_deadlock(function):
    """Run ``function`` (a service whose transaction it opens itself) again when the database
    rolled it back for a deadlock or a serialization failure, up to ``RETRIES`` times. Inside
    an outer transaction nothing can be retried: the error goes to the caller's own retry."""

    @functools.wraps(function)
    def retrying(*args, **kwargs):
        for attempt in range(RETRIES + 1):
            try:
                return function(*args, **kwargs)
            except OperationalError as error:
                if attempt == RETRIES or connection.in_atomic_block or not is_transient(error):
                    raise
            time.sleep(PAUSE_SECONDS * (attempt + 1) * (0.5 + random.random()))  # noqa: S311
        raise AssertionError("unreachable")

    return retrying
