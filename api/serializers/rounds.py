"""Serializers of the rounds API: rounds, the dice log and its verifier, standings (API.md
"Rounds, declarations, conquest" and "Campaigns, map, standings")."""

from rest_framework import serializers

from campaigns.models import Round
from campaigns.selectors.rounds import revealed_seed


class RoundSerializer(serializers.ModelSerializer):
    server_seed = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "phase", "phase_deadline", "phase_started_at", "seed_commitment",
                  "server_seed", "opened_at", "closed_at"]

    def get_server_seed(self, rnd) -> str | None:
        return revealed_seed(rnd)


class DeadlineSerializer(serializers.Serializer):
    phase_deadline = serializers.DateTimeField()


class RollSerializer(serializers.Serializer):
    counter = serializers.IntegerField()
    purpose = serializers.CharField()
    sides = serializers.IntegerField()
    faces = serializers.ListField(child=serializers.IntegerField())
    object = serializers.CharField()


class RollLogSerializer(serializers.Serializer):
    seed_commitment = serializers.CharField()
    server_seed = serializers.CharField(allow_null=True)
    rolls = RollSerializer(many=True)


class VerifySerializer(serializers.Serializer):
    verified = serializers.BooleanField()
    checked = serializers.IntegerField()
    mismatches = serializers.ListField(child=serializers.DictField())


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    username = serializers.CharField()
    faction = serializers.CharField()
    tiles = serializers.IntegerField()
    planets = serializers.IntegerField()
    battles_won = serializers.IntegerField()
    battles_drawn = serializers.IntegerField()
    battles_lost = serializers.IntegerField()
    victory_points = serializers.IntegerField()
    ships = serializers.IntegerField()
    fleets = serializers.IntegerField()
    cf = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True)
    rows = StandingRowSerializer(many=True)
