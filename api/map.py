"""API: the campaign map (API.md "Campaigns, map, standings"): GET the map, import a whole
map, and build it one object at a time (planets, tiles, links, areas, markers)."""

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses
from api.parsers import SafeJSONParser
from api.serializers_map import (
    AreaSerializer,
    MapImportSerializer,
    MapSerializer,
    MarkerSerializer,
    PlanetSerializer,
    TileLinkSerializer,
    TileSerializer,
)
from campaigns.models import Marker, Planet, Tile, TileLink
from campaigns.services import map as services
from fleets.models import Area
from fleets.services import areas
from league.selectors.map import map_document
from league.services.map_document import DocumentInvalid, map_import


class MapScoped(CampaignScoped):
    """Map endpoints: readable by members (anyone for a public campaign), written by the
    campaign admin (R-SEC-2)."""

    parser_classes = [SafeJSONParser]


class MapView(MapScoped):
    """The map: planets with tiles and markers, tile links, areas and public fleet data."""

    @extend_schema(tags=["map"], summary="The campaign map (R-MAP; fleets public fields only)",
                   responses={200: MapSerializer, **error_responses(404)})
    def get(self, request, campaign_id):
        return Response(map_document(self.campaign, request.user))


class MapImport(MapScoped):
    """Replace the whole map from one document (campaign admin)."""

    @extend_schema(
        tags=["map"], summary="Replace the whole map (before round 1 closes)",
        description="The document has the shape of GET /map/; its `id` values are local keys. "
                    "An invalid document is rejected whole, `errors` naming each offending "
                    "path (e.g. `planets[0].tiles[3].features[1]`).",
        request=MapImportSerializer,
        responses={201: MapSerializer, **error_responses(400, 401, 403, 404, 409)})
    def post(self, request, campaign_id):
        self.require_admin()
        try:
            map_import(campaign=self.campaign, document=request.data)
        except DocumentInvalid as exc:
            raise exceptions.ValidationError(exc.errors) from None
        return Response(map_document(self.campaign, request.user),
                        status=status.HTTP_201_CREATED)


def _builder(noun: str, model, serializer_class, *, create, update=None, delete,
             related=()):
    """The collection (POST) and detail (GET, PATCH, DELETE) views of one kind of map object;
    writes go to the services, keyed by ``noun``."""
    tags = ["map"]

    class Builder(MapScoped):
        def serializer(self, *args, **kwargs):
            return serializer_class(*args, context={"campaign": self.campaign,
                                                    "request": self.request}, **kwargs)

        def validated(self, partial: bool = False) -> dict:
            serializer = self.serializer(data=self.request.data, partial=partial)
            serializer.is_valid(raise_exception=True)
            return serializer.validated_data

        def get_object(self):
            found = (model.objects.filter(campaign=self.campaign, pk=self.kwargs["pk"])
                     .select_related(*related).first())
            if found is None:
                raise Http404
            return found

    class Collection(Builder):
        __doc__ = f"Create a {noun} of the campaign's map (campaign admin)."

        @extend_schema(tags=tags, summary=f"Create a {noun}", request=serializer_class,
                       responses={201: serializer_class, **error_responses(400, 401, 403, 404)})
        def post(self, request, campaign_id):
            self.require_admin()
            created = create(campaign=self.campaign, **self.validated())
            return Response(self.serializer(created).data, status=status.HTTP_201_CREATED)

    class Detail(Builder):
        __doc__ = f"One {noun} of the campaign's map: read, change or delete it."

        @extend_schema(tags=tags, summary=f"One {noun}",
                       responses={200: serializer_class, **error_responses(404)})
        def get(self, request, campaign_id, pk):
            return Response(self.serializer(self.get_object()).data)

        @extend_schema(tags=tags, summary=f"Delete a {noun}", request=None,
                       responses={204: None, **error_responses(401, 403, 404, 409)})
        def delete(self, request, campaign_id, pk):
            self.require_admin()
            delete(**{noun: self.get_object()})
            return Response(status=status.HTTP_204_NO_CONTENT)

    if update is not None:
        @extend_schema(tags=tags, summary=f"Change a {noun}", request=serializer_class,
                       responses={200: serializer_class, **error_responses(400, 401, 403, 404)})
        def patch(self, request, campaign_id, pk):
            self.require_admin()
            obj = self.get_object()
            changed = update(**{noun: obj}, **self.validated(partial=True))
            return Response(self.serializer(changed).data)

        Detail.patch = patch

    name = noun.title().replace("_", "")
    Collection.__name__ = Collection.__qualname__ = f"{name}List"
    Detail.__name__ = Detail.__qualname__ = f"{name}Detail"
    return Collection, Detail


PlanetList, PlanetDetail = _builder(
    "planet", Planet, PlanetSerializer, create=services.planet_create,
    update=services.planet_update, delete=services.planet_delete)
TileList, TileDetail = _builder(
    "tile", Tile, TileSerializer, create=services.tile_create, update=services.tile_update,
    delete=services.tile_delete)
LinkList, LinkDetail = _builder(
    "link", TileLink, TileLinkSerializer, create=services.tile_link_create,
    delete=services.tile_link_delete)
AreaList, AreaDetail = _builder(
    "area", Area, AreaSerializer, create=areas.area_create, update=areas.area_update,
    delete=areas.area_delete)
MarkerList, MarkerDetail = _builder(
    "marker", Marker, MarkerSerializer, create=services.marker_create,
    update=services.marker_update, delete=services.marker_delete, related=("type", "tile"))

_PREFIX = "campaigns/<int:campaign_id>/"
urlpatterns = [
    path(f"{_PREFIX}map/", MapView.as_view(), name="map"),
    path(f"{_PREFIX}map/import/", MapImport.as_view(), name="map-import"),
]
for _plural, _collection, _detail in (("planets", PlanetList, PlanetDetail),
                                      ("tiles", TileList, TileDetail),
                                      ("links", LinkList, LinkDetail),
                                      ("areas", AreaList, AreaDetail),
                                      ("markers", MarkerList, MarkerDetail)):
    urlpatterns += [
        path(f"{_PREFIX}{_plural}/", _collection.as_view(), name=f"{_plural}-list"),
        path(f"{_PREFIX}{_plural}/<int:pk>/", _detail.as_view(), name=f"{_plural}-detail"),
    ]
