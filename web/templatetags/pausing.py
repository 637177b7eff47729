"""Template filters of the pause and deadline sections."""

from datetime import timedelta

from django import template
from django.utils.translation import gettext as _

from rules.rounds import WAITING

register = template.Library()


@register.filter
def has_deadline(rnd) -> bool:
    """The round's phase waits for players, so its deadline can move (R-RND-1)."""
    return rnd is not None and rnd.phase in WAITING


@register.filter
def hours_left(left: timedelta | None) -> str:
    """The time a paused deadline had left, to the minute: "2 d 5 h 30 min"."""
    if left is None:
        return ""
    minutes = max(int(left.total_seconds()) // 60, 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(_("%(n)s d") % {"n": days})
    if days or hours:
        parts.append(_("%(n)s h") % {"n": hours})
    parts.append(_("%(n)s min") % {"n": minutes})
    return " ".join(parts)
