"""API: a player's e-mail notification switches (one per kind, default on)."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.serializers.notifications import PreferencesSerializer, PreferencesStrict
from battles.services.notifications import preferences_of, preferences_update


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
