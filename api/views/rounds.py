"""API: rounds, phase advance, dice log and verifier, standings (API.md)."""

from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from api import round_list
from api.base import CampaignScoped, RoundScoped, error_responses
from api.pagination import Pagination, json_page
from api.serializers.common import page_of
from api.serializers.rounds import (
    AdvanceSerializer,
    DeadlineSerializer,
    RollLogSerializer,
    RollSerializer,
    RoundSerializer,
    StandingsSerializer,
    VerifySerializer,
)
from campaigns.errors import Conflict
from campaigns.selectors.rounds import (
    dice_campaign_id,
    revealed_seed,
    verify_round,
    visible_rolls,
)
from campaigns.values import parse_number
from league.selectors.standings import standings
from league.selectors.standings_history import frozen_standings
from league.services import rounds as round_services


class RoundList(CampaignScoped):
    campaign_rows = round_list.CAMPAIGN_ROWS  # with its latest round

    @extend_schema(operation_id="v1_campaigns_rounds_list",
                   responses={200: page_of(RoundSerializer, "PaginatedRoundList"),
                              **error_responses(404)},
                   parameters=[OpenApiParameter("page", int), OpenApiParameter("page_size", int)])
    def get(self, request, campaign_id):
        paginator = Pagination()
        page = paginator.paginate_queryset(round_list.round_rows(self.campaign), request, self)
        return json_page(request, paginator, page)


class RoundDetail(RoundScoped):
    @extend_schema(responses={200: RoundSerializer, **error_responses(404)})
    def get(self, request, campaign_id, number):
        return Response(RoundSerializer(self.get_round(),
                                        context={"is_admin": self.is_admin}).data)

    @extend_schema(request=DeadlineSerializer,
                   responses={200: RoundSerializer, **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, number):
        """The campaign admin moves the current phase's deadline (R-RND-1)."""
        self.require_admin()
        rnd = self.get_round()
        data = DeadlineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_services.round_set_deadline(rnd=rnd,
                                                deadline=data.validated_data["phase_deadline"],
                                                by=request.user)
        return Response(RoundSerializer(rnd, context={"is_admin": True}).data)


class Advance(CampaignScoped):
    @extend_schema(request=AdvanceSerializer,
                   responses={200: RoundSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        """Move the current round to its next phase (R-RND-2); starts round 1 if none is open.
        Leaving the automatic ``fleets`` phase resolves it first, in this request.

        Send ``expected_phase`` (the phase you saw): a round that already left it is answered
        unchanged, so a repeated or parallel call advances once. Without it, a call within a
        few seconds (``ROUND_ADVANCE_MIN_SECONDS``) of the campaign's previous advance is
        refused with 409 ``advance_too_soon``."""
        self.require_admin()
        data = AdvanceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = round_services.campaign_advance(
            campaign=self.campaign, expected_phase=data.validated_data.get("expected_phase"),
            by=request.user)
        return Response(RoundSerializer(rnd, context={"is_admin": True}).data)


class Rolls(RoundScoped):
    @extend_schema(responses={200: RollLogSerializer, **error_responses(404)})
    def get(self, request, campaign_id, number):
        """The round's dice log (R-DICE-3); the full log once the round closed."""
        rnd = self.get_round()
        rolls = visible_rolls(rnd, full=self.is_admin)
        return Response({"seed_commitment": rnd.seed_commitment,
                         "dice_campaign": dice_campaign_id(rnd),
                         "server_seed": revealed_seed(rnd),
                         "rolls": RollSerializer(rolls, many=True).data})


class Verify(RoundScoped):
    @extend_schema(responses={200: VerifySerializer, **error_responses(404, 409)})
    def get(self, request, campaign_id, number):
        """Recompute every logged roll from the revealed seed (R-DICE-3)."""
        rnd = self.get_round()
        if not rnd.seed_revealed:
            raise Conflict(_("The seed is revealed when the round closes."), code="seed_hidden")
        report = verify_round(rnd)
        return Response({"verified": report.verified, "checked": report.checked,
                         "mismatches": list(report.mismatches)})


class Standings(CampaignScoped):
    @extend_schema(parameters=[OpenApiParameter("round", int, description="frozen at round n")],
                   responses={200: StandingsSerializer, **error_responses(400, 404)})
    def get(self, request, campaign_id):
        """Live standings, or those frozen at a round's close (R-VP-2)."""
        number = request.query_params.get("round")
        if number is None:
            return Response({"round": None, "rows": standings(self.campaign)})
        if parse_number(number) is None:
            raise serializers.ValidationError({"round": ["A round number is required."]})
        rows = frozen_standings(self.campaign, parse_number(number))
        if rows is None:
            raise Http404("No standings were frozen for that round.")
        return Response({"round": int(number), "rows": rows})


urlpatterns = [
    path("campaigns/<int:campaign_id>/rounds/", RoundList.as_view(), name="round-list"),
    path("campaigns/<int:campaign_id>/rounds/<int:number>/", RoundDetail.as_view(),
         name="round-detail"),
    path("campaigns/<int:campaign_id>/rounds/<int:number>/rolls/", Rolls.as_view(),
         name="round-rolls"),
    path("campaigns/<int:campaign_id>/rounds/<int:number>/verify/", Verify.as_view(),
         name="round-verify"),
    path("campaigns/<int:campaign_id>/advance/", Advance.as_view(), name="advance"),
    path("campaigns/<int:campaign_id>/standings/", Standings.as_view(), name="standings"),
]
