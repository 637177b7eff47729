"""Filters for mail templates (``{% load mailtext %}``, issue 17 point 6)."""

from datetime import datetime

from django import template
from django.utils import formats, timezone

from campaigns import labels

register = template.Library()


@register.filter
def mail_time(value) -> str:
    """A date and time in the active zone (``campaigns.mail.recipient_locale``: the
    recipient's), in their language's format, with the zone named:
    ``24. Oktober 2026 20:00 CEST (Europe/Berlin)``; "" for no time."""
    if not isinstance(value, datetime):
        return ""
    local = timezone.localtime(value)
    shown = formats.date_format(local, "DATETIME_FORMAT")
    return f"{shown} {local.tzname()} ({timezone.get_current_timezone_name()})"


@register.filter
def tile_label(tile) -> str:
    """A tile as everything names it (``campaigns.labels.tile_label``)."""
    return labels.tile_label(tile) if tile else ""
