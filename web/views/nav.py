"""The campaign tabs. Pages of other apps add theirs to ``ITEMS`` where they belong in the
order (e.g. battles after the map, fleets after battles); ``need`` is a ``scope.NEEDS`` entry."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class NavItem:
    url_name: str
    label: str
    need: str = "view"
    also: tuple[str, ...] = ()  # pages below the tab, on which it is open too


ITEMS = [
    NavItem("campaigns:detail", _("Overview")),
    NavItem("campaigns:map", _("Map"), "view", ("campaigns:map-history", "campaigns:map-text")),
    NavItem("campaigns:battles", _("Battles"), "member", ("campaigns:battle",)),
    NavItem("campaigns:fleets", _("Fleets"), "view", ("campaigns:naval-battle",)),
    NavItem("campaigns:conquest", _("Conquest"), "player"),
    NavItem("campaigns:standings", _("Standings")),
    NavItem("campaigns:campaign-rules", _("Rules")),
    NavItem("campaigns:corrections-log", _("Audit log"), "member"),
    NavItem("campaigns:dashboard", pgettext_lazy("dashboard", "Dashboard"), "admin"),
    NavItem("campaigns:manage", _("Manage"), "admin",
            ("campaigns:map-editor", "campaigns:map-editor-areas", "campaigns:map-editor-area")),
    NavItem("campaigns:manage-members", _("Members"), "admin"),
]


def items_for(scope) -> list[dict]:
    """The tabs ``scope``'s viewer may open, each with its address and whether it is open."""
    current = scope.request.resolver_match
    current_name = current.view_name if current else ""
    result = []
    for item in ITEMS:
        if scope.allows(item.need):
            active = current_name == item.url_name or current_name in item.also
            result.append({"label": item.label, "active": active,
                           "url": reverse(item.url_name, args=[scope.campaign.pk])})
    return result
