"""API: naval battle reports (API.md "Fleets and naval battles"; R-INT-6, R-NAV-13, R-SPC).
Participants and the admin see a report at once, every member once its round closed; for anyone
else it does not exist (404)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.pagination import Pagination
from api.serializers.common import page_of
from api.serializers.naval_battles import NavalBattleSerializer, RoundFilter
from fleets.selectors.fleets import visible_naval_battles

TAGS = ["naval battles"]


class NavalBattleList(CampaignScoped):
    @extend_schema(tags=TAGS, operation_id="v1_campaigns_naval_battles_list",
                   summary="Naval battle reports the caller may see",
                   parameters=[RoundFilter, OpenApiParameter("page", int),
                               OpenApiParameter("page_size", int)],
                   responses={200: page_of(NavalBattleSerializer, "PaginatedNavalBattleList"),
                              **error_responses(400, 401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_member()
        wanted = RoundFilter(data=request.query_params)
        wanted.is_valid(raise_exception=True)
        battles = visible_naval_battles(self.campaign, player=self.player,
                                        is_admin=self.is_admin)
        if "round" in wanted.validated_data:
            battles = battles.filter(round__number=wanted.validated_data["round"])
        paginator = Pagination()
        page = paginator.paginate_queryset(battles, request, self)
        return paginator.get_paginated_response(NavalBattleSerializer(page, many=True).data)


class NavalBattleDetail(CampaignScoped):
    @extend_schema(tags=TAGS, summary="One naval battle: sides, outcome and the event log",
                   description="Each event has `rule`, `step`, the dice faces it used (`dice`, "
                               "if any) and what happened (R-NAV-13).",
                   responses={200: NavalBattleSerializer, **error_responses(401, 404)})
    def get(self, request, campaign_id, battle_id):
        self.require_authenticated()
        battles = visible_naval_battles(self.campaign, player=self.player,
                                        is_admin=self.is_admin)
        if not (self.is_admin or self.player is not None):
            battles = battles.none()
        return Response(NavalBattleSerializer(get_object_or_404(battles, pk=battle_id)).data)


_PREFIX = "campaigns/<int:campaign_id>/naval-battles/"
urlpatterns = [
    path(_PREFIX, NavalBattleList.as_view(), name="naval-battle-list"),
    path(_PREFIX + "<int:battle_id>/", NavalBattleDetail.as_view(), name="naval-battle-detail"),
]
