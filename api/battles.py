"""API: tabletop battles and their results (R-BAT, R-BON; API.md "Battles (tabletop)").
Checks run in the contract's order: 401, permission (403/404), phase or state (409), input and
rules (400)."""

from django.db.models import Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.response import Response

from battles.models import Battle, ResultChange
from battles.results import battle_result_enter, check_result_phase

from .base import CampaignScoped, error_responses
from .pagination import Pagination
from .serializers_battles import BattleFilter, BattleSerializer, ResultInput, page_of

REPORT_LATER = ("Players report results with the players' result workflow, which is not open "
                "yet; until then the campaign admin enters results.")


def campaign_battles(campaign) -> QuerySet:
    """The campaign's battles with everything the serializer reads, in a constant number of
    queries whatever their number."""
    history = ResultChange.objects.select_related("by").order_by("at", "id")
    return (Battle.objects.filter(campaign=campaign).select_related("round")
            .prefetch_related(Prefetch("history", queryset=history))
            .order_by("round__number", "attack__order"))


class BattleScoped(CampaignScoped):
    def get_battle(self) -> Battle:
        return get_object_or_404(campaign_battles(self.campaign), pk=self.kwargs["battle_id"])


class BattleList(CampaignScoped):
    @extend_schema(operation_id="v1_campaigns_battles_list",
                   parameters=[BattleFilter, OpenApiParameter("page", int),
                               OpenApiParameter("page_size", int)],
                   responses={200: page_of(BattleSerializer, "PaginatedBattleList"),
                              **error_responses(400, 401, 403, 404)})
    def get(self, request, campaign_id):
        """The campaign's battles, filtered by round number, player (either side) or status."""
        self.require_member()
        filters = BattleFilter(data=request.query_params)
        filters.is_valid(raise_exception=True)
        battles = campaign_battles(self.campaign)
        wanted = filters.validated_data
        if "round" in wanted:
            battles = battles.filter(round__number=wanted["round"])
        if "player" in wanted:
            battles = battles.filter(Q(attacker=wanted["player"]) | Q(defender=wanted["player"]))
        if "status" in wanted:
            battles = battles.filter(status=wanted["status"])
        paginator = Pagination()
        page = paginator.paginate_queryset(battles, request, self)
        return paginator.get_paginated_response(BattleSerializer(page, many=True).data)


class BattleDetail(BattleScoped):
    @extend_schema(responses={200: BattleSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, battle_id):
        """One battle: participants, chain link, point limits and bonus (R-BON), result and
        its history (R-BAT-3/4)."""
        self.require_member()
        return Response(BattleSerializer(self.get_battle()).data)


class BattleResult(BattleScoped):
    @extend_schema(request=ResultInput,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """The campaign admin enters or corrects a result, confirmed at once (R-BAT-3); every
        change is kept in the history (R-BAT-4). Participants' reports come later (403)."""
        self.require_member()
        battle = self.get_battle()
        if not self.is_admin:
            player = self.player
            if player and player.pk in (battle.attacker_id, battle.defender_id):
                raise exceptions.PermissionDenied(REPORT_LATER)
            raise exceptions.PermissionDenied("Only the battle's participants or the campaign "
                                              "admin may enter its result.")
        check_result_phase(battle.round, battle)
        data = ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        battle_result_enter(battle=battle, by_admin_user=request.user, **data.validated_data)
        return Response(BattleSerializer(self.get_battle()).data)


BATTLES = "campaigns/<int:campaign_id>/battles/"
urlpatterns = [
    path(BATTLES, BattleList.as_view(), name="battle-list"),
    path(BATTLES + "<int:battle_id>/", BattleDetail.as_view(), name="battle-detail"),
    path(BATTLES + "<int:battle_id>/result/", BattleResult.as_view(), name="battle-result"),
]
