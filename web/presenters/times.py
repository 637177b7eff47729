"""Dates and times as pages show them: in the active time zone (``web.middleware``: the
viewer's, else the campaign's, else the site's), in the reader's language's one format
(``campaigns.formats``: ``Wed 6 Jan 2027, 17:25 CET`` / ``Mi. 6. Jan. 2027, 17:25 MEZ``), with
the zone named. Machines get the instant in UTC."""

from datetime import UTC, date, datetime

from django.utils import timezone
from django.utils.html import format_html

from campaigns import formats


def utc_iso(value: datetime) -> str:
    """``2026-10-24T18:00:00+00:00``: the instant for ``<time datetime>`` and scripts."""
    return value.astimezone(UTC).isoformat()


def local_text(value: datetime, length: str = "long") -> str:
    """``Wed 6 Jan 2027, 17:25 CET`` (``long``) or ``6 Jan, 17:25 CET`` (``short``): local
    date and time and the zone's abbreviation in the reader's language."""
    return formats.datetime_text(value, "short" if length == "short" else "long")


def relative_text(value: datetime) -> str:
    """``in 2 days`` / ``in 2 Tagen``, ``3 hours ago``: next to deadlines."""
    return formats.relative_text(value)


def time_element(value: datetime | None, length: str = "long") -> str:
    """``<time datetime="UTC" title="Europe/Berlin">local text</time>``; "" for no time."""
    if not isinstance(value, datetime):
        return ""
    return format_html('<time datetime="{}" title="{}">{}</time>', utc_iso(value),
                       timezone.get_current_timezone_name(), local_text(value, length))


def date_element(value: date | None, length: str = "long") -> str:
    """``<time datetime="2027-01-06">Wed 6 Jan 2027</time>`` for a calendar day (an absence);
    "" for no day."""
    if not isinstance(value, date):
        return ""
    if isinstance(value, datetime):
        value = timezone.localdate(value)
    return format_html('<time datetime="{}">{}</time>', value.isoformat(),
                       formats.date_text(value, length))
