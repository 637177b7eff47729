"""The organiser's dashboard and nudges: campaign admins only. Owed items
are codes (``battles.selectors.obligations``) with the battle's id where one is concerned;
never a list, an order or a fleet's contents (R-ARM-3, R-FLT-7)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from battles.selectors.obligations import waits_for_input
from campaigns.selectors.clock import LATE, NEVER, OK
from campaigns.selectors.players import display_name

KINDS = ("declare", "fleet_orders", "army_list", "chain_decision", "confirm_result",
         "agree_date", "report_result", "conquest_choice")
REASONS = ("owes_nothing", "away", "recently", "no_email")
CLOCK_STATES = (OK, LATE, NEVER)


class DashboardOwedSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS, read_only=True)
    waits = serializers.BooleanField(
        read_only=True, help_text="the phase waits for it (false: shown, optional)")
    battle = serializers.IntegerField(read_only=True, allow_null=True,
                                      help_text="the battle's id, for battle items")
    count = serializers.IntegerField(
        read_only=True, allow_null=True,
        help_text="declare: declarations standing; fleet_orders: fleets without an order; "
                  "conquest_choice: won attacks")
    answer = serializers.BooleanField(
        read_only=True, help_text="agree_date: the opponent's proposal waits for an answer")


class PlayerReliabilitySerializer(serializers.Serializer):
    on_time = serializers.IntegerField(read_only=True)
    defaulted = serializers.IntegerField(read_only=True)
    away = serializers.IntegerField(read_only=True,
                                    help_text="defaults taken while away (part of defaulted)")


class DashboardPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player.pk", read_only=True)
    faction = serializers.CharField(source="player.faction", read_only=True)
    colour = serializers.CharField(source="player.colour", read_only=True)
    username = serializers.CharField(source="player.user.username", read_only=True)
    display_name = serializers.SerializerMethodField()
    owes = serializers.BooleanField(read_only=True,
                                    help_text="something the phase waits for is open")
    owed = serializers.SerializerMethodField()
    done = serializers.BooleanField(read_only=True, help_text='said "done" for this phase')
    away = serializers.BooleanField(read_only=True, help_text="marked away today")
    nudged_at = serializers.DateTimeField(read_only=True, allow_null=True,
                                          help_text="last nudge in this phase")
    reliability = PlayerReliabilitySerializer(read_only=True)

    def get_display_name(self, row) -> str:
        return display_name(row.player.user)

    @extend_schema_field(DashboardOwedSerializer(many=True))
    def get_owed(self, row) -> list[dict]:
        return DashboardOwedSerializer([{
            "kind": e["kind"], "waits": waits_for_input(e),
            "battle": e["battle"].pk if e.get("battle") else None,
            "count": e.get("standing", e.get("fleets", e.get("won"))),
            "answer": bool(e.get("answer"))} for e in row.owed], many=True).data


class DashboardDisputeSerializer(serializers.Serializer):
    battle = serializers.IntegerField(source="pk", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)


class DashboardAbsenceSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", read_only=True)
    starts_on = serializers.DateField(read_only=True)
    ends_on = serializers.DateField(read_only=True)
    note = serializers.CharField(read_only=True)


class DashboardSerializer(serializers.Serializer):
    round = serializers.IntegerField(read_only=True, allow_null=True,
                                     help_text="the current round's number; null before the start")
    phase = serializers.CharField(read_only=True, allow_null=True)
    deadline = serializers.DateTimeField(read_only=True, allow_null=True)
    paused = serializers.BooleanField(read_only=True)
    pause_reason = serializers.CharField(read_only=True)
    players = DashboardPlayerSerializer(many=True, read_only=True)
    disputes = DashboardDisputeSerializer(many=True, read_only=True)
    absences = DashboardAbsenceSerializer(many=True, read_only=True,
                                 help_text="current and future absences")
    # R-RND-2: the periodic job's heartbeat (campaigns.selectors.clock)
    clock = serializers.ChoiceField(
        choices=CLOCK_STATES, read_only=True,
        help_text="the clock that advances deadlines: ok, late (no run for 3 minutes) or "
                  "never (no run yet)")
    clock_last_ran_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="when the clock last ran; null: never")
    clock_late = serializers.BooleanField(
        read_only=True, help_text="deadlines pass but nothing moves the round on: the clock "
                                  "is late or never ran")


class NudgeInputSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=500,
        help_text="players to nudge (ids); default: everyone who owes input now")


class NudgeSkippedSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk", read_only=True)
    reason = serializers.ChoiceField(choices=REASONS, read_only=True)
    until = serializers.DateTimeField(read_only=True, allow_null=True,
                                      help_text="recently: when the next nudge is allowed")


class NudgeResultSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    phase = serializers.CharField(source="round.phase", read_only=True)
    nudged = serializers.SerializerMethodField()
    skipped = NudgeSkippedSerializer(many=True, read_only=True)

    def get_nudged(self, outcome) -> list[int]:
        return [p.pk for p in outcome.nudged]
