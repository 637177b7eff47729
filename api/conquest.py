"""API: conquest choices and rolls (R-CON, API.md "Rounds, declarations, conquest")."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from battles.models import Battle
from battles.services.chains import chain_decide, check_decision_open
from battles.services.conquest import (
    check_choice_open,
    conquest_choose,
    conquest_view,
    player_rolls,
    roll_dict,
)
from campaigns.models import Round


class ModifierSerializer(serializers.Serializer):
    rule = serializers.CharField()
    name = serializers.CharField()
    value = serializers.IntegerField()


class ConquestItemSerializer(serializers.Serializer):
    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    threshold = serializers.IntegerField()
    modifiers = ModifierSerializer(many=True)
    chance = serializers.FloatField(help_text="exact success probability (R-CON-7)")


class ConquestRollSerializer(serializers.Serializer):
    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())
    modifiers = ModifierSerializer(many=True)
    total = serializers.IntegerField()
    threshold = serializers.IntegerField()
    success = serializers.BooleanField()


class ConquestViewSerializer(serializers.Serializer):
    items = ConquestItemSerializer(many=True)
    choice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    resolved = serializers.BooleanField()
    rolls = ConquestRollSerializer(many=True)


class ChoiceInSerializer(serializers.Serializer):
    roll = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=500)


class ChoiceOutSerializer(serializers.Serializer):
    choice = serializers.ListField(child=serializers.IntegerField())
    resolved = serializers.BooleanField()
    rolls = ConquestRollSerializer(many=True)


def _preview(value: str | None) -> list[int] | None:
    if value is None:
        return None
    parts = [p for p in value.split(",") if p.strip()]
    if not all(p.strip().isdigit() for p in parts):
        raise serializers.ValidationError({"roll": ["A comma-separated list of attack ids."]})
    return [int(p) for p in parts]


class RoundConquest(CampaignScoped):
    def get_round(self) -> Round:
        return get_object_or_404(Round, campaign=self.campaign, number=self.kwargs["number"])

    @extend_schema(parameters=[OpenApiParameter(
                       "roll", str, description="attack ids to preview, comma separated")],
                   responses={200: ConquestViewSerializer, **error_responses(400, 401, 403, 404)})
    def get(self, request, campaign_id, number):
        """Own won attacks with threshold, modifiers and exact chance (R-CON-7)."""
        player = self.require_player()
        rnd = self.get_round()
        return Response(conquest_view(rnd, player, _preview(request.query_params.get("roll"))))

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
        rnd.refresh_from_db()
        return Response({"choice": choice.rolls, "resolved": rnd.conquest_resolved_at is not None,
                         "rolls": player_rolls(rnd, player)})


class ChainDecisionSerializer(serializers.Serializer):
    roll = serializers.BooleanField()


class ChainConquest(CampaignScoped):
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
        return Response({"waived": True} if made is None else roll_dict(made))


urlpatterns = [
    path("campaigns/<int:campaign_id>/rounds/<int:number>/conquest/", RoundConquest.as_view(),
         name="round-conquest"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/conquest/",
         ChainConquest.as_view(), name="battle-conquest"),
]
