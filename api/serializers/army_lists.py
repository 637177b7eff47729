"""Serializers of the army lists API (R-ARM-1..3; API.md "Battles (tabletop)"): the lists as
shown, and the two ways to submit one (JSON entries or pasted text, or a roster file)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from battles.rosters import MAX_NAME


class EntrySerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME)
    points = serializers.IntegerField(min_value=0)


class ArmyListSettingSerializer(serializers.Serializer):
    name = serializers.CharField(allow_blank=True, help_text="e.g. `Battle Size`; may be empty")
    value = serializers.CharField(allow_blank=True,
                                  help_text="what was chosen, e.g. `Strike Force`")


class ArmyListSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    faction = serializers.CharField(allow_blank=True)
    total = serializers.IntegerField(help_text="sum of the entries; checked against the limit "
                                               "(R-ARM-1)")
    roster_total = serializers.IntegerField(allow_null=True,
                                            help_text="the total the input stated, if any")
    entries = EntrySerializer(many=True)
    settings = ArmyListSettingSerializer(
        many=True, help_text="the list's settings (battle size, detachment, lores, ...): no "
                             "units, no points (R-ARM-2)")
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
                                  help_text="pasted list: the text export of the Warhammer "
                                            "40,000 or Age of Sigmar app, New Recruit or "
                                            "Listbot, or one `name - points` per line"),
})
FILE_INPUT = inline_serializer("ArmyListUpload", {
    "file": serializers.FileField(help_text="BattleScribe / New Recruit .ros or .rosz, or New "
                                            "Recruit JSON, recognised by content; at most "
                                            "2 MB"),
})
