"""Serializers of the pause API. The services check the input after the
campaign's state (API.md General: 409 before 400), so these describe the bodies only."""

from rest_framework import serializers

from rules.ruleset import PHASE_HOURS_RANGE


class PauseSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                   help_text="shown on every page of the campaign while paused")


class ExtendSerializer(serializers.Serializer):
    hours = serializers.IntegerField(min_value=PHASE_HOURS_RANGE[0],
                                     max_value=PHASE_HOURS_RANGE[1],
                                     help_text="how much later the current deadline falls "
                                               "(R-RND-1); while paused, the time left grows")
