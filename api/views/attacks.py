"""API: attack army purchases and attack declarations (R-ECO-1, R-ATK; API.md "Rounds,
declarations, conquest"). Checks run in the contract's order: 401, permission (403/404), phase
(409), input and rules (400)."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import RoundScoped, error_responses
from api.pagination import Pagination
from api.serializers.attacks import AttackInput, AttackOutput, PurchaseInput, PurchaseOutput
from api.serializers.common import page_of
from battles.selectors.attacks import army_balance, visible_attacks
from battles.services.attacks import (
    attack_declare,
    attack_withdraw,
    purchase_create,
    require_declare,
)
from campaigns.models import Attack

PAGE = [OpenApiParameter("page", int), OpenApiParameter("page_size", int)]


class Purchases(RoundScoped):
    @extend_schema(request=PurchaseInput,
                   responses={201: PurchaseOutput, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, number):
        """Buy attack armies in the declare phase (R-ECO-1); 400 ``R-ECO-1`` if requisition is
        short."""
        player = self.require_player()
        rnd = self.get_round()
        require_declare(rnd)
        data = PurchaseInput(data=request.data)
        data.is_valid(raise_exception=True)
        purchase = purchase_create(player=player, round=rnd,
                                   attack_armies=data.validated_data["attack_armies"])
        for key, value in army_balance(rnd, player).items():
            setattr(purchase, key, value)
        return Response(PurchaseOutput(purchase).data, status=status.HTTP_201_CREATED)


class Attacks(RoundScoped):
    @extend_schema(operation_id="v1_campaigns_rounds_attacks_list", parameters=PAGE,
                   responses={200: page_of(AttackOutput, "PaginatedAttackList"),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, number):
        """Declarations: a player sees its own during declare, the admin all; once declare
        ended, every member sees all."""
        self.require_member()
        attacks = visible_attacks(self.get_round(), player=self.player, is_admin=self.is_admin)
        paginator = Pagination()
        page = paginator.paginate_queryset(attacks, request, self)
        return paginator.get_paginated_response(AttackOutput(page, many=True).data)

    @extend_schema(request=AttackInput,
                   responses={201: AttackOutput, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, number):
        """Declare an attack (R-ATK-1..3); 400 with the broken rule's id as ``code`` (R-ATK-6)."""
        player = self.require_player()
        rnd = self.get_round()
        require_declare(rnd)
        data = AttackInput(data=request.data, campaign=self.campaign)
        data.is_valid(raise_exception=True)
        attack = attack_declare(player=player, round=rnd, tile=data.validated_data["tile"])
        return Response(AttackOutput(attack).data, status=status.HTTP_201_CREATED)


class AttackDetail(RoundScoped):
    def get_attack(self) -> Attack:
        """The declaration if the caller may see it (else 404, R-SEC-2)."""
        attacks = visible_attacks(self.get_round(), player=self.player, is_admin=self.is_admin)
        return get_object_or_404(attacks, pk=self.kwargs["attack_id"])

    @extend_schema(responses={200: AttackOutput, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, number, attack_id):
        """One declaration, with the visibility of the list."""
        self.require_member()
        return Response(AttackOutput(self.get_attack()).data)

    @extend_schema(responses={204: None, **error_responses(401, 403, 404, 409)})
    def delete(self, request, campaign_id, number, attack_id):
        """Withdraw a declaration during declare (R-ATK-5); its army stays spent."""
        player = self.require_player()
        attack = self.get_attack()
        if attack.player_id != player.pk:
            raise exceptions.PermissionDenied(_("Only the declaring player may withdraw it."))
        attack_withdraw(player=player, attack=attack)
        return Response(status=status.HTTP_204_NO_CONTENT)


ROUND = "campaigns/<int:campaign_id>/rounds/<int:number>/"
urlpatterns = [
    path(ROUND + "purchases/", Purchases.as_view(), name="purchases"),
    path(ROUND + "attacks/", Attacks.as_view(), name="attack-list"),
    path(ROUND + "attacks/<int:attack_id>/", AttackDetail.as_view(), name="attack-detail"),
]
