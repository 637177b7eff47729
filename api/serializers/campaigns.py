"""Serializers of the campaigns API: campaigns and their players (API.md "Campaigns, map,
standings")."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Campaign, Round
from campaigns.selectors.campaigns import round_summary
from campaigns.values import ID_MAX


class CurrentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    phase = serializers.ChoiceField(Round.Phase.choices)
    phase_deadline = serializers.DateTimeField(allow_null=True)


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    visibility = serializers.ChoiceField(Campaign.Visibility.choices)
    status = serializers.ChoiceField(Campaign.Status.choices)
    current_round = serializers.SerializerMethodField(
        help_text="the campaign's highest-numbered round, null before the first")
    ruleset = serializers.DictField(help_text="the normalized ruleset (RULES.md Ruleset keys)")
    join_requests_open = serializers.BooleanField(
        help_text="a public campaign that takes join requests (issue 17)")

    @extend_schema_field(CurrentRoundSerializer(allow_null=True))
    def get_current_round(self, campaign):
        current = round_summary(campaign)
        return None if current is None else CurrentRoundSerializer(current).data


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.DictField(required=False, allow_null=True,
                                    help_text="missing keys take their defaults")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices,
                                         default=Campaign.Visibility.PRIVATE)


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    ruleset = serializers.DictField(
        required=False, help_text="merged key by key into the current ruleset")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices, required=False)
    join_requests_open = serializers.BooleanField(required=False)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    faction = serializers.CharField()
    colour = serializers.CharField()
    requisition = serializers.SerializerMethodField(
        help_text="only on the caller's own row and for the campaign admin; null otherwise")

    def get_requisition(self, player) -> int | None:
        viewer = self.context.get("viewer")
        shown = self.context.get("admin") or (viewer is not None and player.pk == viewer.pk)
        return player.requisition if shown else None


class PlayerAddSerializer(serializers.Serializer):
    user = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                    help_text="user id (or give `username`)")
    username = serializers.CharField(required=False, max_length=150)
    faction = serializers.CharField(max_length=80)
    colour = serializers.CharField(required=False, max_length=7, help_text="#rrggbb")

    def validate(self, data):
        if ("user" in data) == ("username" in data):
            raise serializers.ValidationError({"user": ["Give either `user` or `username`."]})
        return data
