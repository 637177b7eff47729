"""API: join requests. On a public campaign that takes them, a logged-in user asks
to join; the campaign admin lists them and accepts (faction, colour) or declines. A user who
is not the admin sees only their own requests."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.campaigns import PlayerSerializer
from api.serializers.join_requests import (
    JoinRequestAcceptSerializer,
    JoinRequestCreateSerializer,
    JoinRequestSerializer,
)
from campaigns.models import JoinRequest
from campaigns.selectors.invitations import campaign_join_requests
from campaigns.services import invitations as services

THROTTLE = "invitations"


class JoinRequestList(CampaignScoped, GenericAPIView):
    """Join requests: the campaign admin sees all, anyone else their own."""

    pagination_class = Pagination
    parser_classes = [SafeJSONParser]
    serializer_class = JoinRequestSerializer
    throttle_scope = THROTTLE

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return JoinRequest.objects.none()
        requests = campaign_join_requests(self.campaign)
        return requests if self.is_admin else requests.filter(user=self.request.user)

    @extend_schema(tags=["join requests"], summary="Join requests (all for the admin, else "
                                                   "the caller's own)",
                   responses={200: JoinRequestSerializer(many=True),
                              **error_responses(401, 404)})
    def get(self, request, campaign_id):
        self.require_authenticated()
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(JoinRequestSerializer(page, many=True).data)

    @extend_schema(tags=["join requests"], summary="Ask to join the campaign",
                   request=JoinRequestCreateSerializer,
                   responses={201: JoinRequestSerializer, **error_responses(400, 401, 404, 409)})
    def post(self, request, campaign_id):
        self.require_authenticated()
        data = validated(JoinRequestCreateSerializer, request.data)
        join_request = services.join_request_create(campaign=self.campaign, user=request.user,
                                                    **data)
        return Response(JoinRequestSerializer(join_request).data,
                        status=status.HTTP_201_CREATED)


class _Decision(CampaignScoped):
    parser_classes = [SafeJSONParser]
    throttle_scope = THROTTLE

    def get_request(self) -> JoinRequest:
        self.require_admin()
        return get_object_or_404(JoinRequest, campaign=self.campaign,
                                 pk=self.kwargs["request_id"])


class JoinRequestAccept(_Decision):
    @extend_schema(tags=["join requests"], summary="Accept: the user is a player (admin)",
                   request=JoinRequestAcceptSerializer,
                   responses={200: PlayerSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, request_id):
        join_request = self.get_request()
        data = validated(JoinRequestAcceptSerializer, request.data)
        player = services.join_request_accept(join_request=join_request, by=request.user,
                                              **data)
        return Response(PlayerSerializer(player, context={"admin": True}).data)


class JoinRequestDecline(_Decision):
    @extend_schema(tags=["join requests"], summary="Decline a join request (admin)",
                   request=None,
                   responses={200: JoinRequestSerializer, **error_responses(401, 403, 404, 409)})
    def post(self, request, campaign_id, request_id):
        join_request = services.join_request_decline(join_request=self.get_request(),
                                                     by=request.user)
        return Response(JoinRequestSerializer(join_request).data)


REQUEST = "campaigns/<int:campaign_id>/join-requests/<int:request_id>/"
urlpatterns = [
    path("campaigns/<int:campaign_id>/join-requests/", JoinRequestList.as_view(),
         name="join-request-list"),
    path(REQUEST + "accept/", JoinRequestAccept.as_view(), name="join-request-accept"),
    path(REQUEST + "decline/", JoinRequestDecline.as_view(), name="join-request-decline"),
]
