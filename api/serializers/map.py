"""Serializers of the map API: the map document (GET and import) and the one-object builders
(planets, tiles, links, areas, markers). Every write takes the admin's optional ``reason``
(a correction's, shown in the audit log).

Ids in requests are resolved within the campaign of the URL: an id of another campaign's
object is rejected as unknown (400), never revealed."""

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from api.serializers.common import (
    CampaignObjectField,
    CampaignObjectsField,
    optional_reason_field,
)
from campaigns.models import TILE_NAME_MAX, Planet, Player, Tile
from fleets.models import Area, Fleet
from league.services.map_document import COORDINATE_LIMIT, MAX
from rules.interception import AF_RANGE
from rules.ship_values import BOUNDS, MAX_CREW


@extend_schema_field({"type": "array", "items": {"type": "string", "enum": list(Tile.FEATURES)}})
class FeaturesField(serializers.JSONField):
    """Tile features; the service checks them and names the offending item."""


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class LocalKeyField(serializers.JSONField):
    """A local key of an import document: an integer or a string."""


# --- the map document (GET /map/) ---

class MapMarkerSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="marker type code")
    owner = serializers.IntegerField(allow_null=True, help_text="the tile's owner (R-MRK-4)")


class MapTileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    q = serializers.IntegerField()
    r = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True, help_text='"" = shown by its coordinates')
    owner = serializers.IntegerField(allow_null=True)
    features = serializers.ListField(child=serializers.ChoiceField(Tile.FEATURES))
    markers = MapMarkerSerializer(many=True)


class MapPlanetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tiles = MapTileSerializer(many=True)


class MapAreaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(Area.Kind.choices)
    planet = serializers.IntegerField(allow_null=True)
    adjacent = serializers.ListField(child=serializers.IntegerField())
    borders_tiles = serializers.ListField(child=serializers.IntegerField())


class MapFleetSerializer(serializers.Serializer):
    """The public fields of a fleet (R-FLT-7)."""

    id = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True)
    area = serializers.IntegerField()
    kind = serializers.ChoiceField(Fleet.Kind.choices)
    ship_count = serializers.IntegerField()


_LINK = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class MapSerializer(serializers.Serializer):
    planets = MapPlanetSerializer(many=True)
    links = serializers.ListField(child=_LINK)
    areas = MapAreaSerializer(many=True)
    fleets = MapFleetSerializer(many=True)


# --- the import document (schema only: map_document.parse validates it) ---

class ImportMarkerSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="marker type code")
    owner = serializers.IntegerField(required=False, allow_null=True,
                                     help_text="if given, the tile's owner")


class ImportTileSerializer(serializers.Serializer):
    id = LocalKeyField(required=False)
    q = serializers.IntegerField(min_value=-COORDINATE_LIMIT, max_value=COORDINATE_LIMIT)
    r = serializers.IntegerField(min_value=-COORDINATE_LIMIT, max_value=COORDINATE_LIMIT)
    name = serializers.CharField(required=False, allow_blank=True, max_length=TILE_NAME_MAX)
    owner = serializers.IntegerField(required=False, allow_null=True, help_text="player id")
    features = FeaturesField(required=False)
    markers = ImportMarkerSerializer(many=True, required=False)


class ImportPlanetSerializer(serializers.Serializer):
    id = LocalKeyField(required=False)
    name = serializers.CharField(max_length=80)
    tiles = ImportTileSerializer(many=True, required=False)


class ImportAreaSerializer(serializers.Serializer):
    id = LocalKeyField(required=False)
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(Area.Kind.choices)
    planet = LocalKeyField(required=False, allow_null=True, help_text="orbit areas only")
    adjacent = serializers.ListField(child=LocalKeyField(), required=False)
    borders_tiles = serializers.ListField(child=LocalKeyField(), required=False)
    owner = serializers.IntegerField(required=False, allow_null=True,
                                     help_text="player id; islands only (R-SEA-1)")


_ENTRY = {"name": serializers.CharField(max_length=80)}
ImportShipSerializer = inline_serializer("ImportShip", {
    "id": LocalKeyField(required=False),
    "name": serializers.CharField(max_length=80),
    "class": serializers.CharField(required=False, allow_blank=True, max_length=80),
    **{name: serializers.IntegerField(required=False, min_value=BOUNDS[name][0],
                                      max_value=BOUNDS[name][1])
       for name in ("attack", "defence", "agility", "capacity")},
    "cargo": inline_serializer("ImportCargo", {
        **_ENTRY, "points": serializers.IntegerField(min_value=1)}, many=True, required=False),
    "crew": inline_serializer("ImportCrew", {
        **_ENTRY, "cp": serializers.IntegerField(min_value=BOUNDS["cp"][0],
                                                 max_value=BOUNDS["cp"][1])},
        many=True, required=False, max_length=MAX_CREW),
    "datasheet": serializers.DictField(required=False, allow_null=True,
                                       help_text='D6 values (R-SPC-1): {"maneuver": "2D", ...}'),
    "seats": serializers.IntegerField(required=False, allow_null=True,
                                      min_value=BOUNDS["seats"][0], max_value=BOUNDS["seats"][1]),
}, many=True, required=False)


class ImportFleetSerializer(serializers.Serializer):
    id = LocalKeyField(required=False)
    owner = serializers.IntegerField(allow_null=True, help_text="player id; null for pirates")
    area = LocalKeyField(help_text="local key of an area of the document")
    name = serializers.CharField(required=False, max_length=80)
    kind = serializers.ChoiceField(Fleet.Kind.choices, required=False)
    admiral_rating = serializers.IntegerField(required=False, min_value=AF_RANGE[0],
                                            max_value=AF_RANGE[1])
    ships = ImportShipSerializer
    ship_count = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX["ships"],
        help_text="without `ships`, that many ships of default values are created")


class MapImportSerializer(serializers.Serializer):
    planets = ImportPlanetSerializer(many=True, help_text="`[]` clears the map")
    links = serializers.ListField(child=serializers.ListField(
        child=LocalKeyField(), min_length=2, max_length=2), required=False)
    areas = ImportAreaSerializer(many=True, required=False)
    fleets = ImportFleetSerializer(many=True, required=False)
    reason = optional_reason_field()


# --- the builders ---

class PlanetSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=80)
    reason = optional_reason_field()


class TileSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    planet = CampaignObjectField(Planet)
    q = serializers.IntegerField(min_value=-COORDINATE_LIMIT, max_value=COORDINATE_LIMIT)
    r = serializers.IntegerField(min_value=-COORDINATE_LIMIT, max_value=COORDINATE_LIMIT)
    name = serializers.CharField(required=False, allow_blank=True, max_length=TILE_NAME_MAX,
                                 trim_whitespace=False, help_text='"" = shown by its coordinates')
    owner = CampaignObjectField(Player, required=False, allow_null=True)
    features = FeaturesField(required=False)
    reason = optional_reason_field()


class TileLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    a = CampaignObjectField(Tile)
    b = CampaignObjectField(Tile)
    reason = optional_reason_field()


class AreaSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(Area.Kind.choices)
    planet = CampaignObjectField(Planet, required=False, allow_null=True,
                                 help_text="orbit areas only")
    adjacent = CampaignObjectsField(Area, MAX["adjacent"], required=False)
    borders_tiles = CampaignObjectsField(Tile, MAX["borders_tiles"], required=False)
    owner = CampaignObjectField(Player, required=False, allow_null=True,
                                help_text="islands only (R-SEA-1)")
    reason = optional_reason_field()


class MarkerSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    tile = CampaignObjectField(Tile)
    type = serializers.SlugField(max_length=40, help_text="marker type code")
    owner = serializers.IntegerField(read_only=True, allow_null=True,
                                     help_text="the tile's owner (R-MRK-4)")
    reason = optional_reason_field()

    def to_representation(self, marker):
        return {"id": marker.pk, "tile": marker.tile_id, "type": marker.type.code,
                "owner": marker.tile.owner_id}
