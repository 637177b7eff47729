"""API: "done for this phase": a player says they are done with the current
waiting phase; the phase advances early once everyone who can act in it is done (R-RND-2
[reading], ``league.selectors.readiness``)."""

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.serializers.phase_done import PhaseDoneInput, ReadinessSerializer
from campaigns.errors import Conflict
from campaigns.models import Round
from campaigns.selectors.rounds import current_round
from league.selectors.readiness import readiness
from league.services.readiness import phase_done_clear, phase_done_mark
from rules.rounds import WAITING

TAGS = ["rounds"]


class PhaseDone(CampaignScoped):
    def current(self) -> Round:
        rnd = current_round(self.campaign)
        if rnd is None:
            raise Conflict(_("The campaign has not started yet."), code="not_started")
        return rnd

    def state(self, player, advanced: bool = False) -> dict:
        rnd = current_round(self.campaign)
        return {**readiness(rnd, now=timezone.now()).as_dict(player), "advanced": advanced}

    @extend_schema(tags=TAGS, operation_id="v1_campaigns_rounds_current_done_retrieve",
                   summary="The current phase's early-advance state (members)",
                   responses={200: ReadinessSerializer, **error_responses(401, 403, 404, 409)})
    def get(self, request, campaign_id):
        """How many players are done with the current phase and whether it advances early."""
        self.require_member()
        self.current()
        return Response(self.state(self.player))

    @extend_schema(tags=TAGS, operation_id="v1_campaigns_rounds_current_done_create",
                   summary="Say you are done for the current phase (player)",
                   request=PhaseDoneInput,
                   responses={200: ReadinessSerializer, 201: ReadinessSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        """Mark yourself done for the current waiting phase (201; 200 if you had already).
        Your inputs not given take their defaults when the phase ends (R-RND-3). When every
        player who can act in the phase is done, it advances at once (``advanced``). 409 if
        the phase moved on (``phase_over``), waits for nobody, the campaign is paused
        (``paused``) or does not advance early (``early_advance_off``)."""
        player = self.require_player()
        data = validated(PhaseDoneInput, request.data)
        created, advanced = phase_done_mark(round=self.current(), player=player,
                                            phase=data.get("phase"))
        return Response(self.state(player, advanced),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(tags=TAGS, operation_id="v1_campaigns_rounds_current_done_destroy",
                   summary="Take back your done for the current phase (player)",
                   parameters=[OpenApiParameter("phase", str, enum=sorted(WAITING),
                                                description="the phase you saw")],
                   responses={200: ReadinessSerializer, **error_responses(400, 401, 403, 404,
                                                                          409)})
    def delete(self, request, campaign_id):
        """Not done after all, while the phase is open. 409 as for marking."""
        player = self.require_player()
        data = validated(PhaseDoneInput, request.query_params)
        phase_done_clear(round=self.current(), player=player, phase=data.get("phase"))
        return Response(self.state(player))


urlpatterns = [
    path("campaigns/<int:campaign_id>/rounds/current/done/", PhaseDone.as_view(),
         name="round-current-done"),
]
