"""R-RND-1 deadlines: ``phase_hours`` after opening, or a weekly deadline at a weekday and
wall-clock time in the campaign's zone, correct across daylight-saving changes."""

from datetime import UTC, datetime, timedelta

import pytest

from rules.deadlines import MIN_WEEKLY_LEAD, deadline_after, weekly_deadline
from rules.ruleset import Ruleset, RulesetError, validate_ruleset

BERLIN = "Europe/Berlin"


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_r_rnd_1_weekly_deadline_is_the_next_weekday_at_the_local_time():
    # Monday 2 Nov 2026 10:00 UTC (CET, +1) -> Wednesday 4 Nov 20:00 CET = 19:00 UTC
    assert weekly_deadline(utc(2026, 11, 2, 10), "wednesday", "20:00", BERLIN) \
        == utc(2026, 11, 4, 19)


def test_r_rnd_1_weekly_deadline_in_summer_time_uses_the_summer_offset():
    # Monday 19 Oct 2026 (CEST, +2) -> Wednesday 21 Oct 20:00 CEST = 18:00 UTC
    assert weekly_deadline(utc(2026, 10, 19, 10), "wednesday", "20:00", BERLIN) \
        == utc(2026, 10, 21, 18)


def test_r_rnd_1_weekly_deadline_keeps_the_wall_clock_across_the_autumn_change():
    # Opened Thursday 22 Oct (CEST); the clocks go back on Sunday 25 Oct; the deadline on
    # Wednesday 28 Oct 20:00 is CET, 19:00 UTC, not 18:00.
    assert weekly_deadline(utc(2026, 10, 22, 12), "wednesday", "20:00", BERLIN) \
        == utc(2026, 10, 28, 19)


def test_r_rnd_1_weekly_deadline_keeps_the_wall_clock_across_the_spring_change():
    # Clocks go forward on Sunday 29 Mar 2026: Wednesday 1 Apr 20:00 CEST = 18:00 UTC.
    assert weekly_deadline(utc(2026, 3, 26, 12), "wednesday", "20:00", BERLIN) \
        == utc(2026, 4, 1, 18)


def test_r_rnd_1_weekly_deadline_a_missing_local_time_falls_an_hour_later():
    # 02:30 on 29 Mar 2026 does not exist in Berlin; it is read with the winter offset.
    assert weekly_deadline(utc(2026, 3, 26, 12), "sunday", "02:30", BERLIN) \
        == utc(2026, 3, 29, 1, 30)


def test_r_rnd_1_weekly_deadline_a_doubled_local_time_is_the_first():
    # 02:30 on 25 Oct 2026 happens twice in Berlin; the first is CEST, 00:30 UTC.
    assert weekly_deadline(utc(2026, 10, 20, 12), "sunday", "02:30", BERLIN) \
        == utc(2026, 10, 25, 0, 30)


def test_r_rnd_1_weekly_deadline_too_close_to_the_opening_moves_a_week():
    opened = utc(2026, 11, 4, 18, 30)  # Wednesday 19:30 CET
    deadline = weekly_deadline(opened, "wednesday", "20:00", BERLIN)
    assert deadline == utc(2026, 11, 11, 19)
    assert deadline - opened >= MIN_WEEKLY_LEAD


def test_r_rnd_1_weekly_deadline_is_always_within_a_week_and_a_lead():
    start = utc(2026, 1, 1)
    for hours in range(0, 24 * 400, 37):
        opened = start + timedelta(hours=hours)
        deadline = weekly_deadline(opened, "friday", "18:00", BERLIN)
        assert MIN_WEEKLY_LEAD <= deadline - opened <= timedelta(days=7) + MIN_WEEKLY_LEAD
        local = deadline.astimezone(__import__("zoneinfo").ZoneInfo(BERLIN))
        assert (local.weekday(), local.hour, local.minute) == (4, 18, 0)


def test_r_rnd_1_deadline_after_uses_weekly_where_set_else_hours():
    rules = Ruleset.from_dict({"weekly_deadlines": {"declare": {"weekday": "wednesday",
                                                                "time": "20:00"}}})
    opened = utc(2026, 11, 2, 10)
    assert deadline_after(rules, "declare", opened, BERLIN) == utc(2026, 11, 4, 19)
    assert deadline_after(rules, "lists", opened, BERLIN) == opened + timedelta(hours=24)
    assert deadline_after(rules, "fleets", opened, BERLIN) is None


@pytest.mark.parametrize(("value", "key"), [
    ([], "weekly_deadlines"),
    ({"fleets": {"weekday": "monday", "time": "20:00"}}, "weekly_deadlines.fleets"),
    ({"declare": {"weekday": "mittwoch", "time": "20:00"}}, "weekly_deadlines.declare.weekday"),
    ({"declare": {"weekday": "monday", "time": "24:00"}}, "weekly_deadlines.declare.time"),
    ({"declare": {"weekday": "monday", "time": "8:00"}}, "weekly_deadlines.declare.time"),
    ({"declare": {"weekday": "monday"}}, "weekly_deadlines.declare"),
])
def test_r_rnd_1_weekly_deadlines_refused_naming_the_key(value, key):
    with pytest.raises(RulesetError) as info:
        validate_ruleset({"weekly_deadlines": value})
    assert info.value.key == key
