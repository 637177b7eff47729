"""The transaction of a phase step (``league.phases``).

A step runs inside the round's advance (``league.services.rounds``), which holds the round's
lock in its own transaction or savepoint and rolls the whole advance back when any step
fails. A step therefore adds no savepoint of its own: two queries each, a quarter of a whole
round's queries. Called alone (a test, a shell), it opens its own transaction.

Only for steps that raise nothing their callers catch: a caught failure inside a block without
a savepoint leaves the enclosing transaction unusable."""

from django.db import transaction


def phase_step(func):
    """``transaction.atomic(savepoint=False)`` for a phase step (see the module docstring)."""
    return transaction.atomic(savepoint=False)(func)
