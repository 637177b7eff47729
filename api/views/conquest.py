"""API: conquest choices and rolls (R-CON, API.md "Rounds, declarations, conquest")."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, RoundScoped, advance_if_ready, error_responses
from api.serializers.conquest import (
    ChainDecisionSerializer,
    ChainStateSerializer,
    ChoiceInSerializer,
    ChoiceOutSerializer,
    ConquestRollSerializer,
    ConquestViewSerializer,
    preview_ids,
)
from battles.models import Battle
from battles.selectors.chains import chain_state
from battles.selectors.conquest import conquest_view, player_rolls, roll_dict
from battles.services.chains import chain_decide, check_decision_open
from battles.services.conquest import check_choice_open, conquest_choose


class RoundConquest(RoundScoped):
    @extend_schema(parameters=[OpenApiParameter(
                       "roll", str, description="attack ids to preview, comma separated")],
                   responses={200: ConquestViewSerializer, **error_responses(400, 401, 403, 404)})
    def get(self, request, campaign_id, number):
        """Own won attacks with threshold, modifiers and exact chance (R-CON-7)."""
        player = self.require_player()
        rnd = self.get_round()
        return Response(conquest_view(rnd, player, preview_ids(request.query_params.get("roll"))))

    @extend_schema(request=ChoiceInSerializer,
                   responses={200: ChoiceOutSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, number):
        """Seal which won attacks to roll (R-CON-4); the rest are waived. A second choice: 409."""
        player = self.require_player()
        rnd = self.get_round()
        check_choice_open(rnd, player)
        data = ChoiceInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        choice = conquest_choose(player=player, rnd=rnd, roll=data.validated_data["roll"])
        advance_if_ready(rnd.pk)  # early advance
        rnd.refresh_from_db()
        return Response({"choice": choice.rolls, "resolved": rnd.conquest_resolved_at is not None,
                         "rolls": player_rolls(rnd, player)})


class ChainConquest(CampaignScoped):
    @extend_schema(responses={200: ChainStateSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, battle_id):
        """A chain link's roll decision (R-CON-6): while it is open, the roll's threshold,
        every modifier and the exact chance (R-CON-7); afterwards the roll as it was made."""
        self.require_member()
        battle = get_object_or_404(Battle.objects.select_related("attack", "campaign"),
                                   campaign=self.campaign, pk=battle_id)
        return Response(chain_state(battle))

    @extend_schema(request=ChainDecisionSerializer,
                   responses={200: ConquestRollSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """The winning attacker of a chain link that is not the last rolls or waives at once
        (R-CON-6). Answers the roll, or ``{"waived": true}``."""
        player = self.require_player()
        battle = get_object_or_404(Battle, campaign=self.campaign, pk=battle_id)
        check_decision_open(battle)
        data = ChainDecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = chain_decide(battle=battle, player=player, roll=data.validated_data["roll"])
        advance_if_ready(battle.round_id)  # early advance
        return Response({"waived": True} if made is None else roll_dict(made))


urlpatterns = [
    path("campaigns/<int:campaign_id>/rounds/<int:number>/conquest/", RoundConquest.as_view(),
         name="round-conquest"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/conquest/",
         ChainConquest.as_view(), name="battle-conquest"),
]
