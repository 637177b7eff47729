"""Whose time zone a date is shown in (issue 17): the person's own (their profile), else the
campaign's, else the site's default. Stored times stay UTC; this only picks the zone to show
and to read entered times in."""

import zoneinfo

from django.conf import settings


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
