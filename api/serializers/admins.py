"""A campaign's admins: who they are, and naming one by account."""

from rest_framework import serializers

from campaigns.selectors.players import display_name


class AdminSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True, help_text="the user's id")
    username = serializers.CharField(read_only=True)
    display_name = serializers.SerializerMethodField(
        help_text="the name the person chose on their profile, else empty")

    def get_display_name(self, user) -> str:
        return display_name(user)


class AdminAddSerializer(serializers.Serializer):
    account = serializers.CharField(
        max_length=254,
        help_text="username or e-mail address of an existing active account")
