"""API: the naval battle odds preview (R-ODDS-1; API.md "Fleets and naval battles",
``POST /odds/naval/``). Two fleets in the fleet shape are fought ``simulations`` times with the
real engine and a seeded PRNG of the request's own (R-DICE-4); nothing is stored or logged."""

from collections.abc import Mapping

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from api.base import error_responses
from api.parsers import SafeJSONParser
from rules.naval_input import BOUNDS, MAX_CARGO, MAX_CREW, MAX_TEXT
from rules.naval_model import AUTO, STANCES
from rules.odds import ENGINES, MIN_SIMULATIONS, naval_odds
from rules.space_input import MAX_CODE_TEXT, MAX_SPEED, dice_code
from rules.space_model import CODE_SYSTEMS

# One request's work stays bounded (a few seconds on one core): at most 12 ships a side and
# 10,000 (R-ODDS-1's minimum) to 20,000 battles.
MAX_SIMULATIONS = 20_000
MAX_PREVIEW_SHIPS = 12
NEEDS = {"dark_force": ("attack", "defence", "agility"), "d6_space": ("datasheet",)}


def _integer(key: str, **kwargs) -> serializers.IntegerField:
    low, high = BOUNDS[key]
    return serializers.IntegerField(min_value=low, max_value=high, **kwargs)


def _text() -> serializers.CharField:
    return serializers.CharField(max_length=MAX_TEXT, allow_blank=True, required=False)


class StrictSerializer(serializers.Serializer):
    """Unknown fields are rejected (a typo must not silently drop a value)."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: ["Unknown field."] for key in unknown})
        return super().to_internal_value(data)


class DiceCodeField(serializers.CharField):
    """A D6-system dice code ``nD+p`` (R-DICE-1), parsed by ``rules.dicecode``."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_CODE_TEXT, help_text="dice code, e.g. 3D+1", **kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        try:
            dice_code(text, "code")
        except ValueError as error:
            raise serializers.ValidationError(str(error).removeprefix("code: ")) from None
        return text


class CrewSerializer(StrictSerializer):
    """A character of the boarding stack (R-BRD-1)."""

    name = _text()
    cp = _integer("cp", help_text="command points (R-BRD-1)")

    class Meta:
        ref_name = "OddsCrew"


class CargoSerializer(StrictSerializer):
    """An embarked detachment (R-FLT-2)."""

    name = _text()
    points = _integer("points", help_text="army points of the detachment")

    class Meta:
        ref_name = "OddsCargo"


class CaptainSerializer(StrictSerializer):
    """A D6 captain: +1D to one system, +1 pip to another (R-SPC-1)."""

    name = _text()
    dice_system = serializers.ChoiceField(choices=CODE_SYSTEMS, help_text="+1D (R-SPC-1)")
    pip_system = serializers.ChoiceField(choices=(*CODE_SYSTEMS, "speed"),
                                         help_text="+1 pip (R-SPC-1)")

    class Meta:
        ref_name = "OddsCaptain"

    def validate(self, attrs):
        if attrs["dice_system"] == attrs["pip_system"]:
            raise serializers.ValidationError("The bonuses go to two different systems.")
        return attrs


class DatasheetSerializer(StrictSerializer):
    """D6 values (R-SPC-1): dice codes, speed a plain number."""

    maneuver = DiceCodeField()
    speed = serializers.IntegerField(min_value=0, max_value=MAX_SPEED)
    targeting = DiceCodeField()
    gun_damage = DiceCodeField()
    shields = DiceCodeField()
    hull = DiceCodeField()
    captain = CaptainSerializer(required=False, allow_null=True)

    class Meta:
        ref_name = "OddsDatasheet"

    def validate_hull(self, value):
        if dice_code(value, "hull").dice < 1:
            raise serializers.ValidationError("A ship starts with at least 1D hull (R-SPC-6).")
        return value


class ShipSerializer(StrictSerializer):
    """A ship in the fleet shape (R-FLT-2); ``id`` is accepted and ignored."""

    id = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    name = _text()
    attack = _integer("attack", required=False, help_text="required by dark_force")
    defence = _integer("defence", required=False, help_text="required by dark_force")
    agility = _integer("agility", required=False, help_text="required by dark_force")
    capacity = _integer("capacity", required=False)
    cargo = serializers.ListField(child=CargoSerializer(), max_length=MAX_CARGO, required=False)
    crew = serializers.ListField(child=CrewSerializer(), max_length=MAX_CREW, required=False,
                                 help_text="the boarding stack, bottom first")
    datasheet = DatasheetSerializer(required=False, allow_null=True,
                                    help_text="D6 values, required by d6_space")
    seats = _integer("seats", required=False, allow_null=True)

    class Meta:
        ref_name = "OddsShip"

    def get_fields(self):
        fields = super().get_fields()
        fields["class"] = _text()  # a Python keyword, so added here
        return fields


class FleetSerializer(StrictSerializer):
    """One side: its battle line and stance."""

    ships = serializers.ListField(child=ShipSerializer(), min_length=1,
                                  max_length=MAX_PREVIEW_SHIPS,
                                  help_text="the battle line, flagship first")
    stance = serializers.ChoiceField(choices=STANCES, default=AUTO,
                                     help_text="battle stance (R-FLT-5)")

    class Meta:
        ref_name = "OddsFleet"


class OddsRequestSerializer(StrictSerializer):
    """Two fleets in the fleet shape and the engine to fight them with. Unknown fields are
    rejected."""

    engine = serializers.ChoiceField(choices=ENGINES, help_text="naval_engine (R-SPC)")
    attacker = FleetSerializer()
    defender = FleetSerializer()
    simulations = serializers.IntegerField(min_value=MIN_SIMULATIONS,
                                           max_value=MAX_SIMULATIONS, default=MIN_SIMULATIONS,
                                           help_text="battles to fight (R-ODDS-1)")

    class Meta:
        ref_name = "NavalOdds"

    def validate(self, attrs):
        missing = {}
        for side in ("attacker", "defender"):
            for i, ship in enumerate(attrs[side]["ships"]):
                for key in NEEDS[attrs["engine"]]:
                    if ship.get(key) is None:
                        missing[f"{side}.ships[{i}].{key}"] = [
                            f"Required by the {attrs['engine']} engine."]
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class IntervalsSerializer(serializers.Serializer):
    """[low, high] per outcome."""

    attacker_wins = serializers.ListField(child=serializers.FloatField(), min_length=2,
                                          max_length=2)
    defender_wins = serializers.ListField(child=serializers.FloatField(), min_length=2,
                                          max_length=2)
    undecided = serializers.ListField(child=serializers.FloatField(), min_length=2,
                                      max_length=2)

    class Meta:
        ref_name = "OddsIntervals"


class OddsResultSerializer(serializers.Serializer):
    """Outcomes as fractions of the simulated battles (R-ODDS-1)."""

    simulations = serializers.IntegerField(help_text="battles fought (the sample size)")
    attacker_wins = serializers.FloatField(help_text="fraction of the battles")
    defender_wins = serializers.FloatField(help_text="fraction of the battles")
    undecided = serializers.FloatField(help_text="both gone, round cap or retreat")
    ci95 = IntervalsSerializer(help_text="95% Wilson interval [low, high] per outcome")

    class Meta:
        ref_name = "OddsResult"


def error_paths(errors, prefix: str = "") -> dict[str, list[str]]:
    """Nested serializer errors as ``{"attacker.ships[0].attack": [messages]}``."""
    if isinstance(errors, Mapping):
        found: dict[str, list[str]] = {}
        for key, value in errors.items():
            name = f"{prefix}[{key}]" if isinstance(key, int) else \
                f"{prefix}.{key}" if prefix else str(key)
            found.update(error_paths(value, name))
        return found
    if isinstance(errors, list) and any(isinstance(e, Mapping | list) for e in errors):
        found = {}
        for i, value in enumerate(errors):
            found.update(error_paths(value, f"{prefix}[{i}]"))
        return found
    messages = errors if isinstance(errors, list) else [errors]
    return {prefix or "non_field_errors": [str(m) for m in messages]} if messages else {}


def _invalid(errors: dict[str, list[str]]) -> serializers.ValidationError:
    """A 400 in the API's shape; ``code`` names the rule a field comes from."""
    error = serializers.ValidationError(errors)
    if "simulations" in errors:
        error.rule = "R-ODDS-1"
    elif any(key.endswith(".datasheet") for key in errors):
        error.rule = "R-SPC-1"
    return error


class NavalOdds(APIView):
    """Seconds of CPU per call: the ``odds`` throttle scope (settings) bounds a user's rate."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]  # nested fleets: JSON only
    throttle_classes = [UserRateThrottle, ScopedRateThrottle]  # the user's rate and "odds"
    throttle_scope = "odds"

    @extend_schema(tags=["fleets"], summary="Odds preview of a naval battle (R-ODDS-1)",
                   request=OddsRequestSerializer,
                   responses={200: OddsResultSerializer, **error_responses(400, 401, 429)})
    def post(self, request):
        """Fight the two fleets ``simulations`` times (at least 10,000) with the real engine and
        a fresh PRNG; outcomes as fractions with 95% intervals."""
        serializer = OddsRequestSerializer(data=request.data)
        if not serializer.is_valid():
            raise _invalid(error_paths(serializer.errors))
        data = serializer.validated_data
        try:
            result = naval_odds(data["engine"], data["attacker"], data["defender"],
                                simulations=data["simulations"])
        except ValueError as error:  # the rules' own checks, should the serializers miss one
            where, _, message = str(error).partition(": ")
            raise _invalid({where: [message or where]}) from None
        return Response(result.as_dict())


urlpatterns = [path("odds/naval/", NavalOdds.as_view(), name="odds-naval")]
