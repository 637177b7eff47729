"""Serializers of invitations: the admin's list and its writes, the state of an
invitation behind a token, and accepting it."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Invitation
from campaigns.selectors.invitations import STATES, invitation_state
from campaigns.services.invitations import MAX_ADDRESSES, MAX_USES

EMAILS_MAX = MAX_ADDRESSES * 260


class InvitationSerializer(serializers.Serializer):
    """An invitation as its campaign's admin sees it (never its token: only a hash is kept)."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(Invitation.Kind.choices)
    email = serializers.CharField(help_text="the invitee's address; empty for a link")
    state = serializers.SerializerMethodField(help_text="active, revoked, expired or used_up")
    faction = serializers.CharField(help_text="set by the admin; empty: the invitee chooses")
    colour = serializers.CharField(help_text="#rrggbb set by the admin; empty: the invitee "
                                             "chooses")
    max_uses = serializers.IntegerField(allow_null=True, help_text="null: unlimited")
    uses = serializers.IntegerField()
    expires_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True, help_text="when the mail last went out")
    seat = serializers.IntegerField(
        source="seat_id", allow_null=True, default=None,
        help_text="the player (seat) the invitee takes over; null: a new seat")

    @extend_schema_field(serializers.ChoiceField(list(STATES)))
    def get_state(self, invitation) -> str:
        return invitation_state(invitation)


class _Preset(serializers.Serializer):
    faction = serializers.CharField(required=False, allow_blank=True, max_length=80,
                                    help_text="preset for the invitee; empty: they choose")
    colour = serializers.CharField(required=False, allow_blank=True, max_length=7,
                                   help_text="#rrggbb preset for the invitee")
    expires_at = serializers.DateTimeField(required=False, allow_null=True)


class InvitationEmailsSerializer(_Preset):
    emails = serializers.CharField(
        max_length=EMAILS_MAX,
        help_text="one or many addresses, separated by commas, semicolons or line breaks; "
                  "duplicates are merged")


class InvitationsCreatedSerializer(serializers.Serializer):
    invitations = InvitationSerializer(many=True)


class InvitationLinkCreateSerializer(_Preset):
    max_uses = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                        max_value=MAX_USES, help_text="null: unlimited")


class InvitationLinkSerializer(InvitationSerializer):
    token = serializers.CharField(help_text="shown once: only its hash is stored")
    link = serializers.CharField(help_text="the invitation page to hand out")


class InvitationPublicSerializer(serializers.Serializer):
    """What a token's holder sees: the campaign, the state, what the admin preset."""

    campaign = serializers.IntegerField()
    campaign_name = serializers.CharField()
    state = serializers.ChoiceField(list(STATES))
    faction = serializers.CharField()
    colour = serializers.CharField()
    expires_at = serializers.DateTimeField(allow_null=True)


class MyInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    campaign_name = serializers.CharField()
    state = serializers.ChoiceField(list(STATES))
    faction = serializers.CharField()
    expires_at = serializers.DateTimeField(allow_null=True)


class InvitationAcceptSerializer(serializers.Serializer):
    faction = serializers.CharField(required=False, allow_blank=True, max_length=80,
                                    help_text="needed unless the admin set one")
    colour = serializers.CharField(required=False, allow_blank=True, max_length=7,
                                   help_text="#rrggbb; ignored if the admin set one")


def public_data(invitation, **extra) -> dict:
    """The fields of ``InvitationPublicSerializer``/``MyInvitationSerializer``."""
    return {"id": invitation.pk, "campaign": invitation.campaign_id,
            "campaign_name": invitation.campaign.name, "state": invitation_state(invitation),
            "faction": invitation.faction, "colour": invitation.colour,
            "expires_at": invitation.expires_at, **extra}
