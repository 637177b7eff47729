"""Serializers of the army lists API (R-ARM-1..3; API.md "Battles (tabletop)"): the lists as
shown, and the two ways to submit one (JSON entries or pasted text, or a roster file)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from battles.rosters import MAX_NAME


class EntrySerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME)
    points = serializers.IntegerField(min_value=0)


class ArmyListSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    faction = serializers.CharField(allow_blank=True)
    total = serializers.IntegerField(help_text="sum of the entries; checked against the limit "
                                               "(R-ARM-1)")
    roster_total = serializers.IntegerField(allow_null=True,
                                            help_text="the total the input stated, if any")
    entries = EntrySerializer(many=True)
    warnings = serializers.ListField(child=serializers.CharField())
    source = serializers.ChoiceField(choices=["text", "json", "ros", "rosz", "newrecruit"])
    submitted_at = serializers.DateTimeField()


class ArmyListsSerializer(serializers.Serializer):
    lists = ArmyListSerializer(many=True)


JSON_INPUT = inline_serializer("ArmyListInput", {
    "name": serializers.CharField(max_length=MAX_NAME, help_text="the list's name"),
    "faction": serializers.CharField(required=False, max_length=MAX_NAME),
    "entries": EntrySerializer(many=True, required=False,
                               help_text="the units; or give `text` instead"),
    "total": serializers.IntegerField(required=False, min_value=0,
                                      help_text="stated total, checked against the sum"),
    "text": serializers.CharField(required=False,
                                  help_text="pasted list, one `name - points` per line"),
})
FILE_INPUT = inline_serializer("ArmyListUpload", {
    "file": serializers.FileField(help_text=".ros, .rosz or New Recruit .json, at most 2 MB"),
})
