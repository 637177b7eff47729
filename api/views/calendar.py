"""API: iCalendar feeds of accepted battle dates and phase deadlines (R-BAT-2; API.md
"Battles (tabletop)"), and the secret token of a user's personal feed.

Calendar clients can not log in, so both feeds also take ``?token=`` (the user's calendar
token); the campaign feed takes a session or API token as well. A bad token is a 404.

What calendar clients need:
- [decision] any Accept header gets the calendar (``text/calendar; charset=utf-8``): clients
  send ``text/calendar``, ``application/ics``, ``text/plain``, ``*/*``, a browser's list or
  nothing, and a 406 helps none of them. Errors are JSON whatever was asked (``FeedView``).
- conditional GET: a strong ETag (a hash of the bytes; the same data gives the same bytes) and
  Last-Modified (``battles.services.feeds.Feed``); If-None-Match / If-Modified-Since that still
  match get a 304 without a body (If-None-Match wins when both are sent, RFC 9110 13.2.2).
- the schema declares the feed as ``type: string`` (not ``format: binary``), so generated
  clients read it as text.
- the texts are in the reader's profile language, else (the campaign's feed) the campaign's
  language, else the site's; never the fetching program's ``Accept-Language``: a subscribed
  calendar is fetched by a server that knows nothing of its reader
  (``battles.services.feeds``)."""

import hashlib

from django.http import Http404, HttpResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import CampaignScoped, ErrorSerializer
from api.serializers.calendar import CalendarTokenSerializer
from battles.services.feeds import (
    Feed,
    calendar_token_of,
    calendar_token_regenerate,
    campaign_feed,
    user_feed,
    user_for_token,
)
from campaigns.mail import absolute

ICS = "text/calendar"
JSON = "application/json"


class ICalendarRenderer(renderers.BaseRenderer):
    media_type = ICS
    format = "ics"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else b""


class AnyAccept(BaseContentNegotiation):
    """The feed whatever the client accepts (module docstring); no request body is parsed."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class FeedView(APIView):
    """Answers the feed as text/calendar, and errors as JSON whatever the client accepts."""

    renderer_classes = [ICalendarRenderer, renderers.JSONRenderer]
    content_negotiation_class = AnyAccept

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response):  # an error: JSON, whatever was negotiated
            request.accepted_renderer = renderers.JSONRenderer()
            request.accepted_media_type = JSON
        return super().finalize_response(request, response, *args, **kwargs)


def ics_response(request, feed: Feed, filename: str) -> HttpResponse:
    """The feed with its validators, or a 304 (412) when the request's conditions say so."""
    etag = f'"{hashlib.sha256(feed.body).hexdigest()[:40]}"'
    modified = int(feed.last_modified.timestamp())
    response = HttpResponse(feed.body, content_type=f"{ICS}; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    if feed.language:  # the feed's own, not the request's (LocaleMiddleware keeps this one)
        response["Content-Language"] = feed.language
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    return get_conditional_response(request, etag=etag, last_modified=modified,
                                    response=response) or response


def _errors(*statuses: int) -> dict:
    return {(status, JSON): ErrorSerializer for status in statuses}


FEED = {(200, ICS): OpenApiTypes.STR,
        304: OpenApiResponse(description="Not modified: the If-None-Match or "
                                         "If-Modified-Since validator still matches; no body.")}
CONDITIONS = [
    OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER,
                     description="ETag(s) of a copy the client holds"),
    OpenApiParameter("If-Modified-Since", str, OpenApiParameter.HEADER,
                     description="Last-Modified of a copy the client holds (HTTP date)"),
]
TOKEN_PARAM = OpenApiParameter("token", str, description="the user's calendar token "
                                                         "(GET /me/calendar-token/)")


class CampaignCalendar(FeedView, CampaignScoped):
    @extend_schema(operation_id="v1_campaigns_calendar_retrieve",
                   parameters=[TOKEN_PARAM, *CONDITIONS],
                   responses={**FEED, **_errors(401, 403, 404)})
    def get(self, request, campaign_id):
        """The campaign's feed for its members: accepted battle dates and phase deadlines."""
        token = request.query_params.get("token")
        if token is not None and not request.user.is_authenticated:
            request.user = _token_user(token)
        self.require_member()
        return ics_response(request, campaign_feed(self.campaign, timezone.now(), request.user),
                            f"campaign-{self.campaign.pk}.ics")


class MyCalendar(FeedView):
    authentication_classes = []  # the token in the URL is the credential
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="v1_me_calendar_retrieve",
                   parameters=[OpenApiParameter("token", str, required=True,
                                                description="the user's calendar token"),
                               *CONDITIONS],
                   responses={**FEED, **_errors(404)})
    def get(self, request):
        """The user's personal feed (no login; the secret token identifies it): its own
        battles and the deadlines of its campaigns. 404 for a bad token."""
        user = _token_user(request.query_params.get("token"))
        return ics_response(request, user_feed(user, timezone.now()), "feldzug.ics")


def _token_user(token):
    user = user_for_token(token)
    if user is None:
        raise Http404("No such calendar.")
    return user


class MyCalendarToken(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def answer(self, row) -> Response:
        url = absolute(f"{reverse('api:my-calendar')}?token={row.token}")  # the site's address
        return Response({"token": row.token, "url": url, "created_at": row.created_at})

    @extend_schema(responses={200: CalendarTokenSerializer, **_errors(401)})
    def get(self, request):
        """The caller's calendar token and feed URL (made on first use)."""
        return self.answer(calendar_token_of(user=request.user, now=timezone.now()))

    @extend_schema(request=None, responses={200: CalendarTokenSerializer, **_errors(401)})
    def post(self, request):
        """A new token: the old feed URL stops working."""
        return self.answer(calendar_token_regenerate(user=request.user, now=timezone.now()))


urlpatterns = [
    path("campaigns/<int:campaign_id>/calendar.ics", CampaignCalendar.as_view(),
         name="campaign-calendar"),
    path("me/calendar.ics", MyCalendar.as_view(), name="my-calendar"),
    path("me/calendar-token/", MyCalendarToken.as_view(), name="my-calendar-token"),
]
