"""API: invitations. The campaign admin lists, creates (by e-mail or as a link),
resends and revokes them; whoever holds a token sees its state and, logged in, accepts it;
a user lists the invitations addressed to their own e-mail address. An unusable link answers
410 with ``code`` revoked, expired or used_up."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import CampaignScoped, error_responses, validated
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.campaigns import PlayerSerializer
from api.serializers.invitations import (
    InvitationAcceptSerializer,
    InvitationEmailsSerializer,
    InvitationLinkCreateSerializer,
    InvitationLinkSerializer,
    InvitationPublicSerializer,
    InvitationsCreatedSerializer,
    InvitationSerializer,
    MyInvitationSerializer,
    public_data,
)
from campaigns.models import Invitation
from campaigns.selectors.invitations import (
    campaign_invitations,
    invitation_by_token,
    invitations_of_user,
)
from campaigns.services import invitations as services

THROTTLE = "invitations"  # settings REST_FRAMEWORK DEFAULT_THROTTLE_RATES


class InvitationList(CampaignScoped, GenericAPIView):
    """The campaign's invitations (campaign admin)."""

    pagination_class = Pagination
    parser_classes = [SafeJSONParser]
    serializer_class = InvitationSerializer
    throttle_scope = THROTTLE

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return campaign_invitations(self.campaign)

    @extend_schema(tags=["invitations"], summary="The campaign's invitations (campaign admin)",
                   responses={200: InvitationSerializer(many=True),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_admin()
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)

    @extend_schema(tags=["invitations"],
                   summary="Invite by e-mail, one or many addresses (campaign admin)",
                   request=InvitationEmailsSerializer,
                   responses={201: InvitationsCreatedSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = validated(InvitationEmailsSerializer, request.data)
        created = services.invitations_create(campaign=self.campaign, by=request.user, **data)
        return Response({"invitations": InvitationSerializer(created, many=True).data},
                        status=status.HTTP_201_CREATED)


class InvitationLinkCreate(CampaignScoped):
    """A link invitation (campaign admin); its token is in the answer once."""

    parser_classes = [SafeJSONParser]
    throttle_scope = THROTTLE

    @extend_schema(tags=["invitations"], summary="Create an invitation link (campaign admin)",
                   request=InvitationLinkCreateSerializer,
                   responses={201: InvitationLinkSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = validated(InvitationLinkCreateSerializer, request.data)
        invitation, token = services.invitation_link_create(campaign=self.campaign,
                                                            by=request.user, **data)
        body = {**InvitationSerializer(invitation).data, "token": token,
                "link": services.invitation_link(token)}
        return Response(body, status=status.HTTP_201_CREATED)


class _AdminInvitation(CampaignScoped):
    parser_classes = [SafeJSONParser]
    throttle_scope = THROTTLE

    def get_invitation(self) -> Invitation:
        self.require_admin()
        return get_object_or_404(Invitation, campaign=self.campaign,
                                 pk=self.kwargs["invitation_id"])


class InvitationResend(_AdminInvitation):
    @extend_schema(tags=["invitations"], request=None,
                   summary="Send an e-mail invitation again, with a fresh link (campaign admin)",
                   responses={200: InvitationSerializer,
                              **error_responses(401, 403, 404, 409, 410)})
    def post(self, request, campaign_id, invitation_id):
        invitation = services.invitation_resend(invitation=self.get_invitation(),
                                                by=request.user)
        return Response(InvitationSerializer(invitation).data)


class InvitationRevoke(_AdminInvitation):
    @extend_schema(tags=["invitations"], request=None,
                   summary="Revoke an invitation: its link stops working (campaign admin)",
                   responses={200: InvitationSerializer, **error_responses(401, 403, 404)})
    def post(self, request, campaign_id, invitation_id):
        invitation = services.invitation_revoke(invitation=self.get_invitation())
        return Response(InvitationSerializer(invitation).data)


class MyInvitations(APIView):
    """Invitations addressed to the caller's e-mail address, and only those."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(tags=["invitations"], summary="Invitations addressed to me",
                   responses={200: MyInvitationSerializer(many=True), **error_responses(401)})
    def get(self, request):
        rows = [public_data(inv) for inv in invitations_of_user(request.user)[:100]]
        return Response(MyInvitationSerializer(rows, many=True).data)


class InvitationByToken(APIView):
    """The invitation a token opens: anyone holding it sees its state; logged in, accepts."""

    permission_classes = [permissions.AllowAny]
    parser_classes = [SafeJSONParser]
    throttle_scope = THROTTLE

    def get_invitation(self) -> Invitation:
        invitation = invitation_by_token(self.kwargs["token"])
        if invitation is None:
            raise exceptions.NotFound(_("No such invitation."))
        return invitation

    @extend_schema(tags=["invitations"], summary="An invitation's state",
                   responses={200: InvitationPublicSerializer, **error_responses(401, 404)})
    def get(self, request, token):
        return Response(InvitationPublicSerializer(public_data(self.get_invitation())).data)

    @extend_schema(tags=["invitations"], summary="Accept an invitation: become a player",
                   request=InvitationAcceptSerializer,
                   responses={200: PlayerSerializer,
                              **error_responses(400, 401, 404, 409, 410)})
    def post(self, request, token):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        data = validated(InvitationAcceptSerializer, request.data)
        self.get_invitation()
        player = services.invitation_accept(token=token, user=request.user, **data)
        return Response(PlayerSerializer(player, context={"viewer": player}).data)


INVITATION = "campaigns/<int:campaign_id>/invitations/<int:invitation_id>/"
urlpatterns = [
    path("campaigns/<int:campaign_id>/invitations/", InvitationList.as_view(),
         name="invitation-list"),
    path("campaigns/<int:campaign_id>/invitations/links/", InvitationLinkCreate.as_view(),
         name="invitation-links"),
    path(INVITATION + "resend/", InvitationResend.as_view(), name="invitation-resend"),
    path(INVITATION + "revoke/", InvitationRevoke.as_view(), name="invitation-revoke"),
    path("invitations/", MyInvitations.as_view(), name="my-invitations"),
    path("invitations/<str:token>/", InvitationByToken.as_view(), name="invitation-detail"),
]
