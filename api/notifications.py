"""API: a player's e-mail notification switches (one per kind, default on)."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from battles.models import NotificationKind
from battles.services.notifications import preferences_of, preferences_update

HELP = {
    NotificationKind.PHASE_OPENED: "a phase opened, with its deadline",
    NotificationKind.DEADLINE_SOON: "a deadline is near and you still owe input",
    NotificationKind.DATE_PROPOSED: "your opponent proposed a battle date",
    NotificationKind.RESULT_TO_CONFIRM: "a reported result waits for your confirmation",
    NotificationKind.DISPUTE_RAISED: "a result was disputed",
}


class PreferencesSerializer(serializers.Serializer):
    """Each kind on (true) or off (false); PATCH any subset."""

    def get_fields(self):
        return {kind: serializers.BooleanField(required=False, help_text=HELP[kind])
                for kind in NotificationKind.values}


class PreferencesStrict(PreferencesSerializer):
    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(NotificationKind.values)) \
            if isinstance(self.initial_data, dict) else []
        if unknown:
            raise serializers.ValidationError({unknown[0]: ["Unknown notification kind."]})
        return attrs


class MyNotifications(CampaignScoped):
    @extend_schema(responses={200: PreferencesSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        """The caller's notification switches in this campaign (players only)."""
        return Response(preferences_of(self.require_player()))

    @extend_schema(request=PreferencesSerializer,
                   responses={200: PreferencesSerializer, **error_responses(400, 401, 403, 404)})
    def patch(self, request, campaign_id):
        """Switch kinds on or off; kinds not named keep their setting."""
        player = self.require_player()
        data = PreferencesStrict(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(preferences_update(player=player, changes=data.validated_data))


urlpatterns = [
    path("campaigns/<int:campaign_id>/players/me/notifications/", MyNotifications.as_view(),
         name="my-notifications"),
]
