"""The audit log: one entry per admin action, who, when, what, before and
after. ``public`` is shown to the campaign's admins only (members never get the others)."""

from rest_framework import serializers

from campaigns.selectors.players import display_name
from campaigns.values import ROUND_NUMBER_MAX


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    at = serializers.DateTimeField(read_only=True)
    actor = serializers.SerializerMethodField(
        help_text="who did it: their display name, else username; null when it was automatic")
    kind = serializers.CharField(read_only=True,
                                 help_text="what was done, a code such as result.correct")
    target = serializers.CharField(read_only=True, help_text="what it was done to, as pages "
                                   "name it")
    round = serializers.SerializerMethodField(help_text="the round's number, if any")
    before = serializers.JSONField(read_only=True, allow_null=True,
                                   help_text="the changed facts before; null if none")
    after = serializers.JSONField(read_only=True, allow_null=True,
                                  help_text="the changed facts after; null if none")
    reason = serializers.CharField(read_only=True,
                                   help_text="why the organiser made the correction; \"\" "
                                             "if none was asked")
    public = serializers.BooleanField(
        required=False, help_text="campaign admins only: whether members see the entry")

    def get_actor(self, action) -> str | None:
        user = action.actor
        return (display_name(user) or user.get_username()) if user is not None else None

    def get_round(self, action) -> int | None:
        return action.round.number if action.round_id else None

    def to_representation(self, action):
        data = super().to_representation(action)
        if not self.context.get("admin"):
            data.pop("public", None)
        return data


class AuditLogFilter(serializers.Serializer):
    kind = serializers.RegexField(
        r"^[a-z_.]{1,40}$", required=False,
        help_text="a group (rounds, results, map, players, settings) or one kind code "
                  "(e.g. result.correct)")
    round = serializers.IntegerField(required=False, min_value=1, max_value=ROUND_NUMBER_MAX,
                                     help_text="round number")
