"""Serializers of the notifications API: a player's e-mail notification switches (one per
kind, default on)."""

from rest_framework import serializers

from battles.models import NotificationKind

HELP = {
    NotificationKind.PHASE_OPENED: "a phase opened, with its deadline",
    NotificationKind.DEADLINE_SOON: "a deadline is near and you still owe input",
    NotificationKind.DATE_PROPOSED: "your opponent proposed a battle date",
    NotificationKind.RESULT_TO_CONFIRM: "a reported result waits for your confirmation",
    NotificationKind.DISPUTE_RAISED: "a result was disputed",
}


class PreferencesSerializer(serializers.Serializer):
    """Each kind on (true) or off (false); PATCH any subset."""

    def get_fields(self):
        return {kind: serializers.BooleanField(required=False, help_text=HELP[kind])
                for kind in NotificationKind.values}


class PreferencesStrict(PreferencesSerializer):
    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(NotificationKind.values)) \
            if isinstance(self.initial_data, dict) else []
        if unknown:
            raise serializers.ValidationError({unknown[0]: ["Unknown notification kind."]})
        return attrs
