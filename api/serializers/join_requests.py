"""Serializers of join requests."""

from rest_framework import serializers

from campaigns.models import JoinRequest
from campaigns.services.invitations import MESSAGE_MAX


class JoinRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    message = serializers.CharField()
    status = serializers.ChoiceField(JoinRequest.Status.choices)
    player = serializers.IntegerField(source="player_id", allow_null=True)
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class JoinRequestCreateSerializer(serializers.Serializer):
    message = serializers.CharField(required=False, allow_blank=True, max_length=MESSAGE_MAX)


class JoinRequestAcceptSerializer(serializers.Serializer):
    faction = serializers.CharField(max_length=80)
    colour = serializers.CharField(required=False, max_length=7, help_text="#rrggbb")
