"""Serializers of the odds API: the naval battle odds preview (R-ODDS-1; API.md "Fleets and
naval battles", ``POST /odds/naval/``). Two fleets in the fleet shape; unknown fields are
rejected."""

from collections.abc import Mapping

from django.utils.translation import gettext as _
from rest_framework import serializers

from campaigns.values import ID_MAX
from fleets.messages import ship_value_text
from fleets.services.odds import MAX_PREVIEW_SHIPS
from rules.naval import AUTO, STANCES
from rules.odds import ENGINES, MIN_SIMULATIONS, SIMULATIONS, STOP_REASONS
from rules.ship_values import (
    BOUNDS,
    CODE_SYSTEMS,
    MAX_CODE_TEXT,
    MAX_CREW,
    MAX_DETACHMENT_POINTS,
    MIN_DETACHMENT_POINTS,
    NAME_LIMIT,
    SPEED,
    captain_problems,
    code_problem,
    hull_problem,
)

# One request's work stays bounded: at most MAX_PREVIEW_SHIPS ships a side
# (``fleets.services.odds``, shared with the fleets page) and 1,000 to 10,000 battles
# (R-ODDS-1: the default and largest request; no preview stops before 1,000).
NEEDS = {"dark_force": ("attack", "defence", "agility"), "d6_space": ("datasheet",)}


# The ship values' bounds are ``rules.ship_values``' (R-FLT-2, R-SPC-1); a preview has no
# campaign, so a detachment may have up to the highest ``detachment_points`` a ruleset allows.
POINTS = (MIN_DETACHMENT_POINTS, MAX_DETACHMENT_POINTS)


def _integer(key: str, **kwargs) -> serializers.IntegerField:
    low, high = POINTS if key == "points" else BOUNDS[key]
    return serializers.IntegerField(min_value=low, max_value=high, **kwargs)


def _text() -> serializers.CharField:
    return serializers.CharField(max_length=NAME_LIMIT, allow_blank=True, required=False)


class StrictSerializer(serializers.Serializer):
    """Unknown fields are rejected (a typo must not silently drop a value)."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: [_("Unknown field.")]
                                                   for key in unknown})
        return super().to_internal_value(data)


class DiceCodeField(serializers.CharField):
    """A D6-system dice code ``nD+p`` (R-DICE-1, R-SPC-1), checked by ``rules.ship_values``."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_CODE_TEXT, help_text="dice code, e.g. 3D+1", **kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        problem = code_problem(text, "")
        if problem:
            raise serializers.ValidationError(ship_value_text(problem))
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
        problems = captain_problems(attrs)
        if problems:
            raise serializers.ValidationError(ship_value_text(problems[0]))
        return attrs


class DatasheetSerializer(StrictSerializer):
    """D6 values (R-SPC-1): dice codes, speed a plain number."""

    maneuver = DiceCodeField()
    speed = serializers.IntegerField(min_value=SPEED[0], max_value=SPEED[1])
    targeting = DiceCodeField()
    gun_damage = DiceCodeField()
    shields = DiceCodeField()
    hull = DiceCodeField()
    captain = CaptainSerializer(required=False, allow_null=True)

    class Meta:
        ref_name = "OddsDatasheet"

    def validate_hull(self, value):
        problem = hull_problem(value)
        if problem:
            raise serializers.ValidationError(ship_value_text(problem))
        return value


class ShipSerializer(StrictSerializer):
    """A ship in the fleet shape (R-FLT-2); ``id`` is accepted and ignored."""

    id = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    name = _text()
    attack = _integer("attack", required=False, help_text="required by dark_force")
    defence = _integer("defence", required=False, help_text="required by dark_force")
    agility = _integer("agility", required=False, help_text="required by dark_force")
    capacity = _integer("capacity", required=False)
    cargo = serializers.ListField(child=CargoSerializer(), max_length=BOUNDS["capacity"][1],
                                  required=False)
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
    simulations = serializers.IntegerField(
        min_value=MIN_SIMULATIONS, max_value=SIMULATIONS, default=SIMULATIONS,
        help_text="battles to fight at most (R-ODDS-1); the preview may stop earlier, never "
                  "before 1,000")

    class Meta:
        ref_name = "NavalOdds"

    def validate(self, attrs):
        missing = {}
        for side in ("attacker", "defender"):
            for i, ship in enumerate(attrs[side]["ships"]):
                for key in NEEDS[attrs["engine"]]:
                    if ship.get(key) is None:
                        missing[f"{side}.ships[{i}].{key}"] = [
                            _("Required by the %(engine)s engine.") % {"engine": attrs["engine"]}]
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

    simulations = serializers.IntegerField(
        help_text="battles fought (the sample size): at least 1,000, fewer than asked when "
                  "stopped early")
    attacker_wins = serializers.FloatField(help_text="fraction of the battles")
    defender_wins = serializers.FloatField(help_text="fraction of the battles")
    undecided = serializers.FloatField(help_text="both gone, round cap or retreat")
    ci95 = IntervalsSerializer(help_text="95% Wilson interval [low, high] per outcome")
    requested_simulations = serializers.IntegerField(help_text="battles asked for")
    stopped_early = serializers.BooleanField(
        help_text="true when fewer battles than asked were fought (see stop_reason)")
    stop_reason = serializers.ChoiceField(
        choices=STOP_REASONS,
        help_text="why the preview stopped: requested (all the battles asked for were "
                  "fought), precise (every 95% interval was within 1 percentage point either "
                  "side), work_budget (the work one preview may take was spent). Never the "
                  "server's load: the same seed gives the same answer")
    half_width = serializers.FloatField(
        help_text="the widest 95% interval's half-width: the preview's precision")

    class Meta:
        ref_name = "OddsResult"
