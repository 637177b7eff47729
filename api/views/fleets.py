"""API: fleets, ships, movement and standing orders, transport, sea hazards, and the record of a
round's fleet phase (API.md "Fleets and naval battles"; R-FLT, R-SEA-2, R-FLT-7).

Checks run in the contract's order: 401, permission (403 for a member lacking the right, 404 for
what the caller may not see), phase (409), input and rules (400). Another player's fleet is
visible with its public fields only (R-FLT-7); its hidden fields never appear."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.pagination import Pagination
from api.parsers import SafeJSONParser
from api.serializers.common import page_of, query_reason, reason_parameter
from api.serializers.fleets import (
    DisembarkInput,
    EmbarkInput,
    FleetChangeInput,
    FleetInput,
    FleetPhaseSerializer,
    FleetSerializer,
    HazardChangeInput,
    HazardInput,
    HazardSerializer,
    OrderOutput,
    OrdersInput,
    ShipAddInput,
    ShipChangeInput,
    ShipSerializer,
    StandingOrdersInput,
)
from campaigns.models import Round
from campaigns.selectors.rounds import current_round
from fleets.models import Fleet, FleetPhase, SeaHazard, Ship
from fleets.selectors.fleets import campaign_fleets, fleet_views, ship_data, visible_hazards
from fleets.services import fleets as creation
from fleets.services import hazards, orders, ships

TAGS = ["fleets"]
PAGE = [OpenApiParameter("page", int), OpenApiParameter("page_size", int)]
DELETE_REASON = [reason_parameter()]  # the admin's optional reason for a correction
DELETE_ERRORS = error_responses(400, 401, 403, 404, 409)  # 400: a reason too long


class FleetScoped(CampaignScoped):
    parser_classes = [SafeJSONParser]

    def current_round(self) -> Round | None:
        return current_round(self.campaign)

    def get_fleet(self) -> Fleet:
        fleet = campaign_fleets(self.campaign).filter(pk=self.kwargs["fleet_id"]).first()
        if fleet is None:
            raise Http404
        return fleet

    def get_own_fleet(self):
        """401, 403 for a non-player, 404 for a missing fleet, 403 for another's fleet."""
        player = self.require_player()
        fleet = self.get_fleet()
        if fleet.owner_id != player.pk:
            raise exceptions.PermissionDenied(_("Only the fleet's owner may do this."))
        return player, fleet

    def get_ship(self, fleet: Fleet) -> Ship:
        return get_object_or_404(Ship, fleet=fleet, pk=self.kwargs["ship_id"])

    def view(self, fleet: Fleet) -> dict:
        return fleet_views([fleet], player=self.player, is_admin=self.is_admin,
                           rnd=self.current_round())[0]

    def validated(self, serializer_class, **context) -> dict:
        return validated(serializer_class, self.request.data, campaign=self.campaign, **context)


class FleetList(FleetScoped):
    @extend_schema(tags=TAGS, operation_id="v1_campaigns_fleets_list", parameters=PAGE,
                   summary="Fleets: all fields of own fleets, public fields of others (R-FLT-7)",
                   responses={200: page_of(FleetSerializer, "PaginatedFleetList"),
                              **error_responses(404)})
    def get(self, request, campaign_id):
        paginator = Pagination()
        page = paginator.paginate_queryset(campaign_fleets(self.campaign), request, self)
        return paginator.get_paginated_response(fleet_views(
            page, player=self.player, is_admin=self.is_admin, rnd=self.current_round()))

    @extend_schema(tags=TAGS, summary="Create a fleet with its ships (campaign admin)",
                   request=FleetInput,
                   responses={201: FleetSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        fleet = creation.fleet_create(campaign=self.campaign, actor=request.user,
                                      **self.validated(FleetInput))
        return Response(self.view(campaign_fleets(self.campaign).get(pk=fleet.pk)),
                        status=status.HTTP_201_CREATED)


class FleetDetail(FleetScoped):
    @extend_schema(tags=TAGS, summary="One fleet (public fields of another player's, R-FLT-7)",
                   responses={200: FleetSerializer, **error_responses(404)})
    def get(self, request, campaign_id, fleet_id):
        return Response(self.view(self.get_fleet()))

    @extend_schema(
        tags=TAGS, summary="Change a fleet: name, area, owner, kind, AF (campaign admin)",
        description="Any of the fields; a move is the admin's (no movement order, R-FLT-4). "
                    "In a running campaign a correction: 409 while the fleets phase is "
                    "resolved (R-RND-2), logged otherwise.",
        request=FleetChangeInput,
        responses={200: FleetSerializer, **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, fleet_id):
        self.require_admin()
        fleet = self.get_fleet()
        creation.fleet_update(fleet=fleet, actor=request.user,
                              **self.validated(FleetChangeInput))
        return Response(self.view(self.get_fleet()))

    @extend_schema(tags=TAGS, summary="Remove a fleet with its ships (campaign admin)",
                   request=None, parameters=DELETE_REASON,
                   responses={204: None, **DELETE_ERRORS})
    def delete(self, request, campaign_id, fleet_id):
        self.require_admin()
        creation.fleet_delete(fleet=self.get_fleet(), actor=request.user,
                              reason=query_reason(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FleetShips(FleetScoped):
    @extend_schema(tags=TAGS, summary="Add a ship at the end of the line (campaign admin)",
                   request=ShipAddInput,
                   responses={201: ShipSerializer, **error_responses(400, 401, 403, 404)})
    def post(self, request, campaign_id, fleet_id):
        self.require_admin()
        fleet = self.get_fleet()
        ship = creation.ship_create(fleet=fleet, actor=request.user,
                                    **self.validated(ShipAddInput))
        return Response(ship_data(ship), status=status.HTTP_201_CREATED)


class FleetShipDetail(FleetScoped):
    @extend_schema(
        tags=TAGS, summary="Change a ship's values (campaign admin; R-FLT-2, R-SPC-1)",
        description="Any of the fields; the whole ship is checked again (400 `R-FLT-2` or "
                    "`R-SPC-1`). 409 while the fleets phase is resolved (R-RND-2).",
        request=ShipChangeInput,
        responses={200: ShipSerializer, **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, fleet_id, ship_id):
        self.require_admin()
        ship = self.get_ship(self.get_fleet())
        ship = ships.ship_update(ship=ship, actor=request.user,
                                 **self.validated(ShipChangeInput))
        return Response(ship_data(ship))

    @extend_schema(tags=TAGS, summary="Remove a ship; the line closes up (campaign admin)",
                   request=None, parameters=DELETE_REASON,
                   responses={204: None, **DELETE_ERRORS})
    def delete(self, request, campaign_id, fleet_id, ship_id):
        self.require_admin()
        ships.ship_delete(ship=self.get_ship(self.get_fleet()), actor=request.user,
                          reason=query_reason(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FleetOrders(FleetScoped):
    @extend_schema(
        tags=TAGS, summary="Movement order for this round (owner, declare phase; R-FLT-4)",
        description="`path`: the areas to enter in order, the first adjacent to the fleet's "
                    "area (which is not repeated), no area twice, at most `max_fleet_moves`. "
                    "400 with code `R-FLT-4` if it is not a chain of adjacent areas; an empty "
                    "path withdraws the order.",
        request=OrdersInput,
        responses={200: OrderOutput, **error_responses(400, 401, 403, 404, 409)})
    def put(self, request, campaign_id, fleet_id):
        player, fleet = self.get_own_fleet()
        rnd = orders.require_declare(self.current_round(), _("Movement orders are given"))
        path_ids = self.validated(OrdersInput)["path"]
        order = orders.fleet_set_orders(player=player, fleet=fleet, path=path_ids)
        return Response({"fleet": fleet.pk, "round": rnd.number, "path": path_ids,
                         "given_at": order.given_at if order else None})


class FleetStandingOrders(FleetScoped):
    @extend_schema(
        tags=TAGS, summary="Standing orders (owner; R-FLT-5)",
        description="Any of `interception` (always | if_stronger | never), `benefits` (ordered "
                    "subset of a-d), `stance` (approach | hold | withdraw | auto) and `line` "
                    "(every ship id of the fleet, flagship first). 400 `R-FLT-5` if invalid; "
                    "409 while the fleets phase is resolved.",
        request=StandingOrdersInput,
        responses={200: FleetSerializer, **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, fleet_id):
        self.require_authenticated()
        fleet = self.get_fleet()
        player = self.player
        pirate_for_admin = fleet.owner_id is None and self.is_admin
        if not pirate_for_admin and (player is None or fleet.owner_id != player.pk):
            raise exceptions.PermissionDenied(_("Only the fleet's owner gives standing orders."))
        orders.require_not_resolving(self.current_round())
        changes = self.validated(StandingOrdersInput)
        orders.fleet_set_standing_orders(fleet=fleet, changes=dict(changes))
        return Response(self.view(self.get_fleet()))


class ShipEmbark(FleetScoped):
    @extend_schema(
        tags=TAGS, summary="Embark a detachment (owner, declare phase; R-FLT-8)",
        description="In a coastal or orbit area bordering one of your tiles, up to the ship's "
                    "capacity, at most `detachment_points` army points; raised at no cost. "
                    "400 `R-FLT-8` otherwise.",
        request=EmbarkInput,
        responses={200: ShipSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, fleet_id, ship_id):
        player, fleet = self.get_own_fleet()
        ship = self.get_ship(fleet)
        orders.require_declare(self.current_round(), _("Detachments embark"))
        data = self.validated(EmbarkInput)
        ship = orders.fleet_embark(player=player, fleet=fleet, ship=ship, **data)
        return Response(ship_data(ship))


class ShipDisembark(FleetScoped):
    @extend_schema(
        tags=TAGS, summary="Disembark a detachment; it disbands (owner, declare; R-FLT-8)",
        request=DisembarkInput,
        responses={200: ShipSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id, fleet_id, ship_id):
        player, fleet = self.get_own_fleet()
        ship = self.get_ship(fleet)
        orders.require_declare(self.current_round(), _("Detachments disembark"))
        data = self.validated(DisembarkInput)
        ship = orders.fleet_disembark(player=player, fleet=fleet, ship=ship, **data)
        return Response(ship_data(ship))


class HazardList(FleetScoped):
    @extend_schema(tags=TAGS, operation_id="v1_campaigns_hazards_list", parameters=PAGE,
                   summary="Sea hazards: own and triggered ones; all for the admin (R-SEA-2)",
                   responses={200: page_of(HazardSerializer, "PaginatedHazardList"),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_member()
        hazards = visible_hazards(self.campaign, player=self.player, is_admin=self.is_admin)
        paginator = Pagination()
        page = paginator.paginate_queryset(hazards, request, self)
        return paginator.get_paginated_response(HazardSerializer(page, many=True).data)

    @extend_schema(
        tags=TAGS, summary="Place a hidden sea hazard (admin anywhere; an island's owner there)",
        description="The campaign admin places a hazard in any area (optionally owned by the "
                    "island's owner). A player places one in an island area it owns, in the "
                    "declare phase (400 `R-SEA-2` otherwise).",
        request=HazardInput,
        responses={201: HazardSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_authenticated()
        if self.is_admin:
            hazard = creation.hazard_create(campaign=self.campaign, actor=request.user,
                                            **self.validated(HazardInput))
        else:
            player = self.require_player()
            orders.require_declare(self.current_round(), _("Hazards are placed"))
            data = self.validated(HazardInput)
            data.pop("owner", None)
            data.pop("reason", None)  # a player's placing is no correction
            hazard = creation.hazard_place(player=player, **data)
        return Response(HazardSerializer(hazard).data, status=status.HTTP_201_CREATED)


class HazardDetail(FleetScoped):
    def get_hazard(self) -> SeaHazard:
        hazards = visible_hazards(self.campaign, player=self.player, is_admin=self.is_admin)
        return get_object_or_404(hazards, pk=self.kwargs["hazard_id"])

    @extend_schema(tags=TAGS, summary="One sea hazard (as the list)",
                   responses={200: HazardSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, hazard_id):
        self.require_member()
        return Response(HazardSerializer(self.get_hazard()).data)

    @extend_schema(tags=TAGS, summary="Change a sea hazard (campaign admin; R-SEA-2)",
                   description="Any of the fields; values within the ship bounds of R-FLT-2. "
                               "409 while the fleets phase is resolved (R-RND-2).",
                   request=HazardChangeInput,
                   responses={200: HazardSerializer,
                              **error_responses(400, 401, 403, 404, 409)})
    def patch(self, request, campaign_id, hazard_id):
        self.require_member()
        hazard = self.get_hazard()
        self.require_admin()
        hazard = hazards.hazard_update(hazard=hazard, actor=request.user,
                                       **self.validated(HazardChangeInput))
        return Response(HazardSerializer(hazard).data)

    @extend_schema(tags=TAGS, summary="Remove a sea hazard (campaign admin)", request=None,
                   parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS})
    def delete(self, request, campaign_id, hazard_id):
        self.require_member()
        hazard = self.get_hazard()
        self.require_admin()
        creation.hazard_delete(hazard=hazard, actor=request.user, reason=query_reason(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FleetPhaseRecord(FleetScoped):
    @extend_schema(tags=TAGS, summary="The round's fleet phase record (campaign admin)",
                   description="The players' order drawn (R-FLT-6), every movement, "
                               "interception, hazard, battle and conquest event, and the dice "
                               "range in the round's log. 404 until the phase is resolved.",
                   responses={200: FleetPhaseSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, number):
        self.require_admin()
        record = get_object_or_404(FleetPhase.objects.select_related("round"),
                                   round__campaign=self.campaign, round__number=number)
        return Response(FleetPhaseSerializer(record).data)


FLEETS = "campaigns/<int:campaign_id>/fleets/"
FLEET = FLEETS + "<int:fleet_id>/"
urlpatterns = [
    path(FLEETS, FleetList.as_view(), name="fleet-list"),
    path(FLEET, FleetDetail.as_view(), name="fleet-detail"),
    path(FLEET + "ships/", FleetShips.as_view(), name="fleet-ships"),
    path(FLEET + "ships/<int:ship_id>/", FleetShipDetail.as_view(), name="fleet-ship-detail"),
    path(FLEET + "orders/", FleetOrders.as_view(), name="fleet-orders"),
    path(FLEET + "standing-orders/", FleetStandingOrders.as_view(), name="fleet-standing-orders"),
    path(FLEET + "ships/<int:ship_id>/embark/", ShipEmbark.as_view(), name="ship-embark"),
    path(FLEET + "ships/<int:ship_id>/disembark/", ShipDisembark.as_view(), name="ship-disembark"),
    path("campaigns/<int:campaign_id>/hazards/", HazardList.as_view(), name="hazard-list"),
    path("campaigns/<int:campaign_id>/hazards/<int:hazard_id>/", HazardDetail.as_view(),
         name="hazard-detail"),
    path("campaigns/<int:campaign_id>/rounds/<int:number>/fleet-phase/",
         FleetPhaseRecord.as_view(), name="fleet-phase"),
]
