"""API: agreeing on a battle's date and place (R-BAT-2; API.md "Battles (tabletop)")."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import error_responses
from api.serializers.battles import BattleSerializer, ProposalSerializer
from api.serializers.schedule import AcceptInput, ProposeInput
from api.views.battles import BattleScoped
from battles.services.lists import check_participant
from battles.services.schedule import check_schedule_state, schedule_accept, schedule_propose


class ScheduleScoped(BattleScoped):
    def scheduling(self):
        """401, 404, 403 for anyone but a participant, 409 when no date can be agreed."""
        self.require_member()
        battle = self.get_battle()
        player = check_participant(battle, self.player)
        check_schedule_state(battle, battle.round)
        return battle, player


class SchedulePropose(ScheduleScoped):
    @extend_schema(request=ProposeInput,
                   responses={201: ProposalSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """A participant proposes a date, time and place, superseding any open proposal (a
        counter-proposal); the opponent is told by e-mail (R-BAT-2)."""
        battle, player = self.scheduling()
        data = ProposeInput(data=request.data)
        data.is_valid(raise_exception=True)
        proposal = schedule_propose(battle=battle, player=player, **data.validated_data)
        return Response(ProposalSerializer(proposal).data, status=status.HTTP_201_CREATED)


class ScheduleAccept(ScheduleScoped):
    @extend_schema(request=AcceptInput,
                   responses={200: BattleSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, battle_id):
        """The other participant accepts the open proposal: the battle's date and place are
        set and the calendar feeds update (R-BAT-2)."""
        battle, player = self.scheduling()
        data = AcceptInput(data=request.data)
        data.is_valid(raise_exception=True)
        schedule_accept(battle=battle, player=player,
                        proposal_id=data.validated_data.get("proposal"))
        return Response(BattleSerializer(self.get_battle()).data)


BATTLE = "campaigns/<int:campaign_id>/battles/<int:battle_id>/"
urlpatterns = [
    path(BATTLE + "schedule/", SchedulePropose.as_view(), name="battle-schedule"),
    path(BATTLE + "schedule/accept/", ScheduleAccept.as_view(), name="battle-schedule-accept"),
]
