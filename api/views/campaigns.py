"""API: campaigns and their players (API.md "Campaigns, map, standings")."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from api.base import CampaignScoped, campaign_advance_if_ready, error_responses, validated
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.campaigns import (
    CampaignCreateSerializer,
    CampaignSerializer,
    CampaignUpdateSerializer,
    PlayerAddSerializer,
    PlayerDetailSerializer,
    PlayerReplaceSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
)
from api.serializers.invitations import InvitationSerializer
from campaigns.models import Campaign, Player
from campaigns.selectors.campaigns import campaign_list, player_list, with_current_round
from campaigns.services import campaigns as services
from campaigns.services import invitations as invitation_services
from campaigns.services import players as player_services


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
            raise exceptions.PermissionDenied(_("Only staff users create campaigns."))
        data = _validated(CampaignCreateSerializer, request.data)
        campaign = services.campaign_create(creator=request.user, **data)
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetail(CampaignScoped):
    """A campaign (members, or anyone if public); its admin edits it."""

    campaign_rows = with_current_round(Campaign.objects.all())  # one query
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
        campaign = services.campaign_update(campaign=self.campaign, actor=request.user, **data)
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
        player = services.player_add(campaign=self.campaign, actor=request.user, **data)
        return Response(self.get_serializer(player).data, status=status.HTTP_201_CREATED)


class PlayerScoped(CampaignScoped):
    """One player (seat) of a campaign the caller may see; 404 for another campaign's."""

    parser_classes = [SafeJSONParser]

    def get_player(self) -> Player:
        return get_object_or_404(Player.objects.select_related("user__profile", "campaign"),
                                 campaign=self.campaign, pk=self.kwargs["player_id"])

    def answer(self, player: Player, code: int = status.HTTP_200_OK) -> Response:
        context = {"viewer": self.player, "admin": self.is_admin}
        return Response(PlayerDetailSerializer(player, context=context).data, status=code)


class PlayerDetail(PlayerScoped):
    """A player (seat) with its holders; the campaign admin edits or removes it."""

    @extend_schema(tags=["campaigns"], summary="One player and who held the seat",
                   responses={200: PlayerDetailSerializer, **error_responses(404)})
    def get(self, request, campaign_id, player_id):
        return self.answer(self.get_player())

    @extend_schema(tags=["campaigns"],
                   summary="Edit a player's faction and colour (campaign admin; a logged "
                           "correction once the campaign runs)",
                   request=PlayerUpdateSerializer,
                   responses={200: PlayerDetailSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, player_id):
        self.require_admin()
        data = validated(PlayerUpdateSerializer, request.data)
        player = player_services.player_update(player=self.get_player(), actor=request.user,
                                               **data)
        return self.answer(player)

    @extend_schema(tags=["campaigns"],
                   summary="Remove a player before the campaign starts (campaign admin)",
                   request=None, responses={204: None, **error_responses(401, 403, 404, 409)})
    def delete(self, request, campaign_id, player_id):
        self.require_admin()
        player_services.player_remove(player=self.get_player(), actor=request.user)
        campaign_advance_if_ready(self.campaign.pk)  # R-RND-2: re-check at once
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerReplace(PlayerScoped):
    """Another person takes over the seat: an existing account at once, or whoever accepts a
    seat invitation mailed to an address. Tiles, fleets, requisition, battles,
    lists and notification preferences stay with the seat."""

    @extend_schema(
        tags=["campaigns"], summary="Replace a player (campaign admin)",
        request=PlayerReplaceSerializer,
        responses={200: OpenApiResponse(PlayerDetailSerializer,
                                        description="`account`: the seat passed"),
                   201: OpenApiResponse(inline_serializer("SeatInvitationCreated", {
                       "invitation": InvitationSerializer()}),
                       description="`email`: a seat invitation was mailed"),
                   **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, player_id):
        self.require_admin()
        data = validated(PlayerReplaceSerializer, request.data)
        player = self.get_player()
        if "account" in data:
            player = player_services.player_replace(player=player, actor=request.user,
                                                    account=data["account"])
            campaign_advance_if_ready(self.campaign.pk)  # R-RND-2: re-check at once
            return self.answer(player)
        invitation = invitation_services.seat_invitation_create(
            player=player, by=request.user, email=data["email"],
            expires_at=data.get("expires_at"))
        return Response({"invitation": InvitationSerializer(invitation).data},
                        status=status.HTTP_201_CREATED)


urlpatterns = [
    path("campaigns/", CampaignList.as_view(), name="campaign-list"),
    path("campaigns/<int:campaign_id>/", CampaignDetail.as_view(), name="campaign-detail"),
    path("campaigns/<int:campaign_id>/players/", PlayerList.as_view(), name="player-list"),
    path("campaigns/<int:campaign_id>/players/<int:player_id>/", PlayerDetail.as_view(),
         name="player-detail"),
    path("campaigns/<int:campaign_id>/players/<int:player_id>/replace/",
         PlayerReplace.as_view(), name="player-replace"),
]
