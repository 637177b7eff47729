"""API: the map history: the map as it stood when a round closed and what
changed in that round. Readable by whoever may read the map (members, anyone if public)."""

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from api.base import RoundScoped, error_responses
from api.serializers.map_history import RoundMapSerializer
from campaigns.errors import Conflict
from league.selectors.map_history import round_map_history


class RoundMapView(RoundScoped):
    @extend_schema(tags=["map"], summary="The map as it stood when round n closed",
                   responses={200: RoundMapSerializer, **error_responses(404, 409)})
    def get(self, request, campaign_id, number):
        """Tile owners and markers, fleets' public positions (R-FLT-7) and what changed in
        the round; 409 `round_open` until the round closes."""
        rnd = self.get_round()
        history = round_map_history(self.campaign, rnd.number)
        if history is None:
            raise Conflict(_("The map of a round is recorded when it closes."), code="round_open")
        return Response(RoundMapSerializer(history).data)


urlpatterns = [
    path("campaigns/<int:campaign_id>/rounds/<int:number>/map/", RoundMapView.as_view(),
         name="round-map"),
]
