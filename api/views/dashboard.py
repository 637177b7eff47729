"""API: the organiser's dashboard and nudges, campaign admins only (401
anonymous, 404 if the campaign is hidden, 403 for anyone else who can see it). The same
selector and service as the page (``battles.selectors.dashboard``,
``battles.services.nudges.nudges_send``)."""

from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.parsers import SafeJSONParser
from api.serializers.dashboard import (
    DashboardSerializer,
    NudgeInputSerializer,
    NudgeResultSerializer,
)
from battles.selectors.dashboard import dashboard
from battles.services.nudges import nudges_send
from campaigns.selectors.clock import clock_state
from campaigns.selectors.rounds import current_round


class Dashboard(CampaignScoped):
    """Who still owes what in the current phase, "done", away, last nudge, reliability;
    disputes to settle and absences; when the clock that advances deadlines last ran."""

    @extend_schema(tags=["campaigns"], summary="The organiser's dashboard (campaign admin)",
                   responses={200: DashboardSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_admin()
        campaign = self.campaign
        rnd = current_round(campaign)
        now = timezone.now()
        board = dashboard(campaign, rnd, now)
        clock = clock_state(now)
        data = {"round": rnd.number if rnd else None, "phase": rnd.phase if rnd else None,
                "deadline": rnd.phase_deadline if rnd else None,
                "paused": campaign.paused_at is not None,
                "pause_reason": campaign.pause_reason, "players": board.players,
                "disputes": board.disputes, "absences": board.absences,
                "clock": clock.status, "clock_last_ran_at": clock.last_at,
                "clock_late": clock.late}
        return Response(DashboardSerializer(data).data)


class Nudges(CampaignScoped):
    """Mail a reminder to players who owe input (at most once per person, phase and 12
    hours; never to a player away today); answers who was nudged and who was skipped."""

    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="Nudge players who owe input (campaign admin)",
                   request=NudgeInputSerializer,
                   responses={200: NudgeResultSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = validated(NudgeInputSerializer, request.data)
        outcome = nudges_send(campaign=self.campaign, by=request.user,
                              player_ids=data.get("players"), now=timezone.now())
        return Response(NudgeResultSerializer(outcome).data)


urlpatterns = [
    path("campaigns/<int:campaign_id>/dashboard/", Dashboard.as_view(), name="dashboard"),
    path("campaigns/<int:campaign_id>/nudges/", Nudges.as_view(), name="nudges"),
]
