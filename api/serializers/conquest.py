"""Serializers of the conquest API: conquest choices and rolls (R-CON; API.md "Rounds,
declarations, conquest")."""

from rest_framework import serializers

from campaigns.values import parse_numbers


class ModifierSerializer(serializers.Serializer):
    rule = serializers.CharField()
    name = serializers.CharField()
    value = serializers.IntegerField()


class ConquestItemSerializer(serializers.Serializer):
    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    threshold = serializers.IntegerField()
    modifiers = ModifierSerializer(many=True)
    chance = serializers.FloatField(help_text="exact success probability (R-CON-7)")


class ConquestRollSerializer(serializers.Serializer):
    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())
    modifiers = ModifierSerializer(many=True)
    total = serializers.IntegerField()
    threshold = serializers.IntegerField()
    success = serializers.BooleanField()


class ConquestViewSerializer(serializers.Serializer):
    items = ConquestItemSerializer(many=True)
    choice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    resolved = serializers.BooleanField()
    rolls = ConquestRollSerializer(many=True)


class ChoiceInSerializer(serializers.Serializer):
    roll = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=500)


class ChoiceOutSerializer(serializers.Serializer):
    choice = serializers.ListField(child=serializers.IntegerField())
    resolved = serializers.BooleanField()
    rolls = ConquestRollSerializer(many=True)


def preview_ids(value: str | None) -> list[int] | None:
    """``?roll=``: the attack ids of a choice to preview, comma separated."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",") if p.strip()]
    ids = parse_numbers(parts)
    if len(ids) != len(parts):
        raise serializers.ValidationError({"roll": ["A comma-separated list of attack ids."]})
    return ids


class ChainDecisionSerializer(serializers.Serializer):
    roll = serializers.BooleanField()
