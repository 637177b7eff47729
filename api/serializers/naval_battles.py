"""Serializers of the naval battle reports API (API.md "Fleets and naval battles"; R-NAV-13)."""

from rest_framework import serializers

from campaigns.values import ROUND_NUMBER_MAX
from fleets.models import NavalBattle


class RoundFilter(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=ROUND_NUMBER_MAX, required=False,
                                     help_text="round number")


class EventSerializer(serializers.Serializer):
    """One event (R-NAV-13): ``rule``, ``step``, the dice faces it used (``dice``, if any) and
    what happened (further keys per step)."""

    rule = serializers.CharField()
    step = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), required=False)


class NavalBattleSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    area = serializers.IntegerField(source="area_id", allow_null=True)
    attacker = serializers.IntegerField(source="attacker_id", allow_null=True,
                                        help_text="player id; null for pirates")
    defender = serializers.IntegerField(source="defender_id", allow_null=True)
    sides = serializers.ListField(child=serializers.DictField())
    outcome = serializers.DictField()
    events = EventSerializer(many=True)

    class Meta:
        model = NavalBattle
        fields = ["id", "round", "area", "sequence", "engine", "attacker", "defender",
                  "attacker_vp", "defender_vp", "sides", "outcome", "events", "first_counter",
                  "dice_count"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["events"] = instance.events  # every key of each event, not only the schema's
        return data
