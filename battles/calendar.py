"""iCalendar feeds (R-BAT-2): accepted battle dates and phase deadlines of a campaign or a
player, built with the ``icalendar`` library from plain values (no models).

Calendar clients match events by UID and take a changed event only if its SEQUENCE is higher,
so callers pass stable UIDs and bump ``sequence`` whenever a date, time or place changes, and
when an event is cancelled (``cancelled``: STATUS:CANCELLED, RFC 5545 3.8.1.11) or held
(``tentative``: STATUS:TENTATIVE, a paused deadline).
[decision] DTSTAMP is the event's ``last_modified`` (RFC 5545 for feeds without METHOD): the
same data always gives the same bytes, which keeps ETags and client caches stable.

UIDs are ``<kind>-<id>@<host>`` (RFC 5545 3.8.4.7 recommends the domain on the right), the host
being the site's configured one (``settings.SITE_HOST``), so two installations never share UIDs.

Summaries and descriptions are written in the active language (the caller picks it:
``battles.services.feeds``), phases by their label, times in the reader's zone and format
(``local_time_text``).

Every TEXT value (names, summaries, places, descriptions) is escaped here (``Text``) exactly
as RFC 5545 3.3.11 says; icalendar 7's own escaping also turns a literal ``\\N`` into a line
break and writes unknown properties such as X-WR-CALNAME unescaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vText

from campaigns import formats

PRODID = "-//Feldzug//Campaign calendar//EN"
LABEL = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
HOST = re.compile(rf"\[[0-9a-f:.]+\]|{LABEL}(?:\.{LABEL})*")  # a host name or [IP address]
CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # not allowed in TEXT (HTAB is)
BATTLE_LENGTH = timedelta(hours=3)
DEADLINE_LENGTH = timedelta(minutes=15)  # deadlines are instants; a short event shows them
REFRESH = timedelta(hours=1)  # also written as X-PUBLISHED-TTL:PT1H


@dataclass(frozen=True)
class CalendarEvent:
    """One VEVENT. Datetimes must be timezone-aware; they are written in UTC. ``end`` None
    writes no DTEND (the event is an instant). ``busy`` False marks it TRANSPARENT;
    ``cancelled`` writes STATUS:CANCELLED (and TRANSPARENT), ``tentative`` STATUS:TENTATIVE,
    otherwise STATUS:CONFIRMED."""

    uid: str
    summary: str
    start: datetime
    end: datetime | None
    location: str
    description: str
    sequence: int
    last_modified: datetime
    busy: bool = True
    cancelled: bool = False
    tentative: bool = False

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


class Text(vText):
    """A TEXT value escaped as RFC 5545 3.3.11 says: ``\\`` ``;`` ``,`` escaped, every line
    break (CRLF, CR, LF) written ``\\n``, other control characters (not allowed in TEXT)
    left out. A strict parser reads back exactly the text, line breaks as LF."""

    def to_ical(self) -> bytes:
        return escape_text(str(self)).encode(self.encoding)


def escape_text(value: str) -> str:
    """``value`` as RFC 5545 TEXT (see ``Text``)."""
    value = CONTROLS.sub("", value.replace("\r\n", "\n").replace("\r", "\n"))
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\n", "\\n"))


def uid_host(host: str) -> str:
    """The host part of a UID: a host name or a bracketed IP address, in lower case; anything
    else (empty, blanks, ``@``, a URL) is refused."""
    cleaned = host.lower() if isinstance(host, str) else ""
    if not HOST.fullmatch(cleaned):
        raise ValueError(f"host {host!r} is not a host name")
    return cleaned


def build_calendar(name: str, events: Iterable[CalendarEvent]) -> bytes:
    """R-BAT-2: an iCalendar feed named ``name`` holding ``events`` (sorted by start). UIDs
    must be unique within one feed. The name is written as RFC 7986 NAME and as the older
    X-WR-CALNAME most clients read, both as TEXT."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", Text(name))
    calendar.add("x-wr-calname", Text(name))
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
    vevent.add("uid", Text(event.uid))
    vevent.add("dtstamp", _utc(event.last_modified))
    vevent.add("last-modified", _utc(event.last_modified))
    vevent.add("sequence", event.sequence)
    vevent.add("status", "CANCELLED" if event.cancelled
               else "TENTATIVE" if event.tentative else "CONFIRMED")
    vevent.add("summary", Text(event.summary))
    vevent.add("dtstart", _utc(event.start))
    if event.end is not None:
        vevent.add("dtend", _utc(event.end))
    if event.location:
        vevent.add("location", Text(event.location))
    if event.description:
        vevent.add("description", Text(event.description))
    vevent.add("transp", "OPAQUE" if event.busy and not event.cancelled else "TRANSPARENT")
    return vevent


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def local_time_text(at: datetime, zone: tzinfo) -> str:
    """The feeds' one date text: a time in the reader's ``zone`` and the active language's
    format (``campaigns.formats``), the zone named (``Sat 24 Oct 2026, 20:00 CEST
    (Europe/Berlin)`` / ``Sa. 24. Okt. 2026, 20:00 MESZ (Europe/Berlin)``). DTSTART stays
    UTC; clients convert that themselves."""
    with timezone.override(zone):
        shown = formats.datetime_text(at)
    name = getattr(zone, "key", "") or ""
    return shown if not name or shown.endswith(f" {name}") else f"{shown} ({name})"


def battle_event(*, battle_id: int, attacker: str, defender: str | None, tile: str,
                 start: datetime, place: str, sequence: int, last_modified: datetime,
                 host: str, campaign: str = "", round_number: int | None = None,
                 cancelled: str = "", length: timedelta = BATTLE_LENGTH,
                 zone: tzinfo | None = None) -> CalendarEvent:
    """R-BAT-2: an accepted battle date, its texts in the active language. ``defender`` None
    is a neutral garrison (R-ATK-4). ``tile`` is the tile as everything names it
    (``campaigns.labels.tile_label``). UID ``battle-<id>@<host>``. ``cancelled``, if given,
    says why the date is off: the event stays where it was planned, as STATUS:CANCELLED with
    the reason in its description; the caller bumps ``sequence`` and ``last_modified``.
    ``zone``, if given, is the feed reader's: the description names the start in it."""
    opponent = defender or _("neutral garrison")
    details = [cancelled,
               _("Campaign: %(campaign)s") % {"campaign": campaign} if campaign else "",
               _("Round %(number)s") % {"number": round_number}
               if round_number is not None else "",
               _("Tile: %(tile)s") % {"tile": tile},
               _("Starts: %(time)s") % {"time": local_time_text(start, zone)}
               if zone is not None else ""]
    summary = _("Battle: %(attacker)s vs %(defender)s (%(tile)s)") % {
        "attacker": attacker, "defender": opponent, "tile": tile}
    return CalendarEvent(
        uid=f"battle-{battle_id}@{uid_host(host)}",
        summary=_("Cancelled: %(summary)s") % {"summary": summary} if cancelled else summary,
        start=start, end=start + length, location=place,
        description="\n".join(d for d in details if d),
        sequence=sequence, last_modified=last_modified, cancelled=bool(cancelled))


def deadline_event(*, round_id: int, phase: str, at: datetime, sequence: int,
                   last_modified: datetime, host: str, campaign: str = "",
                   round_number: int | None = None, zone: tzinfo | None = None,
                   paused: bool = False, phase_name: str = "") -> CalendarEvent:
    """R-BAT-2, R-RND-1: the end of a round's phase, as a short event that does not block
    time, its texts in the active language. ``phase`` is the phase's code (in the UID
    ``deadline-<round id>-<phase>@<host>``), ``phase_name`` its label for readers
    (``campaigns.labels.phase_label``; the code if none is given). ``zone`` as for
    ``battle_event``. ``paused``: the campaign is paused and the deadline's clock stands;
    ``at`` is when it would pass were the campaign resumed at once, and the event is
    TENTATIVE."""
    name = phase_name or phase
    if round_number is not None:
        summary = _("Round %(number)s: end of the “%(phase)s” phase") % {
            "number": round_number, "phase": name}
    else:
        summary = _("End of the “%(phase)s” phase") % {"phase": name}
    if campaign:
        summary = f"{campaign}: {summary}"
    when = {"phase": name, "time": local_time_text(at, zone) if zone is not None else ""}
    if paused:
        summary = _("Paused: %(summary)s") % {"summary": summary}
        description = (_("The campaign is paused: the “%(phase)s” phase would end at %(time)s; "
                         "the deadline moves later by the length of the pause.") % when
                       if zone is not None else
                       _("The campaign is paused: the deadline moves later by the length of "
                         "the pause."))
    else:
        description = (_("The “%(phase)s” phase ends at %(time)s.") % when if zone is not None
                       else _("The “%(phase)s” phase ends at this time.") % when)
    return CalendarEvent(
        uid=f"deadline-{round_id}-{phase}@{uid_host(host)}",
        summary=summary, start=at, end=at + DEADLINE_LENGTH, location="",
        description=description, sequence=sequence, last_modified=last_modified, busy=False,
        tentative=paused)
