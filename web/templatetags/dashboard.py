"""Filters of the organiser's dashboard."""

from django import template

from battles.selectors.obligations import waits_for_input
from campaigns.selectors.players import display_name
from web.templatetags.feldzug import member

register = template.Library()


@register.filter
def waits(entry: dict) -> bool:
    """Does the phase wait for this to-do entry (else it is shown as optional)?"""
    return waits_for_input(entry)


@register.filter
def person(user) -> str:
    """A player's account as the dashboard names it: display name (username), or username;
    ``user__profile`` selected by the caller."""
    name = display_name(user)
    username = member(user)
    return f"{name} ({username})" if name and name != username else username
