"""Serializers of "done for this phase" (early advance, R-RND-2 [reading])."""

from rest_framework import serializers

from rules.rounds import WAITING


class PhaseDoneInput(serializers.Serializer):
    phase = serializers.ChoiceField(
        choices=sorted(WAITING), required=False,
        help_text="The phase you are done with (the one you saw). If the round has left it, "
                  "the answer is 409 phase_over and nothing is marked.")


class ReadinessSerializer(serializers.Serializer):
    """The current phase's early-advance state: counts only, never who owes what."""

    phase = serializers.CharField(help_text="the round's phase now")
    early_advance = serializers.BooleanField(
        help_text="the phase advances early once everyone is done (ruleset key "
                  "early_advance on, campaign not paused, a phase that waits for players)")
    done = serializers.BooleanField(help_text="you said done for this phase")
    ready = serializers.IntegerField(help_text="players done (acted, said done or away)")
    players = serializers.IntegerField(help_text="players of the campaign")
    waiting_for = serializers.IntegerField(help_text="players the phase still waits for")
    advanced = serializers.BooleanField(help_text="this call advanced the phase")
