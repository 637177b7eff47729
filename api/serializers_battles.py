"""Serializers of the battles API (API.md "Battles (tabletop)")."""

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from battles.models import Battle, ResultChange
from battles.results import MAX_VP, result_snapshot

ID_MAX = 2**31 - 1


def page_of(serializer_class, name: str):
    """The schema of a paginated list (API.md General): count, next, previous, results."""
    return inline_serializer(name, {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": serializer_class(many=True),
    })


class ResultSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Battle.Outcome.choices)
    attacker_vp = serializers.IntegerField()
    defender_vp = serializers.IntegerField()
    status = serializers.ChoiceField(choices=[s for s in Battle.ResultStatus.values if s])


class HistoryResultSerializer(ResultSerializer):
    reason = serializers.CharField(required=False,
                                   help_text="why the system set it (e.g. R-ATK-4, R-RND-3)")


class ResultChangeSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username", allow_null=True, default=None,
                               help_text="username; null when the rules set it")
    old = HistoryResultSerializer(allow_null=True)
    new = HistoryResultSerializer()

    class Meta:
        model = ResultChange
        fields = ["by", "at", "old", "new"]


class BonusSerializer(serializers.Serializer):
    tiles = serializers.IntegerField(help_text="tile bonus (R-BON-2)")
    markers = serializers.IntegerField(help_text="marker bonus (R-MRK-2)")


class BattleSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", help_text="round number")
    tile = serializers.IntegerField(source="tile_id")
    attacker = serializers.IntegerField(source="attacker_id")
    defender = serializers.IntegerField(source="defender_id", allow_null=True,
                                        help_text="null until settled, or a neutral garrison")
    point_limits = serializers.DictField(child=serializers.IntegerField(),
                                         help_text="player id (string) -> army limit (R-BON-1)")
    bonus = serializers.DictField(child=BonusSerializer(),
                                  help_text="player id (string) -> bonus breakdown")
    result = serializers.SerializerMethodField()
    history = ResultChangeSerializer(many=True)

    class Meta:
        model = Battle
        fields = ["id", "round", "tile", "attacker", "defender", "neutral", "chain_position",
                  "chain_length", "status", "point_limits", "bonus", "scheduled_at", "place",
                  "result", "history"]

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, battle: Battle) -> dict | None:
        return result_snapshot(battle)


class ResultInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Battle.Outcome.choices,
                                      help_text="from the attacker's side (R-BAT-3)")
    attacker_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)
    defender_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)


class BattleFilter(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                     help_text="round number")
    player = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                      help_text="attacker or defender (player id)")
    status = serializers.ChoiceField(required=False, choices=Battle.Status.choices)
