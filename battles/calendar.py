"""iCalendar feeds (R-BAT-2): accepted battle dates and phase deadlines of a campaign or a
player, built with the ``icalendar`` library from plain values (no models).

Calendar clients match events by UID and take a changed event only if its SEQUENCE is higher,
so callers pass stable UIDs and bump ``sequence`` whenever a date, time or place changes.
[decision] DTSTAMP is the event's ``last_modified`` (RFC 5545 for feeds without METHOD): the
same data always gives the same bytes, which keeps ETags and client caches stable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event

PRODID = "-//Feldzug//Campaign calendar//EN"
UID_DOMAIN = "feldzug"
BATTLE_LENGTH = timedelta(hours=3)
DEADLINE_LENGTH = timedelta(minutes=15)  # deadlines are instants; a short event shows them
REFRESH = timedelta(hours=1)  # also written as X-PUBLISHED-TTL:PT1H


@dataclass(frozen=True)
class CalendarEvent:
    """One VEVENT. Datetimes must be timezone-aware; they are written in UTC. ``end`` None
    writes no DTEND (the event is an instant). ``busy`` False marks it TRANSPARENT."""

    uid: str
    summary: str
    start: datetime
    end: datetime | None
    location: str
    description: str
    sequence: int
    last_modified: datetime
    busy: bool = True

    def __post_init__(self):
        if not self.uid.strip():
            raise ValueError("uid must not be empty")
        for label in ("start", "end", "last_modified"):
            value = getattr(self, label)
            if value is not None and (value.tzinfo is None or value.utcoffset() is None):
                raise ValueError(f"{label} must be timezone-aware")
        if self.end is not None and self.end < self.start:
            raise ValueError("end must not be before start")
        if self.sequence < 0:
            raise ValueError("sequence must not be negative")


def build_calendar(name: str, events: Iterable[CalendarEvent]) -> bytes:
    """R-BAT-2: an iCalendar feed named ``name`` holding ``events`` (sorted by start). UIDs
    must be unique within one feed."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})  # RFC 7986
    calendar.add("x-published-ttl", "PT1H")  # the same hint for Outlook and older clients
    seen: set[str] = set()
    for event in sorted(events, key=lambda e: (e.start, e.uid)):
        if event.uid in seen:
            raise ValueError(f"duplicate uid {event.uid!r}")
        seen.add(event.uid)
        calendar.add_component(_vevent(event))
    return calendar.to_ical()


def _vevent(event: CalendarEvent) -> Event:
    vevent = Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", _utc(event.last_modified))
    vevent.add("last-modified", _utc(event.last_modified))
    vevent.add("sequence", event.sequence)
    vevent.add("summary", event.summary)
    vevent.add("dtstart", _utc(event.start))
    if event.end is not None:
        vevent.add("dtend", _utc(event.end))
    if event.location:
        vevent.add("location", event.location)
    if event.description:
        vevent.add("description", event.description)
    vevent.add("transp", "OPAQUE" if event.busy else "TRANSPARENT")
    return vevent


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def battle_event(*, battle_id: int, attacker: str, defender: str | None, tile: str,
                 start: datetime, place: str, sequence: int, last_modified: datetime,
                 campaign: str = "", round_number: int | None = None,
                 length: timedelta = BATTLE_LENGTH) -> CalendarEvent:
    """R-BAT-2: an accepted battle date. ``defender`` None is a neutral garrison (R-ATK-4).
    UID ``battle-<id>@feldzug``."""
    opponent = defender or "neutral garrison"
    details = [f"Campaign: {campaign}" if campaign else "",
               f"Round {round_number}" if round_number is not None else "",
               f"Tile: {tile}"]
    return CalendarEvent(
        uid=f"battle-{battle_id}@{UID_DOMAIN}",
        summary=f"Battle: {attacker} vs {opponent} ({tile})",
        start=start, end=start + length, location=place,
        description="\n".join(d for d in details if d),
        sequence=sequence, last_modified=last_modified)


def deadline_event(*, round_id: int, phase: str, at: datetime, sequence: int,
                   last_modified: datetime, campaign: str = "",
                   round_number: int | None = None) -> CalendarEvent:
    """R-BAT-2, R-RND-1: the end of a round's phase, as a short event that does not block
    time. UID ``deadline-<round id>-<phase>@feldzug``."""
    prefix = f"{campaign}: " if campaign else ""
    where = f"round {round_number} " if round_number is not None else ""
    return CalendarEvent(
        uid=f"deadline-{round_id}-{phase}@{UID_DOMAIN}",
        summary=f"{prefix}{where}{phase} deadline".strip(),
        start=at, end=at + DEADLINE_LENGTH, location="",
        description=f"The {phase} phase ends at this time.",
        sequence=sequence, last_modified=last_modified, busy=False)
