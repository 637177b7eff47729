"""API: naval battle reports (API.md "Fleets and naval battles"; R-INT-6, R-NAV-13, R-SPC,
R-FLT-7). Whoever may read the campaign (its members; anyone if it is public) sees the battles
of rounds past the ``fleets`` phase: the full replay if it fought the battle or is the admin, a
summary otherwise (``fleets.selectors.fleets.naval_report``). Other battles do not exist (404)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.pagination import Pagination
from api.serializers.common import page_of
from api.serializers.naval_battles import NavalBattleSerializer, RoundFilter
from fleets.selectors.fleets import naval_report, visible_naval_battles

TAGS = ["naval battles"]


class NavalBattleScoped(CampaignScoped):
    def report(self, battle) -> dict:
        return naval_report(battle, player=self.player, is_admin=self.is_admin)


class NavalBattleList(NavalBattleScoped):
    @extend_schema(tags=TAGS, operation_id="v1_campaigns_naval_battles_list",
                   summary="Naval battle reports: summaries, the replay of your own battles",
                   parameters=[RoundFilter, OpenApiParameter("page", int),
                               OpenApiParameter("page_size", int)],
                   responses={200: page_of(NavalBattleSerializer, "PaginatedNavalBattleList"),
                              **error_responses(400, 404)})
    def get(self, request, campaign_id):
        wanted = RoundFilter(data=request.query_params)
        wanted.is_valid(raise_exception=True)
        battles = visible_naval_battles(self.campaign)
        if "round" in wanted.validated_data:
            battles = battles.filter(round__number=wanted.validated_data["round"])
        paginator = Pagination()
        page = paginator.paginate_queryset(battles, request, self)
        return paginator.get_paginated_response(
            NavalBattleSerializer([self.report(b) for b in page], many=True).data)


class NavalBattleDetail(NavalBattleScoped):
    @extend_schema(tags=TAGS, summary="One naval battle: summary, or the replay for its players",
                   description="Everyone who may read the campaign: where, who, the outcome and "
                               "the ships lost per side. The players who fought it and the "
                               "admin (`replay` true) also get the sides and the event log: "
                               "each event has `rule`, `step`, the dice faces it used (`dice`, "
                               "if any) and what happened (R-NAV-13, R-FLT-7).",
                   responses={200: NavalBattleSerializer, **error_responses(404)})
    def get(self, request, campaign_id, battle_id):
        battle = get_object_or_404(visible_naval_battles(self.campaign), pk=battle_id)
        return Response(NavalBattleSerializer(self.report(battle)).data)


_PREFIX = "campaigns/<int:campaign_id>/naval-battles/"
urlpatterns = [
    path(_PREFIX, NavalBattleList.as_view(), name="naval-battle-list"),
    path(_PREFIX + "<int:battle_id>/", NavalBattleDetail.as_view(), name="naval-battle-detail"),
]
