"""The periodic job's clock as the organiser's pages say it (R-RND-2): "Clock last ran 40
seconds ago", or, when it is late or never ran, a plain warning (``templates/web/_clock.html``).
The state itself is ``campaigns.selectors.clock.clock_state``."""

from datetime import datetime

from django.utils.translation import ngettext

from campaigns.selectors.clock import NEVER, ClockState


def ago_text(seconds: float) -> str:
    """``40 seconds ago``, ``3 minutes ago``, ``2 hours ago``, ``5 days ago``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return ngettext("%(n)s second ago", "%(n)s seconds ago", seconds) % {"n": seconds}
    if seconds < 3600:
        n = seconds // 60
        return ngettext("%(n)s minute ago", "%(n)s minutes ago", n) % {"n": n}
    if seconds < 86400:
        n = seconds // 3600
        return ngettext("%(n)s hour ago", "%(n)s hours ago", n) % {"n": n}
    n = seconds // 86400
    return ngettext("%(n)s day ago", "%(n)s days ago", n) % {"n": n}


def clock_facts(state: ClockState, now: datetime) -> dict:
    """What ``_clock.html`` shows: late or not, never or when, and how long ago."""
    ago = ago_text((now - state.last_at).total_seconds()) if state.last_at else ""
    return {"late": state.late, "never": state.status == NEVER, "last_at": state.last_at,
            "ago": ago}
