"""Filters for mail templates (``{% load mailtext %}``)."""

from datetime import date, datetime

from django import template
from django.utils import timezone

from campaigns import formats, labels

register = template.Library()


@register.filter
def mail_time(value) -> str:
    """A date and time in the active zone (``campaigns.mail.recipient_locale``: the
    recipient's), in their language's one format (``campaigns.formats``), with the zone
    named, and its name in the zone database as well (a mail can not be hovered for it):
    ``Sa. 24. Okt. 2026, 20:00 MESZ (Europe/Berlin)``; "" for no time."""
    if not isinstance(value, datetime):
        return ""
    shown, name = formats.datetime_text(value), timezone.get_current_timezone_name()
    return shown if shown.endswith(f" {name}") else f"{shown} ({name})"


@register.filter
def mail_date(value) -> str:
    """A calendar day in the recipient's language: ``Mi. 6. Jan. 2027``; "" for none."""
    return formats.date_text(value) if isinstance(value, date) else ""


@register.filter
def tile_label(tile) -> str:
    """A tile as everything names it (``campaigns.labels.tile_label``)."""
    return labels.tile_label(tile) if tile else ""
