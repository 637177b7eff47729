"""Serializers of the rounds API: rounds, the dice log and its verifier, standings (API.md
"Rounds, declarations, conquest" and "Campaigns, map, standings")."""

from rest_framework import serializers

from api.serializers.common import datetime_text as _datetime
from campaigns.models import Round
from campaigns.selectors.rounds import revealed_seed


class RoundSerializer(serializers.ModelSerializer):
    """``needs_attention``: the round's background work failed after its retries (since
    ``attention_at``); the campaign's admins also see the error (context ``is_admin``)."""

    server_seed = serializers.SerializerMethodField()
    deadline_left_seconds = serializers.SerializerMethodField(
        help_text="while the campaign is paused, the time the deadline had left "
                  "(phase_deadline is null then); null otherwise")
    needs_attention = serializers.SerializerMethodField()
    attention_error = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "phase", "phase_deadline", "phase_started_at", "seed_commitment",
                  "server_seed", "opened_at", "closed_at", "needs_attention", "attention_at",
                  "attention_error", "deadline_left_seconds"]

    def to_representation(self, rnd) -> dict:
        """The fields above, built directly (a ModelSerializer's field machinery was
        most of the rounds list); tests/api/test_schema_responses.py checks the answer."""
        return {"number": rnd.number, "phase": rnd.phase,
                "phase_deadline": _datetime(rnd.phase_deadline),
                "phase_started_at": _datetime(rnd.phase_started_at),
                "seed_commitment": rnd.seed_commitment, "server_seed": self.get_server_seed(rnd),
                "opened_at": _datetime(rnd.opened_at), "closed_at": _datetime(rnd.closed_at),
                "needs_attention": self.get_needs_attention(rnd),
                "attention_at": _datetime(rnd.attention_at),
                "attention_error": self.get_attention_error(rnd),
                "deadline_left_seconds": self.get_deadline_left_seconds(rnd)}

    def get_server_seed(self, rnd) -> str | None:
        return revealed_seed(rnd)

    def get_deadline_left_seconds(self, rnd) -> int | None:
        left = rnd.deadline_left
        return None if left is None else int(left.total_seconds())

    def get_needs_attention(self, rnd) -> bool:
        return rnd.attention_at is not None

    def get_attention_error(self, rnd) -> str | None:
        return (rnd.attention_error or None) if self.context.get("is_admin") else None


class DeadlineSerializer(serializers.Serializer):
    phase_deadline = serializers.DateTimeField()


class AdvanceSerializer(serializers.Serializer):
    expected_phase = serializers.ChoiceField(
        choices=Round.Phase.choices, required=False,
        help_text="The phase to leave. With it, a round that already left that phase is "
                  "answered unchanged (a repeated call advances once). Without it, an advance "
                  "within ROUND_ADVANCE_MIN_SECONDS (10 s) of the campaign's previous one is "
                  "refused with 409 advance_too_soon.")


class RollSerializer(serializers.Serializer):
    counter = serializers.IntegerField()
    purpose = serializers.CharField()
    sides = serializers.IntegerField()
    faces = serializers.ListField(child=serializers.IntegerField())
    object = serializers.CharField()


class RollLogSerializer(serializers.Serializer):
    seed_commitment = serializers.CharField()
    dice_campaign = serializers.IntegerField(
        help_text="R-DICE-2: the campaign id in the draw messages (differs from the campaign's "
                  "own for a round imported from an archive).")
    server_seed = serializers.CharField(allow_null=True)
    rolls = RollSerializer(many=True)


class VerifySerializer(serializers.Serializer):
    verified = serializers.BooleanField()
    checked = serializers.IntegerField()
    mismatches = serializers.ListField(child=serializers.DictField())


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    username = serializers.CharField(help_text="the seat's holder (now, or at that round's "
                                     "close for frozen standings)")
    display_name = serializers.CharField(
        required=False, allow_blank=True,
        help_text="the holder's own display name (\"\" if none; missing in rows frozen "
                  "before display names existed)")
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
