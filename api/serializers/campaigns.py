"""Serializers of the campaigns API: campaigns and their players (API.md "Campaigns, map,
standings")."""

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import datetime_text
from campaigns.models import Campaign, Round
from campaigns.selectors.campaigns import round_summary
from campaigns.selectors.players import display_name, seat_holders
from campaigns.values import ID_MAX


class CurrentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    phase = serializers.ChoiceField(Round.Phase.choices)
    phase_deadline = serializers.DateTimeField(allow_null=True)


TIME_ZONE_HELP = "IANA time zone name, e.g. Europe/Berlin"
LANGUAGE_HELP = "the campaign's language, for people the site does not know yet"
LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]  # one LanguageEnum in the schema


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    visibility = serializers.ChoiceField(Campaign.Visibility.choices)
    status = serializers.ChoiceField(Campaign.Status.choices)
    current_round = serializers.SerializerMethodField(
        help_text="the campaign's highest-numbered round, null before the first")
    ruleset = serializers.DictField(help_text="the normalized ruleset (RULES.md Ruleset keys)")
    join_requests_open = serializers.BooleanField(
        help_text="a public campaign that takes join requests")
    time_zone = serializers.CharField(
        help_text=TIME_ZONE_HELP + "; the pages' zone for members without their own and for "
                  "visitors (times in the API stay UTC)")
    language = serializers.ChoiceField(
        LANGUAGE_CODES, help_text=LANGUAGE_HELP + "; invitations to addresses without an "
        "account, anonymous readers, the public feeds, and the API's texts for callers who ask "
        "for no language and set none in their profile")
    # a paused campaign refuses player writes (409 campaign_paused)
    paused = serializers.SerializerMethodField(help_text="the admin paused the campaign")
    paused_at = serializers.DateTimeField(allow_null=True, help_text="null unless paused")
    pause_reason = serializers.CharField(allow_blank=True,
                                         help_text="shown on every page while paused")
    # an admin's private copy that mails nobody
    is_sandbox = serializers.BooleanField(help_text="a sandbox copy (never mails anyone)")
    sandbox_of = serializers.IntegerField(source="sandbox_of_id", allow_null=True,
                                          help_text="the campaign a sandbox copies")

    def to_representation(self, campaign) -> dict:
        """The fields above, built directly (the campaign detail's field machinery
        cost more than its query); tests/api/test_schema_responses.py checks the answer."""
        return {"id": campaign.pk, "name": campaign.name, "visibility": campaign.visibility,
                "status": campaign.status, "current_round": self.get_current_round(campaign),
                "ruleset": {str(key): value for key, value in campaign.ruleset.items()},
                "join_requests_open": bool(campaign.join_requests_open),
                "time_zone": campaign.time_zone, "language": campaign.language,
                "paused": self.get_paused(campaign),
                "paused_at": datetime_text(campaign.paused_at),
                "pause_reason": campaign.pause_reason, "is_sandbox": bool(campaign.is_sandbox),
                "sandbox_of": campaign.sandbox_of_id}

    def get_paused(self, campaign) -> bool:
        return campaign.paused_at is not None

    @extend_schema_field(CurrentRoundSerializer(allow_null=True))
    def get_current_round(self, campaign):
        current = round_summary(campaign)
        return None if current is None else {
            "number": current["number"], "phase": current["phase"],
            "phase_deadline": datetime_text(current["phase_deadline"])}


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.DictField(required=False, allow_null=True,
                                    help_text="missing keys take their defaults")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices,
                                         default=Campaign.Visibility.PRIVATE)
    time_zone = serializers.CharField(required=False, max_length=64,
                                      help_text=TIME_ZONE_HELP + "; default: the site's")
    language = serializers.ChoiceField(LANGUAGE_CODES, required=False,
                                       help_text=LANGUAGE_HELP + "; default: the site's")


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    ruleset = serializers.DictField(
        required=False, help_text="merged key by key into the current ruleset")
    visibility = serializers.ChoiceField(Campaign.Visibility.choices, required=False)
    join_requests_open = serializers.BooleanField(required=False)
    time_zone = serializers.CharField(required=False, max_length=64, help_text=TIME_ZONE_HELP)
    language = serializers.ChoiceField(LANGUAGE_CODES, required=False,
                                       help_text=LANGUAGE_HELP)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username",
                                     help_text="the seat's current holder")
    display_name = serializers.SerializerMethodField(
        help_text="the holder's own display name (their profile); \"\" if none")
    faction = serializers.CharField()
    colour = serializers.CharField()
    requisition = serializers.SerializerMethodField(
        help_text="only on the caller's own row and for the campaign admin; null otherwise")

    def get_display_name(self, player) -> str:
        return display_name(player.user)

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


class SeatHolderSerializer(serializers.Serializer):
    username = serializers.SerializerMethodField(help_text="null if the account is gone")
    display_name = serializers.SerializerMethodField()
    since = serializers.DateTimeField()
    until = serializers.DateTimeField(allow_null=True, help_text="null: the current holder")
    round_number = serializers.IntegerField(
        allow_null=True, help_text="the round the holder took over in; null: from the start")

    def get_username(self, holder) -> str | None:
        return holder.user.username if holder.user is not None else None

    def get_display_name(self, holder) -> str:
        return display_name(holder.user)


class PlayerDetailSerializer(PlayerSerializer):
    holders = serializers.SerializerMethodField(
        help_text="who held the seat and from when, oldest first")

    @extend_schema_field(SeatHolderSerializer(many=True))
    def get_holders(self, player):
        return SeatHolderSerializer(seat_holders(player), many=True).data


class PlayerUpdateSerializer(serializers.Serializer):
    faction = serializers.CharField(required=False, max_length=80)
    colour = serializers.CharField(required=False, max_length=7, help_text="#rrggbb")


class PlayerReplaceSerializer(serializers.Serializer):
    account = serializers.CharField(
        required=False, max_length=254,
        help_text="username or e-mail address of an existing account: it takes over the "
                  "seat at once")
    email = serializers.EmailField(
        required=False, max_length=254,
        help_text="or: mail a seat invitation to this address; accepting it passes the seat")
    expires_at = serializers.DateTimeField(required=False, allow_null=True,
                                           help_text="the seat invitation's expiry")

    def validate(self, data):
        if ("account" in data) == ("email" in data):
            raise serializers.ValidationError(
                {"account": ["Give either `account` or `email`."]})
        return data
