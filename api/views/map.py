"""API: the campaign map (API.md "Campaigns, map, standings"): GET the map, import a whole
map, and build it one object at a time (planets, tiles, links, areas, markers). Every write takes
the admin's optional ``reason`` (in the body; a DELETE as ``?reason=``), shown with the
correction in the audit log once the campaign runs."""

from django.http import HttpResponse
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, generics, mixins, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.parsers import SafeJSONParser
from api.serializers.common import query_reason, reason_parameter
from api.serializers.map import (
    AreaSerializer,
    MapImportSerializer,
    MapSerializer,
    MarkerSerializer,
    PlanetSerializer,
    TileLinkSerializer,
    TileSerializer,
)
from campaigns.cache import cached
from campaigns.models import Marker, Planet, Tile, TileLink
from campaigns.services import map as services
from fleets.models import Area
from fleets.services import areas
from league.selectors.map import current_map_document, map_document
from league.services.map_document import DocumentInvalid, map_import

TAGS = ["map"]


class MapScoped(CampaignScoped):
    """Map endpoints: readable by members (anyone for a public campaign), written by the
    campaign admin (R-SEC-2)."""

    parser_classes = [SafeJSONParser]


class MapView(MapScoped):
    """The map: planets with tiles and markers, tile links, areas and public fleet data."""

    @extend_schema(tags=TAGS, summary="The campaign map (R-MAP; fleets public fields only)",
                   responses={200: MapSerializer, **error_responses(404)})
    def get(self, request, campaign_id):
        renderer = request.accepted_renderer
        if type(renderer) is JSONRenderer and not renderer.get_indent(
                request.accepted_media_type, {}):
            # the same bytes for every reader of a map revision (public fields
            # only, R-FLT-7), rendered once as JSONRenderer renders the document below
            body = cached("api-map", self.campaign,
                          lambda: renderer.render(current_map_document(self.campaign)))
            return HttpResponse(body, content_type=renderer.media_type)
        return Response(current_map_document(self.campaign))


def _split_reason(data):
    """The import document and its optional ``reason`` (checked as the builders check it)."""
    if not isinstance(data, dict) or "reason" not in data:
        return data, ""
    document = {key: value for key, value in data.items() if key != "reason"}
    try:
        reason = MapImportSerializer().fields["reason"].run_validation(data["reason"])
    except exceptions.ValidationError as exc:
        raise exceptions.ValidationError({"reason": exc.detail}) from None
    return document, reason


class MapImport(MapScoped):
    """Replace the whole map from one document (campaign admin)."""

    @extend_schema(
        tags=TAGS, summary="Replace the whole map (before round 1 closes)",
        description="The document has the shape of GET /map/; its `id` values are local keys. "
                    "An invalid document is rejected whole, `errors` naming each offending "
                    "path (e.g. `planets[0].tiles[3].features[1]`).",
        request=MapImportSerializer,
        responses={201: MapSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        document, reason = _split_reason(request.data)
        try:
            map_import(campaign=self.campaign, document=document, actor=request.user,
                       reason=reason)
        except DocumentInvalid as exc:
            raise exceptions.ValidationError(exc.errors) from None
        return Response(map_document(self.campaign, request.user),
                        status=status.HTTP_201_CREATED)


# --- the builders: one kind of map object each, written through the map services ---
#
# A collection view only creates (POST); a detail view reads (GET), changes (PATCH, where the
# object can be changed) and deletes (DELETE). Writes check the campaign admin before anything
# else (401, 404 for a hidden campaign, 403), then the object of a detail (404), then the input
# (400); the services check the rules (400) and refuse to delete what is in use (409).

CREATE_ERRORS = error_responses(400, 401, 403, 404)
READ_ERRORS = error_responses(404)
CHANGE_ERRORS = error_responses(400, 401, 403, 404)
DELETE_ERRORS = error_responses(400, 401, 403, 404, 409)  # 400: a reason too long
DELETE_REASON = [reason_parameter()]


class DescriptionOnly(SimpleMetadata):
    """OPTIONS names and describes the view without listing the serializer's fields (they
    need the campaign, which may be hidden)."""

    def determine_actions(self, request, view):
        return {}


class MapObjectView(MapScoped, generics.GenericAPIView):
    # No docstring: each builder view has its own (the schema's description).
    metadata_class = DescriptionOnly

    def get_queryset(self):
        return super().get_queryset().filter(campaign=self.campaign)

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "campaign": self.campaign}


class MapObjectCreate(MapObjectView, generics.CreateAPIView):
    def post(self, request, *args, **kwargs):
        self.require_admin()
        return super().post(request, *args, **kwargs)


class MapObjectReadDelete(MapObjectView, generics.RetrieveDestroyAPIView):
    def delete(self, request, *args, **kwargs):
        self.require_admin()
        return super().delete(request, *args, **kwargs)


class MapObjectDetail(mixins.UpdateModelMixin, MapObjectReadDelete):
    def patch(self, request, *args, **kwargs):  # changes are partial: PATCH, no PUT
        self.require_admin()
        return self.partial_update(request, *args, **kwargs)


@extend_schema_view(post=extend_schema(
    tags=TAGS, summary="Create a planet", request=PlanetSerializer,
    responses={201: PlanetSerializer, **CREATE_ERRORS}))
class PlanetList(MapObjectCreate):
    """Create a planet of the campaign's map (campaign admin)."""

    serializer_class = PlanetSerializer

    def perform_create(self, serializer):
        serializer.instance = services.planet_create(campaign=self.campaign,
                                                     actor=self.request.user,
                                                     **serializer.validated_data)


@extend_schema_view(
    get=extend_schema(tags=TAGS, summary="One planet",
                      responses={200: PlanetSerializer, **READ_ERRORS}),
    patch=extend_schema(tags=TAGS, summary="Change a planet", request=PlanetSerializer,
                        responses={200: PlanetSerializer, **CHANGE_ERRORS}),
    delete=extend_schema(tags=TAGS, summary="Delete a planet", request=None,
                         parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS}))
class PlanetDetail(MapObjectDetail):
    """One planet of the campaign's map: read, change or delete it."""

    queryset = Planet.objects.all()
    serializer_class = PlanetSerializer

    def perform_update(self, serializer):
        serializer.instance = services.planet_update(planet=serializer.instance,
                                                     actor=self.request.user,
                                                     **serializer.validated_data)

    def perform_destroy(self, instance):
        services.planet_delete(planet=instance, actor=self.request.user,
                               reason=query_reason(self.request))


@extend_schema_view(post=extend_schema(
    tags=TAGS, summary="Create a tile", request=TileSerializer,
    responses={201: TileSerializer, **CREATE_ERRORS}))
class TileList(MapObjectCreate):
    """Create a tile of the campaign's map (campaign admin)."""

    serializer_class = TileSerializer

    def perform_create(self, serializer):
        serializer.instance = services.tile_create(campaign=self.campaign,
                                                   actor=self.request.user,
                                                   **serializer.validated_data)


@extend_schema_view(
    get=extend_schema(tags=TAGS, summary="One tile",
                      responses={200: TileSerializer, **READ_ERRORS}),
    patch=extend_schema(tags=TAGS, summary="Change a tile", request=TileSerializer,
                        responses={200: TileSerializer, **CHANGE_ERRORS}),
    delete=extend_schema(tags=TAGS, summary="Delete a tile", request=None,
                         parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS}))
class TileDetail(MapObjectDetail):
    """One tile of the campaign's map: read, change or delete it."""

    queryset = Tile.objects.all()
    serializer_class = TileSerializer

    def perform_update(self, serializer):
        serializer.instance = services.tile_update(tile=serializer.instance,
                                                   actor=self.request.user,
                                                   **serializer.validated_data)

    def perform_destroy(self, instance):
        services.tile_delete(tile=instance, actor=self.request.user,
                             reason=query_reason(self.request))


@extend_schema_view(post=extend_schema(
    tags=TAGS, summary="Create a link", request=TileLinkSerializer,
    responses={201: TileLinkSerializer, **CREATE_ERRORS}))
class LinkList(MapObjectCreate):
    """Create a link of the campaign's map (campaign admin)."""

    serializer_class = TileLinkSerializer

    def perform_create(self, serializer):
        serializer.instance = services.tile_link_create(campaign=self.campaign,
                                                        actor=self.request.user,
                                                        **serializer.validated_data)


@extend_schema_view(
    get=extend_schema(tags=TAGS, summary="One link",
                      responses={200: TileLinkSerializer, **READ_ERRORS}),
    delete=extend_schema(tags=TAGS, summary="Delete a link", request=None,
                         parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS}))
class LinkDetail(MapObjectReadDelete):
    """One link of the campaign's map: read, change or delete it."""

    queryset = TileLink.objects.all()
    serializer_class = TileLinkSerializer

    def perform_destroy(self, instance):
        services.tile_link_delete(link=instance, actor=self.request.user,
                                  reason=query_reason(self.request))


@extend_schema_view(post=extend_schema(
    tags=TAGS, summary="Create a area", request=AreaSerializer,
    responses={201: AreaSerializer, **CREATE_ERRORS}))
class AreaList(MapObjectCreate):
    """Create a area of the campaign's map (campaign admin)."""

    serializer_class = AreaSerializer

    def perform_create(self, serializer):
        serializer.instance = areas.area_create(campaign=self.campaign, actor=self.request.user,
                                                **serializer.validated_data)


@extend_schema_view(
    get=extend_schema(tags=TAGS, summary="One area",
                      responses={200: AreaSerializer, **READ_ERRORS}),
    patch=extend_schema(tags=TAGS, summary="Change a area", request=AreaSerializer,
                        responses={200: AreaSerializer, **CHANGE_ERRORS}),
    delete=extend_schema(tags=TAGS, summary="Delete a area", request=None,
                         parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS}))
class AreaDetail(MapObjectDetail):
    """One area of the campaign's map: read, change or delete it."""

    queryset = Area.objects.all()
    serializer_class = AreaSerializer

    def perform_update(self, serializer):
        serializer.instance = areas.area_update(area=serializer.instance,
                                                actor=self.request.user,
                                                **serializer.validated_data)

    def perform_destroy(self, instance):
        areas.area_delete(area=instance, actor=self.request.user,
                          reason=query_reason(self.request))


@extend_schema_view(post=extend_schema(
    tags=TAGS, summary="Create a marker", request=MarkerSerializer,
    responses={201: MarkerSerializer, **CREATE_ERRORS}))
class MarkerList(MapObjectCreate):
    """Create a marker of the campaign's map (campaign admin)."""

    serializer_class = MarkerSerializer

    def perform_create(self, serializer):
        serializer.instance = services.marker_create(campaign=self.campaign,
                                                     actor=self.request.user,
                                                     **serializer.validated_data)


@extend_schema_view(
    get=extend_schema(tags=TAGS, summary="One marker",
                      responses={200: MarkerSerializer, **READ_ERRORS}),
    patch=extend_schema(tags=TAGS, summary="Change a marker", request=MarkerSerializer,
                        responses={200: MarkerSerializer, **CHANGE_ERRORS}),
    delete=extend_schema(tags=TAGS, summary="Delete a marker", request=None,
                         parameters=DELETE_REASON, responses={204: None, **DELETE_ERRORS}))
class MarkerDetail(MapObjectDetail):
    """One marker of the campaign's map: read, change or delete it."""

    queryset = Marker.objects.select_related("type", "tile")
    serializer_class = MarkerSerializer

    def perform_update(self, serializer):
        serializer.instance = services.marker_update(marker=serializer.instance,
                                                     actor=self.request.user,
                                                     **serializer.validated_data)

    def perform_destroy(self, instance):
        services.marker_delete(marker=instance, actor=self.request.user,
                               reason=query_reason(self.request))


PREFIX = "campaigns/<int:campaign_id>/"
urlpatterns = [
    path(f"{PREFIX}map/", MapView.as_view(), name="map"),
    path(f"{PREFIX}map/import/", MapImport.as_view(), name="map-import"),
    path(f"{PREFIX}planets/", PlanetList.as_view(), name="planets-list"),
    path(f"{PREFIX}planets/<int:pk>/", PlanetDetail.as_view(), name="planets-detail"),
    path(f"{PREFIX}tiles/", TileList.as_view(), name="tiles-list"),
    path(f"{PREFIX}tiles/<int:pk>/", TileDetail.as_view(), name="tiles-detail"),
    path(f"{PREFIX}links/", LinkList.as_view(), name="links-list"),
    path(f"{PREFIX}links/<int:pk>/", LinkDetail.as_view(), name="links-detail"),
    path(f"{PREFIX}areas/", AreaList.as_view(), name="areas-list"),
    path(f"{PREFIX}areas/<int:pk>/", AreaDetail.as_view(), name="areas-detail"),
    path(f"{PREFIX}markers/", MarkerList.as_view(), name="markers-list"),
    path(f"{PREFIX}markers/<int:pk>/", MarkerDetail.as_view(), name="markers-detail"),
]
