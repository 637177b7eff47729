"""Serializers of the auth API: the token answer and who the credentials belong to."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


MeSerializer = inline_serializer("Me", {
    "id": serializers.IntegerField(), "username": serializers.CharField(),
    "is_staff": serializers.BooleanField()})
