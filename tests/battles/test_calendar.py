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
from tests.battles.ics import content_lines, raw_values, text_values

BERLIN_SUMMER = timezone(timedelta(hours=2))
EDITED = datetime(2025, 5, 1, 9, 30, tzinfo=UTC)
HOST = "club.example.org"
UID = f"battle-17@{HOST}"


def battle(**overrides) -> CalendarEvent:
    values = dict(battle_id=17, attacker="Anna", defender="Ben", tile="Hive Primus",
                  start=datetime(2025, 5, 3, 18, 0, tzinfo=BERLIN_SUMMER),
                  place="Club house, table 2", sequence=0, last_modified=EDITED,
                  campaign="Sector Gamma", round_number=3, host=HOST)
    return battle_event(**{**values, **overrides})


def deadline(**overrides) -> CalendarEvent:
    values = dict(round_id=3, phase="declare", at=datetime(2025, 5, 2, 20, 0, tzinfo=UTC),
                  sequence=0, last_modified=EDITED, campaign="Sector Gamma", round_number=3,
                  host=HOST, phase_name="Declare")
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
    event = events_of(build_calendar("c", [battle()]))[UID]
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
    assert before.keys() == after.keys() == {UID}
    old, new = before[UID], after[UID]
    assert new.decoded("SEQUENCE") == old.decoded("SEQUENCE") + 1
    assert new.decoded("DTSTART") == moved
    assert new.decoded("LAST-MODIFIED") == new.decoded("DTSTAMP") == later
    assert str(new["LOCATION"]) == "Anna's flat"


def test_r_bat_2_deadline_is_a_short_transparent_event():
    event = events_of(build_calendar("c", [deadline()]))[f"deadline-3-declare@{HOST}"]
    assert event.decoded("DTSTART") == datetime(2025, 5, 2, 20, 0, tzinfo=UTC)
    assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=15)
    assert str(event["SUMMARY"]) == "Sector Gamma: Round 3: end of the “Declare” phase"
    assert str(event["TRANSP"]) == "TRANSPARENT"
    assert "LOCATION" not in event


def test_r_bat_2_feed_holds_battles_and_deadlines_sorted_by_start():
    feed = build_calendar("c", [battle(), deadline(), deadline(phase="lists", round_id=4)])
    uids = [str(e["UID"]) for e in Calendar.from_ical(feed).walk("VEVENT")]
    assert uids == [f"deadline-3-declare@{HOST}", f"deadline-4-lists@{HOST}",
                    UID]


def test_r_bat_2_text_is_escaped_and_round_trips():
    tricky = "Café; back room, 2nd floor\nring twice"
    feed = build_calendar("Liga; Nord, 2025", [battle(place=tricky, attacker="A, the 1st")])
    assert b"Caf\xc3\xa9\\; back room\\, 2nd floor\\nring twice" in feed
    event = events_of(feed)[UID]
    assert str(event["LOCATION"]) == tricky
    assert str(event["SUMMARY"]) == "Battle: A, the 1st vs Ben (Hive Primus)"
    assert text_values(feed, "X-WR-CALNAME") == ["Liga; Nord, 2025"]


def test_r_bat_2_neutral_garrison_battle():
    event = events_of(build_calendar("c", [battle(defender=None)]))[UID]
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


# --- strict parsers, cancelled battles, UIDs qualified with the site's host ---------

LONG = "a very long campaign name, with commas; semicolons and ümlauts " * 2


@pytest.mark.parametrize("name, shown", [
    ("Liga; Nord, 2025", "Liga; Nord, 2025"), ("Back\\slash", "Back\\slash"),
    ("C:\\Nord", "C:\\Nord"),  # icalendar's own vText turns a literal \N into a line break
    ("Zwei\nZeilen", "Zwei\nZeilen"), ("Ä, Ö; Ü \\ ß\r\nend\rx", "Ä, Ö; Ü \\ ß\nend\nx"),
    ("bell\x07 and tab\t", "bell and tab\t"),  # TEXT holds no control but HTAB
    (LONG, LONG),
])
def test_r_bat_2_calendar_name_is_rfc_5545_text(name, shown):
    """X-WR-CALNAME (and RFC 7986 NAME) are TEXT: ``,`` ``;`` ``\\`` and line breaks are
    escaped, so a strict parser reads the name back; icalendar keeps the raw value."""
    feed = build_calendar(name, [battle(campaign=name, place=name)])
    assert text_values(feed, "X-WR-CALNAME") == [shown]
    assert text_values(feed, "NAME") == [shown]
    raw = raw_values(feed, "X-WR-CALNAME")[0]
    assert raw == (shown.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
                   .replace("\n", "\\n"))
    calendar = Calendar.from_ical(feed)  # icalendar reads the same feed
    assert str(calendar["X-WR-CALNAME"]) == raw
    event = events_of(feed)[UID]
    assert str(event["LOCATION"]) == shown == text_values(feed, "LOCATION")[0]
    assert f"Campaign: {shown}" in str(event["DESCRIPTION"])


def test_r_bat_2_every_line_is_strict_rfc_5545():
    feed = build_calendar("Liga; Nord", [battle(place="x" * 200, attacker="Ä" * 60),
                                         deadline()])
    lines = content_lines(feed)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    for name in ("SUMMARY", "LOCATION", "DESCRIPTION", "X-WR-CALNAME", "NAME"):
        assert text_values(feed, name)  # each is present and valid TEXT


def test_r_bat_2_cancelled_battle_is_status_cancelled_and_free():
    kept = events_of(build_calendar("c", [battle()]))[UID]
    assert str(kept["STATUS"]) == "CONFIRMED" and str(kept["TRANSP"]) == "OPAQUE"
    later = EDITED + timedelta(days=1)
    event = events_of(build_calendar("c", [battle(cancelled="Decided before this date.",
                                                  sequence=1, last_modified=later)]))[UID]
    assert str(event["STATUS"]) == "CANCELLED"
    assert str(event["TRANSP"]) == "TRANSPARENT"
    assert str(event["SUMMARY"]) == "Cancelled: Battle: Anna vs Ben (Hive Primus)"
    assert "Decided before this date." in str(event["DESCRIPTION"])
    assert event.decoded("SEQUENCE") == 1 and event.decoded("DTSTAMP") == later
    assert event.decoded("DTSTART") == kept.decoded("DTSTART")  # where it was planned


def test_r_bat_2_uids_carry_the_given_host():
    feed = build_calendar("c", [battle(host="Club.Example.ORG"),
                                deadline(host="club.example.org")])
    assert set(events_of(feed)) == {UID, f"deadline-3-declare@{HOST}"}


@pytest.mark.parametrize("host", ["", " ", "a b", "x@y", "feldzug\n"])
def test_r_bat_2_a_host_that_makes_no_uid_is_refused(host):
    with pytest.raises(ValueError, match="host"):
        battle(host=host)
