"""Serializers of the auth API: the token answer, who the credentials belong to, and the
caller's profile."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from campaigns.models import Profile
from campaigns.services.accounts import LANGUAGE_CODES


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenRotateSerializer(serializers.Serializer):
    current_password = serializers.CharField(write_only=True, trim_whitespace=False,
                                             max_length=4096)


MeSerializer = inline_serializer("Me", {
    "id": serializers.IntegerField(), "username": serializers.CharField(),
    "is_staff": serializers.BooleanField()})


class ProfileSerializer(serializers.Serializer):
    """The caller's profile; PATCH any subset. "" means the default (language: the browser's;
    time zone: the campaign's or the site's)."""

    display_name = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                         max_length=Profile.DISPLAY_NAME_MAX,
                                         help_text="one line")
    language = serializers.ChoiceField(required=False, allow_blank=True,
                                       choices=list(LANGUAGE_CODES),
                                       help_text="a language of the site or \"\"")
    time_zone = serializers.CharField(required=False, allow_blank=True,
                                      max_length=Profile.TIME_ZONE_MAX,
                                      help_text="an IANA name (Europe/Berlin) or \"\"")


class ProfileStrict(ProfileSerializer):
    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields)) \
            if isinstance(self.initial_data, dict) else []
        if unknown:
            raise serializers.ValidationError({unknown[0]: ["Unknown field."]})
        return attrs


PersonalDataSerializer = inline_serializer("PersonalData", {
    "format": serializers.CharField(), "exported_at": serializers.DateTimeField(),
    "account": serializers.DictField(), "profile": serializers.DictField(),
    "campaigns_administered": serializers.ListField(child=serializers.IntegerField()),
    "seats": serializers.ListField(child=serializers.DictField()),
    "result_reports": serializers.ListField(child=serializers.DictField())})
