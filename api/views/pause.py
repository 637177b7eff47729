"""API: pause and resume a campaign, extend the current deadline; campaign
admins only. While paused, every player write answers 409 ``campaign_paused``."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.parsers import SafeJSONParser
from api.serializers.campaigns import CampaignSerializer
from api.serializers.pause import ExtendSerializer, PauseSerializer
from api.serializers.rounds import RoundSerializer
from league.services import pause as services

ADMIN_ERRORS = error_responses(400, 401, 403, 404, 409)


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


class Pause(CampaignScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="Pause the campaign (campaign admin)",
                   request=PauseSerializer, responses={200: CampaignSerializer, **ADMIN_ERRORS})
    def post(self, request, campaign_id):
        """Deadlines stop and keep the time they had left, nothing advances, no reminders go
        out; players read but every write is refused (409 ``campaign_paused``). Pausing a
        paused campaign is 409 ``already_paused``."""
        self.require_admin()
        campaign = services.campaign_pause(campaign=self.campaign, by=request.user,
                                           reason=_body(request).get("reason", ""))
        return Response(CampaignSerializer(campaign).data)


class Resume(CampaignScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="Resume the campaign (campaign admin)",
                   request=None, responses={200: CampaignSerializer, **ADMIN_ERRORS})
    def post(self, request, campaign_id):
        """The deadline gets the time it had left; 409 ``not_paused`` unless paused."""
        self.require_admin()
        campaign = services.campaign_resume(campaign=self.campaign, by=request.user)
        return Response(CampaignSerializer(campaign).data)


class Extend(CampaignScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="Extend the current deadline (campaign admin)",
                   request=ExtendSerializer, responses={200: RoundSerializer, **ADMIN_ERRORS})
    def post(self, request, campaign_id):
        """The current phase's deadline, ``hours`` (1..720) later (R-RND-1); 409 for a phase
        without a deadline or a lists deadline that passed (R-ARM-3). While paused, the time
        left grows (``deadline_left_seconds``)."""
        self.require_admin()
        rnd = services.round_extend_deadline(campaign=self.campaign, by=request.user,
                                             hours=_body(request).get("hours"))
        return Response(RoundSerializer(rnd, context={"is_admin": True}).data)


urlpatterns = [
    path("campaigns/<int:campaign_id>/pause/", Pause.as_view(), name="campaign-pause"),
    path("campaigns/<int:campaign_id>/resume/", Resume.as_view(), name="campaign-resume"),
    path("campaigns/<int:campaign_id>/rounds/current/extend/", Extend.as_view(),
         name="round-extend"),
]
