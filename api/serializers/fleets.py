"""Serializers of the fleet API: fleets, ships, orders, sea hazards and the fleet phase record
(API.md "Fleets and naval battles").

Output shapes are built by ``fleets.selectors.fleets``; these classes describe them for the schema.
Inputs are checked for shape here and for the rules by the services (400 with the rule id)."""

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from api.serializers.common import CampaignObjectField, optional_reason_field
from campaigns.models import Player
from campaigns.values import ID_MAX
from fleets.models import Area, Fleet, FleetMarker
from rules.interception import AF_RANGE, BENEFITS, POLICIES
from rules.naval import STANCES
from rules.ship_values import BOUNDS, DEFAULTS, NAME_LIMIT

MAX_SHIPS = 100
MAX_PATH = 100


# --- output ----------------------------------------------------------------------------------


class CargoSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField()


class CrewSerializer(serializers.Serializer):
    name = serializers.CharField()
    cp = serializers.IntegerField()


@extend_schema_field({
    "type": "object", "nullable": True,
    "description": "D6 datasheet (R-SPC-1): dice codes `maneuver`, `targeting`, `gun_damage`, "
                   "`shields`, `hull` (e.g. \"2D+1\"), `speed` a number, optional `captain` "
                   "{name, dice_system, pip_system}",
    "properties": {"maneuver": {"type": "string"}, "speed": {"type": "integer"},
                   "targeting": {"type": "string"}, "gun_damage": {"type": "string"},
                   "shields": {"type": "string"}, "hull": {"type": "string"},
                   "captain": {"type": "object", "properties": {
                       "name": {"type": "string"}, "dice_system": {"type": "string"},
                       "pip_system": {"type": "string"}}}}})
class DatasheetField(serializers.JSONField):
    """A D6 datasheet or null; the service checks it (400 ``R-SPC-1``)."""


class ShipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    class_ = serializers.CharField(label="class")
    position = serializers.IntegerField(help_text="place in the battle line, 1 = flagship")
    attack = serializers.IntegerField()
    defence = serializers.IntegerField()
    agility = serializers.IntegerField()
    capacity = serializers.IntegerField(help_text="transport capacity in detachments")
    seats = serializers.IntegerField(allow_null=True)
    cargo = CargoSerializer(many=True, help_text="embarked detachments (R-FLT-2)")
    crew = CrewSerializer(many=True, help_text="the boarding stack, bottom first (R-BRD-1)")
    datasheet = DatasheetField()

    def get_fields(self):
        fields = super().get_fields()
        fields["class"] = fields.pop("class_")
        return fields


class StandingOrdersSerializer(serializers.Serializer):
    interception = serializers.ChoiceField(choices=POLICIES)
    benefits = serializers.ListField(child=serializers.ChoiceField(choices=BENEFITS))
    stance = serializers.ChoiceField(choices=STANCES)
    line = serializers.ListField(child=serializers.IntegerField(),
                                 help_text="ship ids in battle line order")


class OrderSerializer(serializers.Serializer):
    path = serializers.ListField(child=serializers.IntegerField())
    given_at = serializers.DateTimeField()


OrderOutput = inline_serializer("FleetOrder", {
    "fleet": serializers.IntegerField(), "round": serializers.IntegerField(),
    "path": serializers.ListField(child=serializers.IntegerField()),
    "given_at": serializers.DateTimeField(allow_null=True)})


class FleetSerializer(serializers.Serializer):
    """A fleet. Other players see only the public fields (R-FLT-7): ``id``, ``owner``,
    ``area``, ``kind``, ``ship_count``; the owner and the admin see everything."""

    id = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True, help_text="player id; null for pirates")
    area = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Fleet.Kind.choices)
    ship_count = serializers.IntegerField()
    name = serializers.CharField(required=False)
    admiral_rating = serializers.IntegerField(required=False)
    ships = ShipSerializer(many=True, required=False)
    standing_orders = StandingOrdersSerializer(required=False)
    orders = OrderSerializer(required=False, allow_null=True,
                             help_text="this round's movement order (R-FLT-4) or null")
    no_interception = serializers.ChoiceField(
        choices=FleetMarker.Kind.choices, required=False, allow_null=True,
        help_text="this round's NO INTERCEPTION marker (R-INT-4) or null")


class HazardSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    area = serializers.IntegerField(source="area_id")
    owner = serializers.IntegerField(source="owner_id", allow_null=True)
    attack = serializers.IntegerField()
    defence = serializers.IntegerField()
    agility = serializers.IntegerField()
    hits = serializers.IntegerField(
        help_text="hits taken over the whole campaign; they add up over its triggers (R-SEA-2)")
    active = serializers.BooleanField(
        help_text="false once its hits reached its defence: removed (R-SEA-2)")
    triggered_at = serializers.DateTimeField(allow_null=True)


class FleetPhaseSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    resolved_at = serializers.DateTimeField()
    player_order = serializers.ListField(child=serializers.IntegerField())
    events = serializers.ListField(child=serializers.DictField())
    first_counter = serializers.IntegerField()
    dice_count = serializers.IntegerField()


# --- input -----------------------------------------------------------------------------------


class EntriesField(serializers.JSONField):
    """Cargo or crew entries; the service checks them (400 ``R-FLT-2``)."""


@extend_schema_field({"type": "array", "items": {"type": "object", "properties": {
    "name": {"type": "string"}, "points": {"type": "integer"}}}})
class CargoField(EntriesField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "object", "properties": {
    "name": {"type": "string"}, "cp": {"type": "integer"}}}})
class CrewField(EntriesField):
    pass


class ShipValueField(serializers.IntegerField):
    """A ship's value (R-FLT-2; a sea hazard's, R-SEA-2): the schema shows its bounds from
    ``rules.ship_values``, the service checks them (400 with the rule id)."""

    def __init__(self, name: str, **kwargs):
        low, high = BOUNDS[name]
        if name in DEFAULTS:
            kwargs.setdefault("default", DEFAULTS[name])
        super().__init__(min_value=low, max_value=high, **kwargs)
        self.validators = []  # one definition of the bounds: the service checks them


class ShipInput(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LIMIT)
    class_ = serializers.CharField(max_length=NAME_LIMIT, required=False, allow_blank=True,
                                   label="class")
    attack = ShipValueField("attack")
    defence = ShipValueField("defence")
    agility = ShipValueField("agility")
    capacity = ShipValueField("capacity")
    seats = ShipValueField("seats", required=False, allow_null=True)
    cargo = CargoField(required=False, default=list)
    crew = CrewField(required=False, default=list)
    datasheet = DatasheetField(required=False, allow_null=True, default=None)

    def get_fields(self):
        fields = super().get_fields()
        fields["class"] = fields.pop("class_")
        return fields

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        values["ship_class"] = values.pop("class", "")
        return values


class FleetInput(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LIMIT)
    owner = CampaignObjectField(Player, allow_null=True, required=False, default=None,
                                help_text="player id; null only for a pirate fleet")
    area = CampaignObjectField(Area)
    kind = serializers.ChoiceField(choices=Fleet.Kind.choices, default=Fleet.Kind.REGULAR)
    admiral_rating = serializers.IntegerField(min_value=AF_RANGE[0], max_value=AF_RANGE[1],
                                            default=AF_RANGE[0])
    ships = ShipInput(many=True, required=False, default=list, max_length=MAX_SHIPS)
    reason = optional_reason_field()


class ShipAddInput(ShipInput):
    """A ship added to a fleet, with the admin's optional reason (a correction once the
    campaign runs)."""

    reason = optional_reason_field()


class OrdersInput(serializers.Serializer):
    path = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
                                 max_length=MAX_PATH, allow_empty=True,
                                 help_text="areas to enter in order; [] withdraws the order")


class StandingOrdersInput(serializers.Serializer):
    """Any of the keys; the rules check the values (400 ``R-FLT-5``)."""

    interception = serializers.CharField(required=False, help_text=" | ".join(POLICIES))
    benefits = serializers.ListField(child=serializers.CharField(max_length=10),
                                     max_length=len(BENEFITS) * 2, required=False,
                                     help_text="ordered subset of a, b, c, d")
    stance = serializers.CharField(required=False, help_text=" | ".join(STANCES))
    line = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
                                 max_length=MAX_SHIPS * 2, required=False,
                                 help_text="every ship id of the fleet, flagship first")


class EmbarkInput(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LIMIT)
    points = serializers.IntegerField(min_value=-ID_MAX, max_value=ID_MAX,
                                      help_text="army points, 1..detachment_points (R-FLT-8)")


class DisembarkInput(serializers.Serializer):
    index = serializers.IntegerField(min_value=-ID_MAX, max_value=ID_MAX,
                                     help_text="position of the detachment in the cargo list")


class HazardInput(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LIMIT)
    area = CampaignObjectField(Area)
    owner = CampaignObjectField(Player, allow_null=True, required=False, default=None,
                                help_text="admin only: the island's owner, or null")
    attack = ShipValueField("attack")
    defence = ShipValueField("defence")
    agility = ShipValueField("agility")
    reason = optional_reason_field()


# --- the admin's changes: every field optional, none defaulted ---------


def _optional(fields: dict) -> dict:
    """PATCH semantics: a field left out stays as it is (no default fills it in)."""
    for field in fields.values():
        field.required = False
        field.default = serializers.empty
    return fields


class FleetChangeInput(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LIMIT)
    area = CampaignObjectField(Area, help_text="move the fleet there (no movement order)")
    owner = CampaignObjectField(Player, allow_null=True,
                                help_text="player id; null only for a pirate fleet")
    kind = serializers.ChoiceField(choices=Fleet.Kind.choices)
    admiral_rating = serializers.IntegerField(min_value=AF_RANGE[0], max_value=AF_RANGE[1])
    reason = optional_reason_field()

    def get_fields(self):
        return _optional(super().get_fields())


class ShipChangeInput(ShipAddInput):
    def get_fields(self):
        return _optional(super().get_fields())

    def to_internal_value(self, data):
        values = serializers.Serializer.to_internal_value(self, data)
        if "class" in values:
            values["ship_class"] = values.pop("class")
        return values


class HazardChangeInput(HazardInput):
    def get_fields(self):
        return _optional(super().get_fields())
