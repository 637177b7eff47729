"""API: campaigns and their players (API.md "Campaigns, map, standings")."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.campaigns import (
    CampaignCreateSerializer,
    CampaignSerializer,
    CampaignUpdateSerializer,
    PlayerAddSerializer,
    PlayerSerializer,
)
from campaigns.models import Player
from campaigns.selectors.campaigns import campaign_list, player_list
from campaigns.services import campaigns as services


def _validated(serializer_class, data, **kwargs) -> dict:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class CampaignList(GenericAPIView):
    """Campaigns: public ones for anyone, plus the caller's own; staff users create them."""

    pagination_class = Pagination
    parser_classes = [SafeJSONParser]
    serializer_class = CampaignSerializer

    def get_queryset(self):
        return campaign_list(self.request.user)

    @extend_schema(tags=["campaigns"], summary="Public campaigns and the caller's own",
                   responses={200: CampaignSerializer(many=True), **error_responses(404)})
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(CampaignSerializer(page, many=True).data)

    @extend_schema(tags=["campaigns"], summary="Create a campaign (staff users)",
                   request=CampaignCreateSerializer,
                   responses={201: CampaignSerializer, **error_responses(400, 401, 403)})
    def post(self, request):
        if not (request.user.is_staff or request.user.is_superuser):
            raise exceptions.PermissionDenied("Only staff users create campaigns.")
        data = _validated(CampaignCreateSerializer, request.data)
        campaign = services.campaign_create(creator=request.user, **data)
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetail(CampaignScoped):
    """A campaign (members, or anyone if public); its admin edits it."""

    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="One campaign",
                   responses={200: CampaignSerializer, **error_responses(404)})
    def get(self, request, campaign_id):
        return Response(CampaignSerializer(self.campaign).data)

    @extend_schema(tags=["campaigns"], summary="Edit name, ruleset, visibility (campaign admin)",
                   request=CampaignUpdateSerializer,
                   responses={200: CampaignSerializer, **error_responses(400, 401, 403, 404)})
    def patch(self, request, campaign_id):
        self.require_admin()
        data = _validated(CampaignUpdateSerializer, request.data)
        campaign = services.campaign_update(campaign=self.campaign, **data)
        return Response(CampaignSerializer(campaign).data)


class PlayerList(CampaignScoped, GenericAPIView):
    """The players; requisition shows only on the caller's own row (the admin sees all)."""

    pagination_class = Pagination
    parser_classes = [SafeJSONParser]
    serializer_class = PlayerSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation has no campaign
            return Player.objects.none()
        return player_list(self.campaign)

    def get_serializer_context(self):
        return {"viewer": self.player, "admin": self.is_admin}

    @extend_schema(tags=["campaigns"], summary="The campaign's players",
                   responses={200: PlayerSerializer(many=True), **error_responses(404)})
    def get(self, request, campaign_id):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(tags=["campaigns"], summary="Add a player (campaign admin)",
                   request=PlayerAddSerializer,
                   responses={201: PlayerSerializer, **error_responses(400, 401, 403, 404)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = _validated(PlayerAddSerializer, request.data)
        player = services.player_add(campaign=self.campaign, **data)
        return Response(self.get_serializer(player).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("campaigns/", CampaignList.as_view(), name="campaign-list"),
    path("campaigns/<int:campaign_id>/", CampaignDetail.as_view(), name="campaign-detail"),
    path("campaigns/<int:campaign_id>/players/", PlayerList.as_view(), name="player-list"),
]
