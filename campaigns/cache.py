"""Values computed from a campaign's rows, kept in each process's memory with the campaign's
``revision`` they were computed at (``campaigns/revision.py``): a write bumps the
revision, so the next reader computes afresh and replaces the entry - one entry per campaign,
kind and parts, whatever the number of writes. Local memory, not Redis: nothing a user does
depends on Redis, and a lookup costs no round trip. Only values every allowed reader may see
go in here, or a key's parts must name who they are for."""

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import caches

from campaigns import revision
from campaigns.models import Campaign

T = TypeVar("T")
ALIAS = "local"


def slot_of(kind: str, campaign: Campaign, *parts) -> str:
    # created_at tells apart two campaigns that got the same id (a database restored)
    stamp = campaign.created_at.timestamp() if campaign.created_at else 0
    return ":".join(map(str, (kind, campaign.pk, stamp, *parts)))


def cached(kind: str, campaign: Campaign, compute: Callable[[], T], *parts, state=None,
           fresh: Callable[[T], bool] | None = None) -> T:
    """``compute()``, or its value from an earlier call for the same campaign revision,
    ``parts`` (e.g. the language) and ``state`` (what else the value depends on that sends no
    revision bump), while ``fresh(value)`` holds. ``campaign.revision`` must be as read with
    the request."""
    store, slot, tag = caches[ALIAS], slot_of(kind, campaign, *parts), (campaign.revision, state)
    entry = store.get(slot)
    if entry is not None and entry[0] == tag and (fresh is None or fresh(entry[1])):
        return entry[1]
    revision.read(campaign.pk)
    value = compute()
    store.set(slot, (tag, value))
    return value


def clear() -> None:
    """Forget everything (tests: ids and revisions repeat after each test's rollback)."""
    caches[ALIAS].clear()
