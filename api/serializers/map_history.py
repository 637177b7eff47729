"""Serializers of the map history: GET
/campaigns/{id}/rounds/{n}/map/, the map as it stood when round n closed and what changed in
it. Public facts only (R-FLT-7): owners, marker codes, fleets' areas, owners and ship counts."""

from rest_framework import serializers

from league.selectors.map_history import PREVIOUS, START, UNRECORDED


class SnapshotTileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    planet = serializers.IntegerField(allow_null=True,
                                      help_text="null: the tile was removed from the map since")
    q = serializers.IntegerField(allow_null=True)
    r = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True, help_text='the tile\'s name now ("": none)')
    owner = serializers.IntegerField(allow_null=True, help_text="player id; null: neutral")
    markers = serializers.ListField(child=serializers.CharField(), help_text="marker type codes")


class SnapshotFleetSerializer(serializers.Serializer):
    area = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True, help_text="player id; null: no player")
    ships = serializers.IntegerField(help_text="ship count")


# "from" is a Python keyword, so this serializer is made with type() rather than a class body
OwnerChangeSerializer = type("OwnerChangeSerializer", (serializers.Serializer,), {
    "tile": serializers.IntegerField(source="tile.id"),
    "from": serializers.IntegerField(allow_null=True, help_text="player id; null: neutral"),
    "to": serializers.IntegerField(allow_null=True, help_text="player id; null: neutral"),
})


class MarkerChangeSerializer(serializers.Serializer):
    tile = serializers.IntegerField(source="tile.id")
    added = serializers.ListField(child=serializers.CharField())
    removed = serializers.ListField(child=serializers.CharField())


class FleetChangeSerializer(serializers.Serializer):
    area = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True)
    fleets_before = serializers.IntegerField()
    fleets_after = serializers.IntegerField()
    ships_before = serializers.IntegerField()
    ships_after = serializers.IntegerField()


class ChangesSerializer(serializers.Serializer):
    owners = OwnerChangeSerializer(many=True)
    markers = MarkerChangeSerializer(many=True)
    tiles_added = serializers.ListField(child=serializers.IntegerField(), help_text="tile ids")
    tiles_removed = serializers.ListField(child=serializers.IntegerField(), help_text="tile ids")
    fleets = FleetChangeSerializer(many=True, help_text="per area and owner whose fleet or "
                                                        "ship count changed")

    def to_representation(self, instance):
        ids = {key: [tile["id"] for tile in instance[key]]
               for key in ("tiles_added", "tiles_removed")}
        return super().to_representation({**instance, **ids})


class RoundMapSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="number")
    closed_at = serializers.DateTimeField(allow_null=True)
    recorded = serializers.BooleanField(
        help_text="false: the round closed before map history was kept; tiles, fleets and "
                  "changes are then null (never guessed)")
    basis = serializers.ChoiceField(
        choices=[PREVIOUS, START, UNRECORDED], allow_null=True,
        help_text=f"what changes compare with: `{PREVIOUS}` the map after round n-1; `{START}` "
                  "(round 1) an empty map, the set-up map not being recorded, so every held "
                  f"tile, marker and fleet is listed; `{UNRECORDED}` round n-1's map was not "
                  "recorded, changes are null")
    tiles = SnapshotTileSerializer(many=True, allow_null=True)
    fleets = SnapshotFleetSerializer(many=True, allow_null=True)
    changes = ChangesSerializer(allow_null=True)
