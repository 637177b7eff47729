"""The pages' middleware. ``RefuseForbiddenCharacters`` is the one check of posted text (issue
14 item 6): a POST whose field name, value or uploaded file name holds NUL, another control
character (tab and line breaks are fine) or a lone surrogate is refused with a 400 page naming
the field, before any view or form sees it (PostgreSQL refuses NUL in text). The API checks its
bodies in its parsers (api/parsers.py); uploaded files' contents are checked by whoever reads
them (rosters, map documents). ``ActivateTimeZone`` picks the zone pages show times in (issue
17), and for an anonymous reader of a campaign's page the campaign's language when they asked
for none (``activate_reader_language``). ``LearnSiteAddress`` keeps the site's public address
as staff reach it."""

import logging
from types import SimpleNamespace

from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.db.models import CharField, QuerySet
from django.db.models.expressions import RawSQL
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns import languages, site, zones
from campaigns.models import Campaign, Profile
from campaigns.services.site import is_staff, site_url_learn
from rules.text import forbidden_character

log = logging.getLogger(__name__)


def first_forbidden(request) -> tuple[str, object] | None:
    """(field, Forbidden) of the first posted field or file name holding a forbidden
    character, or None."""
    for data in (request.POST, request.FILES):
        for key, values in data.lists():
            for value in [key, *(getattr(v, "name", v) for v in values)]:
                found = forbidden_character(value) if isinstance(value, str) else None
                if found:
                    return (key if forbidden_character(key) is None else "?"), found
    return None


class RefuseForbiddenCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method != "POST" or request.path_info.startswith("/api/"):
            return None
        refused = first_forbidden(request)
        if refused is None:
            return None
        field, found = refused
        message = _("The field “%(field)s” contains U+%(code)s at position %(position)s: NUL, "
                    "control characters and lone surrogates are not allowed.") % {
            "field": field, "code": found.code, "position": found.position}
        return render(request, "web/refused_input.html", {"message": message}, status=400)


class ActivateTimeZone:
    """Pages show and read times in the viewer's zone (``campaigns.zones``): the
    logged-in person's own, else the campaign's of a ``campaigns/<campaign_id>/`` page, else the
    site default. At most one small query for each. A view marked ``reads_zone`` (every
    ``campaign_page``, the campaign list) reads the zones along with its own first query
    (``with_viewer_zone``) and activates the zone itself before it formats a time
    (``activate_read_zone``): no query of its own. The API is left in UTC: its
    answers stay ISO-8601 UTC and its inputs carry their offset."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # a worker thread never keeps the last person's zone

    def process_view(self, request, view, args, kwargs):
        if request.path_info.startswith("/api/"):
            return None
        if getattr(view, "reads_zone", False):
            request.zone_left_to_view = True
        else:
            timezone.activate(page_zone(request.user, kwargs.get("campaign_id"), request))
        return None


def page_zone(user, campaign_id=None, request=None):
    """The zone for ``user`` (maybe anonymous) on a page of campaign ``campaign_id`` (or
    None). With ``request``, an anonymous reader's language is settled from the same campaign
    row (``activate_reader_language``)."""
    profile = campaign = None
    if user.is_authenticated:
        profile = Profile.objects.only("time_zone").filter(user_id=user.pk).first()
    if not getattr(profile, "time_zone", "") and isinstance(campaign_id, int):
        campaign = Campaign.objects.only("time_zone", "language").filter(pk=campaign_id).first()
    if request is not None:
        activate_reader_language(request, campaign)
    return zones.zone(profile=profile, campaign=campaign)


def activate_reader_language(request, campaign: Campaign | None) -> None:
    """An anonymous reader of ``campaign``'s page who asked for no language (no switcher
    cookie, no supported language in ``Accept-Language``) reads it in the campaign's language
    (``campaigns.languages``); ``LocaleMiddleware`` had fallen back to the site's. Signed-in
    members keep theirs (the login sets the cookie)."""
    user = getattr(request, "user", None)
    if campaign is None or user is None or user.is_authenticated:
        return
    if languages.requested_language(request) is None:
        translation.activate(languages.campaign_language(campaign))
        request.LANGUAGE_CODE = translation.get_language()


# As SQL: an ORM subquery costs more to compile than the query it saves
OWN_ZONE = f"(SELECT z.time_zone FROM {Profile._meta.db_table} z WHERE z.user_id = %s)"


def with_viewer_zone(rows: QuerySet, user) -> QuerySet:
    """``rows`` with the signed-in ``user``'s own zone read along on each (``viewer_time_zone``,
    None without a profile); ``rows`` unchanged for an anonymous visitor."""
    if not user.is_authenticated:
        return rows
    return rows.annotate(viewer_time_zone=RawSQL(OWN_ZONE, (user.pk,), output_field=CharField()))


def activate_read_zone(request, row=None, campaign: Campaign | None = None) -> None:
    """A ``reads_zone`` view's zone, as ``page_zone`` picks it: the viewer's own read on ``row``
    (a row of ``with_viewer_zone``; None: none read, e.g. an empty list), else ``campaign``'s
    (a campaign page), else the site's. Nothing when this middleware is not installed: it
    deactivates the zone after the response. An anonymous reader's language is settled from
    ``campaign`` as well (``activate_reader_language``)."""
    activate_reader_language(request, campaign)
    if not getattr(request, "zone_left_to_view", False):
        return
    if row is None and request.user.is_authenticated:
        timezone.activate(page_zone(request.user, getattr(campaign, "pk", None)))
        return
    own = SimpleNamespace(time_zone=getattr(row, "viewer_time_zone", None) or "")
    timezone.activate(zones.zone(profile=own, campaign=campaign))


class LearnSiteAddress:
    """While the server's configuration names no address and staff typed none, the address
    staff reach the pages by (scheme and host) is the site's public address for absolute
    links (``campaigns.site``). Checked before the page, so the page already links the new
    address: an anonymous visitor costs nothing, staff one lookup in this process's memory,
    and the row is written only when the address changes. The API is left out: a script on
    the server itself must not move the address."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and not request.path_info.startswith("/api/"):
            learn_site_address(request)
        return self.get_response(request)


def learn_site_address(request) -> None:
    if site.configured_url() or not is_staff(getattr(request, "user", None)):
        return
    try:
        origin = f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return
    known = site.stored()
    if not known.may_learn or site.origin_of(origin) in (None, known.site_url):
        return
    try:
        site_url_learn(url=origin)
    except DatabaseError:  # the page is served; the next staff request tries again
        log.warning("could not store the site address %s", origin, exc_info=True)
