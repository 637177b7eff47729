"""Dates and times as pages show them (issue 17): in the active time zone
(``web.middleware.ActivateTimeZone``: the viewer's, else the campaign's, else the site's), in
the reader's language's format, with the zone named. Machines get the instant in UTC."""

from datetime import UTC, datetime

from django.utils import formats, timezone
from django.utils.html import format_html

FORMATS = {"long": "DATETIME_FORMAT", "short": "SHORT_DATETIME_FORMAT"}


def utc_iso(value: datetime) -> str:
    """``2026-10-24T18:00:00+00:00``: the instant for ``<time datetime>`` and scripts."""
    return value.astimezone(UTC).isoformat()


def local_text(value: datetime, length: str = "long") -> str:
    """``24. Oktober 2026 20:00 CEST``: local date and time and the zone's abbreviation."""
    local = timezone.localtime(value)
    shown = formats.date_format(local, FORMATS.get(length, FORMATS["long"]))
    return f"{shown} {local.tzname()}"


def time_element(value: datetime | None, length: str = "long") -> str:
    """``<time datetime="UTC" title="Europe/Berlin">local text</time>``; "" for no time."""
    if not isinstance(value, datetime):
        return ""
    return format_html('<time datetime="{}" title="{}">{}</time>', utc_iso(value),
                       timezone.get_current_timezone_name(), local_text(value, length))
