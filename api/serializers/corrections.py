"""Serializers of the organiser's corrections (R-SEC-2): each asks for a reason, shown in the
audit log with who, when, before and after."""

from rest_framework import serializers

from battles.models import Battle
from battles.services.corrections import MAX_ARMIES, MAX_REQUISITION
from battles.services.results import MAX_VP
from campaigns.services.corrections import MAX_REASON


def reason_field():
    return serializers.CharField(max_length=MAX_REASON,
                                 help_text="why the organiser makes this correction (required; "
                                           "shown in the audit log)")


class ReasonInput(serializers.Serializer):
    reason = reason_field()


class ArmiesInput(serializers.Serializer):
    requisition = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_REQUISITION,
        help_text="the player's new requisition balance (R-ECO-1)")
    armies = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_ARMIES,
        help_text="attack armies the player has left to declare with this round (R-ATK-1); "
                  "declare phase only (409 otherwise)")
    reason = reason_field()


class ArmiesOutput(serializers.Serializer):
    requisition = serializers.IntegerField(help_text="the player's requisition now")
    armies = serializers.IntegerField(help_text="attack armies left this round")


class DoneForInput(serializers.Serializer):
    """For the round's current phase."""

    reason = reason_field()


class DoneForOutput(serializers.Serializer):
    created = serializers.BooleanField(help_text="the mark is new")
    advanced = serializers.BooleanField(help_text="this call advanced the phase (R-RND-2)")


class AwayForInput(serializers.Serializer):
    starts_on = serializers.DateField(help_text="first day away (campaign's calendar)")
    ends_on = serializers.DateField(help_text="last day away, inclusive")
    reason = reason_field()


class ResultCorrectInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Battle.Outcome.choices,
                                      help_text="from the attacker's side (R-BAT-3)")
    attacker_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)
    defender_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)
    reason = reason_field()
