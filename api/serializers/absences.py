"""Absences (R-RND-3): who is away when. Every member sees the dates; the note
is the player's and the campaign admins' only (``note`` is null for anyone else)."""

from rest_framework import serializers

from campaigns.models import Player
from campaigns.selectors.absences import note_visible
from campaigns.selectors.players import display_name

from .common import CampaignObjectField


class AbsenceSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    faction = serializers.CharField(source="player.faction", read_only=True)
    username = serializers.CharField(source="player.user.username", read_only=True)
    display_name = serializers.SerializerMethodField(
        help_text="the name the person chose on their profile, else empty")
    starts_on = serializers.DateField(read_only=True,
                                      help_text="first day away (campaign's calendar)")
    ends_on = serializers.DateField(read_only=True,
                                    help_text="last day away, inclusive (campaign's calendar)")
    days = serializers.IntegerField(read_only=True)
    note = serializers.SerializerMethodField(
        help_text="the player's note; null unless you are that player or a campaign admin")

    def get_display_name(self, absence) -> str:
        return display_name(absence.player.user)

    def get_note(self, absence) -> str | None:
        if note_visible(absence, user=self.context.get("user"),
                        is_admin=self.context.get("is_admin", False)):
            return absence.note
        return None


class AbsenceAddSerializer(serializers.Serializer):
    starts_on = serializers.DateField(help_text="first day away (campaign's calendar)")
    ends_on = serializers.DateField(help_text="last day away, inclusive")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    player = CampaignObjectField(Player, required=False,
                                 help_text="campaign admins only: the player who is away "
                                           "(default: yourself)")
