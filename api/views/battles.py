"""API: tabletop battles and their results (R-BAT, R-BON; API.md "Battles (tabletop)").
Checks run in the contract's order: 401, permission (403/404), phase or state (409), input and
rules (400)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.response import Response

from api.base import CampaignScoped, advance_if_ready, error_responses
from api.battle_list import CAMPAIGN_ROWS, battle_list_rows, select
from api.pagination import Pagination, json_page
from api.serializers.battles import BattleFilter, BattleSerializer, DisputeInput, ResultInput
from api.serializers.common import page_of
from battles.models import Battle
from battles.selectors.battles import campaign_battles
from battles.selectors.lists import participants
from battles.services import results as reporting
from battles.services.results import battle_result_enter, check_result_phase


class BattleScoped(CampaignScoped):
    def get_battle(self) -> Battle:
        return get_object_or_404(campaign_battles(self.campaign, with_history=True),
                                 pk=self.kwargs["battle_id"])


class BattleList(CampaignScoped):
    campaign_rows = CAMPAIGN_ROWS

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
        rows = select(battle_list_rows(self.campaign), filters.validated_data)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, self)
        return json_page(request, paginator, [row[-1] for row in page])


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
        """A participant reports the result for the opponent to confirm or dispute; the
        campaign admin (not playing this battle) enters or corrects it, confirmed at once
        (R-BAT-3). Every change is kept in the history (R-BAT-4)."""
        self.require_member()
        battle = self.get_battle()
        player = self.player
        playing = player is not None and player.pk in participants(battle)
        if playing and not (self.is_admin and battle.defender_id is None):
            reporting.check_reporter(battle, player)  # 403 against a neutral garrison
            reporting.check_report_state(battle, battle.round, player)
            data = ResultInput(data=request.data)
            data.is_valid(raise_exception=True)
            reporting.battle_result_report(battle=battle, player=player, **data.validated_data)
        elif self.is_admin:
            check_result_phase(battle.round, battle)
            data = ResultInput(data=request.data)
            data.is_valid(raise_exception=True)
            battle_result_enter(battle=battle, by_admin_user=request.user,
                                **data.validated_data)
        else:
            raise exceptions.PermissionDenied(_("Only the battle's participants or the campaign "
                                                "admin may enter its result."))
        advance_if_ready(battle.round_id)  # early advance
        return Response(BattleSerializer(self.get_battle()).data)


class ResultAnswer(BattleScoped):
    def answering(self) -> tuple[Battle, object]:
        """401, 404, 403 for anyone but a participant, 409 / 400 unless a report by the
        opponent waits (R-BAT-3)."""
        self.require_member()
        battle = self.get_battle()
        player = reporting.check_reporter(battle, self.player)
        reporting.check_answer_state(battle, battle.round, player)
        return battle, player


class ResultConfirm(ResultAnswer):
    @extend_schema(request=None,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """The other participant confirms the reported result (R-BAT-3); a chain link's
        follow-up starts at once (R-CON-6)."""
        battle, player = self.answering()
        reporting.battle_result_confirm(battle=battle, player=player)
        advance_if_ready(battle.round_id)  # early advance
        return Response(BattleSerializer(self.get_battle()).data)


class ResultDispute(ResultAnswer):
    @extend_schema(request=DisputeInput,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """The other participant disputes the reported result (R-BAT-3); the campaign admin
        settles it by entering the result."""
        battle, player = self.answering()
        data = DisputeInput(data=request.data)
        data.is_valid(raise_exception=True)
        reporting.battle_result_dispute(battle=battle, player=player,
                                        reason=data.validated_data.get("reason", ""))
        return Response(BattleSerializer(self.get_battle()).data)


BATTLES = "campaigns/<int:campaign_id>/battles/"
urlpatterns = [
    path(BATTLES, BattleList.as_view(), name="battle-list"),
    path(BATTLES + "<int:battle_id>/", BattleDetail.as_view(), name="battle-detail"),
    path(BATTLES + "<int:battle_id>/result/", BattleResult.as_view(), name="battle-result"),
    path(BATTLES + "<int:battle_id>/result/confirm/", ResultConfirm.as_view(),
         name="battle-result-confirm"),
    path(BATTLES + "<int:battle_id>/result/dispute/", ResultDispute.as_view(),
         name="battle-result-dispute"),
]
