"""Whose time zone a date is shown in: the person's own (their profile), else the
campaign's, else the site's default. Stored times stay UTC; this only picks the zone to show
and to read entered times in."""

import functools
import zoneinfo
from importlib import resources
from pathlib import Path

from django.conf import settings

# The zones a club in Germany, Austria and Switzerland picks most; the time zone menus list
# them first.
COMMON_ZONES = ("Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/London", "UTC")
REGIONS = ("Europe", "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic",
           "Australia", "Indian", "Pacific")


def zone_name(*, profile=None, campaign=None) -> str:
    """The IANA name to use for a person with ``profile`` (or None: anonymous) looking at
    ``campaign`` (or None: a page outside any campaign)."""
    for name in (getattr(profile, "time_zone", ""), getattr(campaign, "time_zone", "")):
        if name:
            return name
    return settings.CAMPAIGN_TIME_ZONE


def zone(*, profile=None, campaign=None) -> zoneinfo.ZoneInfo:
    """``zone_name`` as a ZoneInfo (an unknown stored name falls back to UTC)."""
    try:
        return zoneinfo.ZoneInfo(zone_name(profile=profile, campaign=campaign))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _zone_table() -> str:
    """The tz database's zone.tab (every country's zones), from where ``zoneinfo`` reads zones:
    the system's folders, else the ``tzdata`` package; "" if neither has it."""
    for folder in zoneinfo.TZPATH:
        path = Path(folder) / "zone.tab"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(
            encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return ""


@functools.cache
def canonical_zone_names() -> tuple[str, ...]:
    """The zones a person picks from, sorted: the places of zone.tab (every country's, so
    Europe/Amsterdam and Europe/Vaduz are there) and UTC, without the legacy aliases
    ("US/Pacific", "Etc/GMT+3", "CET"). Any zone the system knows stays valid where a zone is
    stored; this is only what the menus offer."""
    known = zoneinfo.available_timezones()
    names = {fields[2] for line in _zone_table().splitlines()
             if not line.startswith("#") and len(fields := line.split("\t")) >= 3}
    if not names:  # no zone.tab: the region names are the canonical ones
        names = {name for name in known if name.split("/", 1)[0] in REGIONS}
    return tuple(sorted((names & known) | {"UTC"}))
