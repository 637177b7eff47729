"""Who looks at which campaign: every campaign page starts here (R-SEC-1, R-SEC-2).

``campaign_page(need)`` wraps ``view(request, scope, **kwargs)``. The campaign is 404 unless the
user may see it; a page that needs more than seeing sends an anonymous visitor to the login
page and shows the 403 page to a signed-in user who lacks the right. A logged-out visitor of a
campaign they may not see (private, or missing: the same answer, so nothing tells them apart)
is sent to the login page too, with ``next`` back to the page: links in mail are opened
logged out, often on a phone. The API keeps answering 404.

what every campaign page needs of the campaign (its current round, the viewer's seat
and own time zone, whether they run it) is read with the campaign in one query (``page_rows``).
"""

from dataclasses import dataclass
from functools import cached_property, wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import FilteredRelation, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpRequest
from django.shortcuts import render

from campaigns import access
from campaigns.models import Campaign, Round
from campaigns.selectors.campaigns import LATEST_ROUND
from campaigns.selectors.rounds import current_round
from web import middleware
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
            try:
                scope = read_scope(request, campaign_id)
            except Http404:
                if request.user.is_authenticated:
                    raise
                return redirect_to_login(request.get_full_path())
            if not scope.allows(need):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                return forbidden(request, scope)
            try:
                return view(request, scope, **kwargs)
            except PermissionDenied:  # a service refused the caller
                return forbidden(request, scope)
        wrapper.reads_zone = True  # web.middleware.ActivateTimeZone: read_scope activates it
        return wrapper

    return decorate


def page_rows(user) -> QuerySet:
    """Campaigns with the current (highest-numbered) round and the viewer's player joined
    (``page_round``, ``page_player``) and the viewer's own time zone (``viewer_time_zone``)."""
    latest = RawSQL(LATEST_ROUND.format("number"), ())  # cheaper to compile than a Subquery
    rows = Campaign.objects.annotate(
        page_round=FilteredRelation("rounds", condition=Q(rounds__number=latest)))
    joined = ["page_round"]
    if user.is_authenticated:
        rows = rows.annotate(
            page_player=FilteredRelation("players", condition=Q(players__user_id=user.pk)))
        joined.append("page_player")
    return middleware.with_viewer_zone(rows.select_related(*joined), user)


def read_scope(request, campaign_id) -> Scope:
    """The scope of a page of campaign ``campaign_id`` (404 unless the viewer may see it), its
    round and the viewer's player read with it, and the page's time zone active."""
    campaign = access.get_visible_campaign(request.user, campaign_id, page_rows(request.user))
    scope = Scope(request, campaign)
    # a missing joined row leaves its attribute unset (the campaign has no round yet, the
    # viewer has no seat): the same None current_round and player_of would give
    scope.__dict__["round"] = getattr(campaign, "page_round", None)
    if request.user.is_authenticated:
        scope.__dict__["player"] = getattr(campaign, "page_player", None)
    middleware.activate_read_zone(request, campaign, campaign)
    return scope
