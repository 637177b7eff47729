"""API: a campaign's admins (nothing needs the Django admin). Campaign
admins only: list, name one by account, remove one; the last admin stays."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.parsers import SafeJSONParser
from api.serializers.admins import AdminAddSerializer, AdminSerializer
from campaigns.services import admins as services


class AdminList(CampaignScoped):
    """The campaign's admins; an admin names another by username or e-mail address."""

    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"], summary="The campaign's admins (campaign admin)",
                   responses={200: AdminSerializer(many=True),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_admin()
        admins = self.campaign.admins.select_related("profile").order_by("username", "pk")
        return Response(AdminSerializer(admins, many=True).data)

    @extend_schema(tags=["campaigns"], summary="Name an admin (campaign admin)",
                   request=AdminAddSerializer,
                   responses={201: AdminSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = validated(AdminAddSerializer, request.data)
        user = services.admin_add(campaign=self.campaign, by=request.user,
                                  account=data["account"])
        return Response(AdminSerializer(user).data, status=status.HTTP_201_CREATED)


class AdminDetail(CampaignScoped):
    """One admin of the campaign (404 for anyone else)."""

    parser_classes = [SafeJSONParser]

    @extend_schema(tags=["campaigns"],
                   summary="Remove an admin (campaign admin; the last admin stays)",
                   request=None, responses={204: None, **error_responses(401, 403, 404, 409)})
    def delete(self, request, campaign_id, user_id):
        self.require_admin()
        user = get_object_or_404(get_user_model(), pk=user_id, administered=self.campaign)
        services.admin_remove(campaign=self.campaign, by=request.user, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("campaigns/<int:campaign_id>/admins/", AdminList.as_view(), name="admin-list"),
    path("campaigns/<int:campaign_id>/admins/<int:user_id>/", AdminDetail.as_view(),
         name="admin-detail"),
]
