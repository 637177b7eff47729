"""Serializers of the schedule API: agreeing on a battle's date and place (R-BAT-2; API.md
"Battles (tabletop)"). A proposal is shown by ``api.serializers.battles.ProposalSerializer``,
which the battle embeds."""

from rest_framework import serializers

from battles.services.schedule import MAX_PLACE
from campaigns.values import ID_MAX


class ProposeInput(serializers.Serializer):
    proposed_at = serializers.DateTimeField(help_text="date and time, ISO 8601 with time zone; "
                                                      "in the future")
    place = serializers.CharField(max_length=MAX_PLACE)


class AcceptInput(serializers.Serializer):
    proposal = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                        help_text="the proposal meant; 409 if superseded")
