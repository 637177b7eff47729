"""Serializers of the naval battle reports API (API.md "Fleets and naval battles"; R-FLT-7,
R-NAV-13). A report is ``fleets.selectors.fleets.naval_report``: the summary every reader
gets, and the replay keys only when ``replay`` is true."""

from rest_framework import serializers

from campaigns.values import ROUND_NUMBER_MAX

REPLAY_KEYS = ("sides", "outcome", "events", "first_counter", "dice_count")


class RoundFilter(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=ROUND_NUMBER_MAX, required=False,
                                     help_text="round number")


class EventSerializer(serializers.Serializer):
    """One event (R-NAV-13): ``rule``, ``step``, the dice faces it used (``dice``, if any) and
    what happened (further keys per step)."""

    rule = serializers.CharField()
    step = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), required=False)


# a field named ``class`` can not be declared in a class body
LostShipSerializer = type("LostShipSerializer", (serializers.Serializer,), {
    "__doc__": "A ship a side lost (R-FLT-7): its name and class, nothing else.",
    "name": serializers.CharField(), "class": serializers.CharField()})


class SideLossesSerializer(serializers.Serializer):
    sunk = LostShipSerializer(many=True, help_text="sunk (D6 space: destroyed), by name")
    captured = LostShipSerializer(many=True, help_text="taken by the other side, by name")


class LossesSerializer(serializers.Serializer):
    attacker = SideLossesSerializer()
    defender = SideLossesSerializer()


class NavalBattleSerializer(serializers.Serializer):
    """Every reader: where (``round``, ``area``), who (``attacker``, ``defender``), the outcome
    and the ships lost per side. The players who fought it and the admin (``replay`` true) also
    get the sides with lines, values, crews, cargo and stances, the full outcome, the event log
    with every roll and its dice counters (R-FLT-7)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField(help_text="round number")
    area = serializers.IntegerField(allow_null=True)
    sequence = serializers.IntegerField()
    engine = serializers.CharField()
    attacker = serializers.IntegerField(allow_null=True, help_text="player id; null for pirates")
    defender = serializers.IntegerField(allow_null=True)
    winner = serializers.ChoiceField(choices=["attacker", "defender"], allow_null=True,
                                     help_text="null: nobody won")
    attacker_vp = serializers.IntegerField()
    defender_vp = serializers.IntegerField()
    losses = LossesSerializer()
    replay = serializers.BooleanField(help_text="whether the replay keys follow (R-FLT-7)")
    sides = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="each side's line, flagship first; each ship with id, name, class, its values "
                  "(attack, defence, agility; D6 space: datasheet), and the crew (name, cp; "
                  "bottom first) and cargo (name, points) it went into battle with (battles "
                  "stored before crews were recorded have none)")
    outcome = serializers.DictField(required=False)
    events = EventSerializer(many=True, required=False)
    first_counter = serializers.IntegerField(required=False)
    dice_count = serializers.IntegerField(required=False)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if instance["replay"]:
            data["events"] = instance["events"]  # every key of each event, not the schema's
        else:
            for key in REPLAY_KEYS:
                data.pop(key, None)
        return data
