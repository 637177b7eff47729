"""Who looks at which campaign: every campaign page starts here (R-SEC-1, R-SEC-2).

``campaign_page(need)`` wraps ``view(request, scope, **kwargs)``. The campaign is 404 unless the
user may see it; a page that needs more than seeing sends an anonymous visitor to the login
page and shows the 403 page to a signed-in user who lacks the right."""

from dataclasses import dataclass
from functools import cached_property, wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import render

from campaigns import access
from campaigns.models import Campaign, Round
from campaigns.selectors.rounds import current_round
from web.views import nav

NEEDS = ("view", "member", "player", "admin")


@dataclass
class Scope:
    request: HttpRequest
    campaign: Campaign

    @cached_property
    def player(self):
        return access.player_of(self.request.user, self.campaign)

    @cached_property
    def is_admin(self) -> bool:
        return access.is_campaign_admin(self.request.user, self.campaign)

    @property
    def is_member(self) -> bool:
        return self.is_admin or self.player is not None

    @cached_property
    def round(self) -> Round | None:
        """The campaign's current (highest-numbered) round."""
        return current_round(self.campaign)

    def allows(self, need: str) -> bool:
        return {"view": True, "member": self.is_member, "player": self.player is not None,
                "admin": self.is_admin}[need]

    def context(self, **extra) -> dict:
        """What every campaign template gets, plus ``extra``."""
        return {"campaign": self.campaign, "scope": self, "round": self.round,
                "player": self.player, "is_admin": self.is_admin,
                "nav": nav.items_for(self), **extra}


def forbidden(request, scope: Scope | None = None):
    context = scope.context() if scope else {}
    return render(request, "web/forbidden.html", context, status=403)


def campaign_page(need: str = "view"):
    """Decorate a page of /campaigns/<campaign_id>/ that needs ``need`` (one of ``NEEDS``)."""
    if need not in NEEDS:
        raise ValueError(f"unknown need {need!r}")

    def decorate(view):
        @wraps(view)
        def wrapper(request, campaign_id, **kwargs):
            scope = Scope(request, access.get_visible_campaign(request.user, campaign_id))
            if not scope.allows(need):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                return forbidden(request, scope)
            try:
                return view(request, scope, **kwargs)
            except PermissionDenied:  # a service refused the caller
                return forbidden(request, scope)
        return wrapper

    return decorate
