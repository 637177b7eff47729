"""API: the organiser's corrections (R-SEC-2), campaign admins only: a player's requisition
and attack armies, a declaration cancelled on the player's behalf, "done" and an absence for
a player, a result corrected or voided. Each asks for a reason, is refused while an automatic
phase runs (409 ``automatic_phase``), lands in the audit log, and re-checks early advance once
committed (R-RND-2). Checks: 401, permission (403/404), input (400), state (409)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import RoundScoped, advance_if_ready, error_responses, validated
from api.parsers import SafeJSONParser
from api.serializers.absences import AbsenceSerializer
from api.serializers.attacks import AttackOutput
from api.serializers.battles import BattleSerializer
from api.serializers.corrections import (
    ArmiesInput,
    ArmiesOutput,
    AwayForInput,
    DoneForInput,
    DoneForOutput,
    ReasonInput,
    ResultCorrectInput,
)
from api.views.battles import BattleScoped
from api.views.campaigns import PlayerScoped
from battles.services import corrections
from battles.services.results import battle_result_correct, battle_result_void
from campaigns.models import Attack
from league.services import corrections as acting

TAGS = ["corrections"]


class PlayerArmies(PlayerScoped):
    @extend_schema(tags=TAGS, summary="Set a player's requisition and armies left (campaign "
                                      "admin, with a reason)",
                   request=ArmiesInput,
                   responses={200: ArmiesOutput, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, player_id):
        """R-ECO-1, R-ATK-1: e.g. give back an army spent by mistake. Armies only in the
        declare phase."""
        self.require_admin()
        data = validated(ArmiesInput, request.data)
        player = self.get_player()
        values = corrections.player_armies_adjust(
            player=player, by=request.user, reason=data["reason"],
            requisition=data.get("requisition"), armies=data.get("armies"))
        return Response(ArmiesOutput(values).data)


class PlayerDone(PlayerScoped):
    @extend_schema(tags=TAGS, summary="Mark a player done for the phase (campaign admin, with "
                                      "a reason)",
                   request=DoneForInput,
                   responses={200: DoneForOutput, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, player_id):
        """R-RND-2 [reading]: as the player's own "done"; the phase advances at once if
        everyone is ready."""
        self.require_admin()
        data = validated(DoneForInput, request.data)
        created, advanced = acting.phase_done_mark_for(
            player=self.get_player(), by=request.user, reason=data["reason"])
        return Response(DoneForOutput({"created": created, "advanced": advanced}).data)


class PlayerAway(PlayerScoped):
    @extend_schema(tags=TAGS, summary="Mark a player away (campaign admin, with a reason)",
                   request=AwayForInput,
                   responses={201: AbsenceSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, player_id):
        """R-RND-3: an away player's inputs take their defaults; the phase re-checks early
        advance at once (R-RND-2)."""
        self.require_admin()
        data = validated(AwayForInput, request.data)
        absence, _advanced = acting.absence_mark_for(
            player=self.get_player(), by=request.user, reason=data["reason"],
            starts_on=data["starts_on"], ends_on=data["ends_on"], now=timezone.now())
        context = {"user": request.user, "is_admin": True}
        return Response(AbsenceSerializer(absence, context=context).data,
                        status=status.HTTP_201_CREATED)


class AttackCancel(RoundScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="Cancel a declaration for its player (campaign admin, "
                                      "with a reason); the army comes back",
                   request=ReasonInput,
                   responses={200: AttackOutput, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, number, attack_id):
        """[reading R-ATK-5] During declare; unlike the player's withdrawal the army is
        given back."""
        self.require_admin()
        data = validated(ReasonInput, request.data)
        attack = get_object_or_404(Attack.objects.select_related("player__campaign"),
                                   round=self.get_round(), pk=attack_id)
        attack = corrections.attack_cancel(attack=attack, by=request.user,
                                           reason=data["reason"])
        advance_if_ready(attack.round_id)
        return Response(AttackOutput(attack).data)


class ResultCorrect(BattleScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="Correct a result (campaign admin, with a reason)",
                   request=ResultCorrectInput,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """R-BAT-3, R-BAT-4: confirmed at once, kept in the history; settles a dispute."""
        self.require_admin()
        data = validated(ResultCorrectInput, request.data)
        battle = self.get_battle()
        battle_result_correct(battle=battle, by_admin_user=request.user, **data)
        advance_if_ready(battle.round_id)
        return Response(BattleSerializer(self.get_battle()).data)


class ResultVoid(BattleScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="Void a result: the battle is open again (campaign "
                                      "admin, with a reason)",
                   request=ReasonInput,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """R-BAT-4: only in the battles phase, while nothing was built on the result
        (R-CON-6); 409 ``result_locked`` otherwise."""
        self.require_admin()
        data = validated(ReasonInput, request.data)
        battle = self.get_battle()
        battle_result_void(battle=battle, by_admin_user=request.user, reason=data["reason"])
        advance_if_ready(battle.round_id)
        return Response(BattleSerializer(self.get_battle()).data)


PLAYER = "campaigns/<int:campaign_id>/players/<int:player_id>/"
BATTLE = "campaigns/<int:campaign_id>/battles/<int:battle_id>/"
urlpatterns = [
    path(PLAYER + "armies/", PlayerArmies.as_view(), name="player-armies"),
    path(PLAYER + "done/", PlayerDone.as_view(), name="player-done"),
    path(PLAYER + "away/", PlayerAway.as_view(), name="player-away"),
    path("campaigns/<int:campaign_id>/rounds/<int:number>/attacks/<int:attack_id>/cancel/",
         AttackCancel.as_view(), name="attack-cancel"),
    path(BATTLE + "result/correct/", ResultCorrect.as_view(), name="battle-result-correct"),
    path(BATTLE + "result/void/", ResultVoid.as_view(), name="battle-result-void"),
]
