"""When a waiting phase's deadline falls (R-RND-1): ``phase_hours`` after it opens, or, with a
weekly deadline ([reading R-RND-1]), the next given weekday and wall-clock time in the
campaign's time zone. Pure: times in, times out; the zone comes from the standard library."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from rules.ruleset import WEEKDAYS, Ruleset, parse_clock

# A weekly deadline closer than this to the phase's opening moves on a week [reading R-RND-1]:
# a phase opened on Wednesday 19:30 must not close at Wednesday 20:00.
MIN_WEEKLY_LEAD = timedelta(hours=12)


def weekly_deadline(opened: datetime, weekday: str, clock: str, zone: str) -> datetime:
    """The first ``weekday`` at ``clock`` in ``zone`` at least ``MIN_WEEKLY_LEAD`` after
    ``opened`` (an aware datetime), as an aware UTC datetime. The wall-clock time holds across
    daylight-saving changes; a time that does not exist that day (spring forward) falls at the
    same offset as before the change, i.e. an hour later on the wall clock; a time that
    happens twice (autumn) is the first of the two."""
    tz = ZoneInfo(zone)
    hour, minute = parse_clock(clock)
    earliest = (opened + MIN_WEEKLY_LEAD).astimezone(tz)
    days = (WEEKDAYS.index(weekday) - earliest.weekday()) % 7
    for extra in (days, days + 7):
        day = earliest.date() + timedelta(days=extra)
        local = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz, fold=0)
        moment = local.astimezone(UTC)
        if moment >= earliest:
            return moment
    raise AssertionError("unreachable: a week later is always late enough")


def deadline_after(ruleset: Ruleset, phase: str, opened: datetime, zone: str) -> datetime | None:
    """The deadline of ``phase`` opened at ``opened`` (R-RND-1), None for a phase that does not
    wait: its weekly deadline if the ruleset sets one, else ``phase_hours`` later."""
    hours = ruleset.phase_hours.for_phase(phase)
    if hours is None:
        return None
    weekly = ruleset.weekly_deadlines.get(phase)
    if weekly:
        return weekly_deadline(opened, weekly["weekday"], weekly["time"], zone)
    return opened + timedelta(hours=hours)
