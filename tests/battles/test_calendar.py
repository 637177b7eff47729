"""R-BAT-2: iCalendar feeds of accepted battle dates and deadlines, parsed back with
``icalendar`` to check what a calendar client would see."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from icalendar import Calendar

from battles.calendar import (
    PRODID,
    CalendarEvent,
    battle_event,
    build_calendar,
    deadline_event,
)

BERLIN_SUMMER = timezone(timedelta(hours=2))
EDITED = datetime(2025, 5, 1, 9, 30, tzinfo=UTC)


def battle(**overrides) -> CalendarEvent:
    values = dict(battle_id=17, attacker="Anna", defender="Ben", tile="Hive Primus",
                  start=datetime(2025, 5, 3, 18, 0, tzinfo=BERLIN_SUMMER),
                  place="Club house, table 2", sequence=0, last_modified=EDITED,
                  campaign="Sector Gamma", round_number=3)
    return battle_event(**{**values, **overrides})


def deadline(**overrides) -> CalendarEvent:
    values = dict(round_id=3, phase="declare", at=datetime(2025, 5, 2, 20, 0, tzinfo=UTC),
                  sequence=0, last_modified=EDITED, campaign="Sector Gamma", round_number=3)
    return deadline_event(**{**values, **overrides})


def events_of(feed: bytes) -> dict[str, object]:
    calendar = Calendar.from_ical(feed)
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def test_r_bat_2_feed_header():
    calendar = Calendar.from_ical(build_calendar("Sector Gamma - Anna", [battle()]))
    assert str(calendar["PRODID"]) == PRODID
    assert str(calendar["VERSION"]) == "2.0"
    assert str(calendar["X-WR-CALNAME"]) == "Sector Gamma - Anna"
    assert calendar["REFRESH-INTERVAL"].dt == timedelta(hours=1)


def test_r_bat_2_battle_event_uid_times_and_place():
    event = events_of(build_calendar("c", [battle()]))["battle-17@feldzug"]
    assert event.decoded("DTSTART") == datetime(2025, 5, 3, 16, 0, tzinfo=UTC)
    assert event.decoded("DTSTART").utcoffset() == timedelta(0)
    assert event.decoded("DTEND") == datetime(2025, 5, 3, 19, 0, tzinfo=UTC)
    assert str(event["SUMMARY"]) == "Battle: Anna vs Ben (Hive Primus)"
    assert str(event["LOCATION"]) == "Club house, table 2"
    assert event.decoded("SEQUENCE") == 0
    assert event.decoded("DTSTAMP") == EDITED
    assert event.decoded("LAST-MODIFIED") == EDITED
    assert str(event["TRANSP"]) == "OPAQUE"
    assert "Round 3" in str(event["DESCRIPTION"])


def test_r_bat_2_times_are_written_in_utc():
    feed = build_calendar("c", [battle()]).decode()
    assert "DTSTART:20250503T160000Z" in feed
    assert "TZID" not in feed


def test_r_bat_2_rescheduled_battle_keeps_uid_with_higher_sequence():
    moved = datetime(2025, 5, 4, 14, 0, tzinfo=UTC)
    later = EDITED + timedelta(days=1)
    before = events_of(build_calendar("c", [battle()]))
    after = events_of(build_calendar("c", [battle(start=moved, sequence=1, last_modified=later,
                                                   place="Anna's flat")]))
    assert before.keys() == after.keys() == {"battle-17@feldzug"}
    old, new = before["battle-17@feldzug"], after["battle-17@feldzug"]
    assert new.decoded("SEQUENCE") == old.decoded("SEQUENCE") + 1
    assert new.decoded("DTSTART") == moved
    assert new.decoded("LAST-MODIFIED") == new.decoded("DTSTAMP") == later
    assert str(new["LOCATION"]) == "Anna's flat"


def test_r_bat_2_deadline_is_a_short_transparent_event():
    event = events_of(build_calendar("c", [deadline()]))["deadline-3-declare@feldzug"]
    assert event.decoded("DTSTART") == datetime(2025, 5, 2, 20, 0, tzinfo=UTC)
    assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=15)
    assert str(event["SUMMARY"]) == "Sector Gamma: round 3 declare deadline"
    assert str(event["TRANSP"]) == "TRANSPARENT"
    assert "LOCATION" not in event


def test_r_bat_2_feed_holds_battles_and_deadlines_sorted_by_start():
    feed = build_calendar("c", [battle(), deadline(), deadline(phase="lists", round_id=4)])
    uids = [str(e["UID"]) for e in Calendar.from_ical(feed).walk("VEVENT")]
    assert uids == ["deadline-3-declare@feldzug", "deadline-4-lists@feldzug",
                    "battle-17@feldzug"]


def test_r_bat_2_text_is_escaped_and_round_trips():
    tricky = "Café; back room, 2nd floor\nring twice"
    feed = build_calendar("Liga; Nord, 2025", [battle(place=tricky, attacker="A, the 1st")])
    assert b"Caf\xc3\xa9\\; back room\\, 2nd floor\\nring twice" in feed
    calendar = Calendar.from_ical(feed)
    event = events_of(feed)["battle-17@feldzug"]
    assert str(event["LOCATION"]) == tricky
    assert str(event["SUMMARY"]) == "Battle: A, the 1st vs Ben (Hive Primus)"
    assert str(calendar["X-WR-CALNAME"]) == "Liga; Nord, 2025"


def test_r_bat_2_neutral_garrison_battle():
    event = events_of(build_calendar("c", [battle(defender=None)]))["battle-17@feldzug"]
    assert str(event["SUMMARY"]) == "Battle: Anna vs neutral garrison (Hive Primus)"


def test_r_bat_2_event_without_end_has_no_dtend():
    event = CalendarEvent(uid="x@feldzug", summary="s", start=EDITED, end=None, location="",
                          description="", sequence=2, last_modified=EDITED)
    parsed = events_of(build_calendar("c", [event]))["x@feldzug"]
    assert "DTEND" not in parsed
    assert parsed.decoded("SEQUENCE") == 2


def test_r_bat_2_same_data_gives_same_bytes():
    assert build_calendar("c", [battle(), deadline()]) == build_calendar("c", [deadline(),
                                                                              battle()])


def test_r_bat_2_empty_feed_is_valid():
    calendar = Calendar.from_ical(build_calendar("Nothing yet", []))
    assert calendar.walk("VEVENT") == []


def test_r_bat_2_duplicate_uids_are_refused():
    with pytest.raises(ValueError, match="duplicate uid"):
        build_calendar("c", [battle(), battle(sequence=1)])


@pytest.mark.parametrize("overrides, message", [
    ({"start": datetime(2025, 5, 3, 18, 0)}, "start must be timezone-aware"),
    ({"last_modified": datetime(2025, 5, 1)}, "last_modified must be timezone-aware"),
    ({"sequence": -1}, "sequence must not be negative"),
])
def test_r_bat_2_naive_datetimes_and_bad_sequence_are_refused(overrides, message):
    with pytest.raises(ValueError, match=message):
        battle(**overrides)


def test_r_bat_2_end_before_start_is_refused():
    with pytest.raises(ValueError, match="end must not be before start"):
        CalendarEvent(uid="x", summary="s", start=EDITED, end=EDITED - timedelta(hours=1),
                      location="", description="", sequence=0, last_modified=EDITED)
