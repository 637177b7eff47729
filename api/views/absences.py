"""API: absences (R-RND-3). Members list everyone's dates (notes only their
own, admins all); a player adds and withdraws their own, a campaign admin anyone's."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import CampaignScoped, campaign_advance_if_ready, error_responses, validated
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.absences import AbsenceAddSerializer, AbsenceSerializer
from api.serializers.common import page_of
from api.views.attacks import PAGE
from campaigns.models import Absence
from campaigns.selectors.absences import campaign_absences
from campaigns.services import absences as services


class _Absences(CampaignScoped):
    parser_classes = [SafeJSONParser]

    def shown(self, absence_or_page, **kwargs):
        context = {"user": self.request.user, "is_admin": self.is_admin}
        return AbsenceSerializer(absence_or_page, context=context, **kwargs).data


class AbsenceList(_Absences):
    """Who is away when: every absence of the campaign's players."""

    @extend_schema(tags=["campaigns"], summary="Absences (members; notes own or admin)",
                   operation_id="v1_campaigns_absences_list", parameters=PAGE,
                   responses={200: page_of(AbsenceSerializer, "PaginatedAbsenceList"),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_member()
        paginator = Pagination()
        page = paginator.paginate_queryset(campaign_absences(self.campaign), request, self)
        return paginator.get_paginated_response(self.shown(page, many=True))

    @extend_schema(tags=["campaigns"],
                   summary="Mark days away (own; a campaign admin may give `player`)",
                   request=AbsenceAddSerializer,
                   responses={201: AbsenceSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_member()
        data = validated(AbsenceAddSerializer, request.data, campaign=self.campaign)
        player = data.get("player") or self.player
        if player is None:
            raise exceptions.ValidationError(
                {"player": ["Name the player who is away (you hold no seat here)."]})
        absence = services.absence_add(player=player, by=request.user,
                                       starts_on=data["starts_on"], ends_on=data["ends_on"],
                                       note=data["note"], now=timezone.now())
        campaign_advance_if_ready(self.campaign.pk)  # an away player is ready (R-RND-2)
        return Response(self.shown(absence), status=status.HTTP_201_CREATED)


class AbsenceDetail(_Absences):
    """One absence of the campaign (404 for another campaign's)."""

    @extend_schema(tags=["campaigns"],
                   summary="Withdraw an absence (a current one ends yesterday; past ones stay)",
                   request=None,
                   responses={200: AbsenceSerializer, 204: None,
                              **error_responses(401, 403, 404, 409)})
    def delete(self, request, campaign_id, absence_id):
        self.require_member()
        absence = get_object_or_404(Absence.objects.select_related("player__campaign"),
                                    pk=absence_id, player__campaign=self.campaign)
        cut = services.absence_delete(absence=absence, by=request.user, now=timezone.now())
        if cut is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(self.shown(cut))


urlpatterns = [
    path("campaigns/<int:campaign_id>/absences/", AbsenceList.as_view(), name="absence-list"),
    path("campaigns/<int:campaign_id>/absences/<int:absence_id>/", AbsenceDetail.as_view(),
         name="absence-detail"),
]
