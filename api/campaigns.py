"""API: campaigns and their players (API.md "Campaigns, map, standings")."""

from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers_map import ID_MAX
from campaigns.models import Campaign, Player, Round
from campaigns.selectors.campaigns import campaign_list, player_list, round_summary
from campaigns.services import campaigns as services


class CurrentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    phase = serializers.ChoiceField(Round.Phase.choices)
    phase_deadline = serializers.DateTimeField(allow_null=True)


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    visibility = serializers.ChoiceField(Campaign.Visibility.choices)
    status = serializers.ChoiceField(Campaign.Status.choices)
    current_round = serializers.SerializerMethodField(
        help_text="the campaign's highest-numbered round, null before the first")
    ruleset = serializers.DictField(help_text="the normalized ruleset (RULES.md Ruleset keys)")

    @extend_schema_field(CurrentRoundSerializer(allow_null=True))
    def get_current_round(self, campaign):
        current = round_summary(campaign)
        return None if current is None else CurrentRoundSerializer(current).data


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.DictField(required=False, allow_null=True,
                                    help_text="missing keys take their defaults")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices,
                                         default=Campaign.Visibility.PRIVATE)


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    ruleset = serializers.DictField(
        required=False, help_text="merged key by key into the current ruleset")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices, required=False)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    faction = serializers.CharField()
    colour = serializers.CharField()
    requisition = serializers.SerializerMethodField(
        help_text="only on the caller's own row and for the campaign admin; null otherwise")

    def get_requisition(self, player) -> int | None:
        viewer = self.context.get("viewer")
        shown = self.context.get("admin") or (viewer is not None and player.pk == viewer.pk)
        return player.requisition if shown else None


class PlayerAddSerializer(serializers.Serializer):
    user = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                    help_text="user id (or give `username`)")
    username = serializers.CharField(required=False, max_length=150)
    faction = serializers.CharField(max_length=80)
    colour = serializers.CharField(required=False, max_length=7, help_text="#rrggbb")

    def validate(self, data):
        if ("user" in data) == ("username" in data):
            raise serializers.ValidationError({"user": ["Give either `user` or `username`."]})
        return data


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
