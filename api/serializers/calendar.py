"""Serializers of the calendar API: the secret token of a user's personal iCalendar feed
(R-BAT-2; API.md "Battles (tabletop)")."""

from rest_framework import serializers


class CalendarTokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.URLField(help_text="the personal feed's address, to subscribe to")
    created_at = serializers.DateTimeField()
