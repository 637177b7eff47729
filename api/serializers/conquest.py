"""Serializers of the conquest API: conquest choices and rolls (R-CON; API.md "Rounds,
declarations, conquest")."""

from rest_framework import serializers

from campaigns.values import parse_numbers


class ModifierSerializer(serializers.Serializer):
    rule = serializers.CharField()
    name = serializers.CharField()
    value = serializers.IntegerField()


THRESHOLD_RULE = "the rule that set the threshold: R-CON-1 (adjacency) or R-CON-2 (structure " \
                 "rule, orbital attack); blank on rolls stored before it was kept"
K = "multi-conquest count k (R-CON-4, R-CON-6); null for an immediate chain roll, which has " \
    "no multi-conquest modifier"


class ConquestItemSerializer(serializers.Serializer):
    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    threshold = serializers.IntegerField()
    threshold_rule = serializers.CharField(allow_blank=True, help_text=THRESHOLD_RULE)
    modifiers = ModifierSerializer(many=True)
    k = serializers.IntegerField(allow_null=True, help_text=K)
    chance = serializers.FloatField(help_text="exact success probability (R-CON-7); once the "
                                              "roll is made, the one it was made with")


class ConquestRollSerializer(serializers.Serializer):
    """A roll as it was made, never recomputed against today's map."""

    attack = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    tile = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())
    modifiers = ModifierSerializer(many=True)
    total = serializers.IntegerField()
    threshold = serializers.IntegerField()
    threshold_rule = serializers.CharField(allow_blank=True, help_text=THRESHOLD_RULE)
    k = serializers.IntegerField(allow_null=True, help_text=K)
    chance = serializers.FloatField(help_text="the exact success probability the roll had "
                                              "when it was made (R-CON-7)")
    success = serializers.BooleanField()


class ConquestViewSerializer(serializers.Serializer):
    items = ConquestItemSerializer(
        many=True, help_text="own won attacks with the odds of the current choice; once the "
                             "rolls are made, each rolled attack as it was rolled")
    choice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    resolved = serializers.BooleanField()
    waived = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="won attacks not rolled (R-CON-5), once resolved")
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


class ChainOddsSerializer(serializers.Serializer):
    """R-CON-7 before an immediate chain roll (R-CON-6): on the board as it stands now."""

    battle = serializers.IntegerField()
    attack = serializers.IntegerField()
    tile = serializers.IntegerField()
    threshold = serializers.IntegerField()
    threshold_rule = serializers.CharField(help_text=THRESHOLD_RULE)
    modifiers = ModifierSerializer(many=True)
    k = serializers.IntegerField(allow_null=True, help_text="always null: no multi-conquest "
                                                            "modifier (R-CON-6)")
    chance = serializers.FloatField(help_text="exact success probability (R-CON-7)")


class ChainStateSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["roll", "waive"], allow_null=True,
                                       help_text="the attacker's decision, null until made")
    open = serializers.BooleanField(help_text="the attacker has to decide now (R-CON-6)")
    odds = ChainOddsSerializer(allow_null=True,
                               help_text="while the decision is open: threshold, every "
                                         "modifier and the exact chance of the roll")
    roll = ConquestRollSerializer(allow_null=True, help_text="the roll as it was made")
