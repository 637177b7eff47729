"""Serializers of the attacks API: attack army purchases and attack declarations (R-ECO-1,
R-ATK; API.md "Rounds, declarations, conquest")."""

from rest_framework import serializers

from battles.services.attacks import MAX_ARMIES
from campaigns.models import Attack, Purchase, Tile


class PurchaseInput(serializers.Serializer):
    attack_armies = serializers.IntegerField(max_value=MAX_ARMIES,
                                             help_text="attack armies to buy (R-ECO-1)")


class PurchaseOutput(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    requisition = serializers.IntegerField(source="player.requisition",
                                           help_text="the balance after the purchase")
    armies_bought = serializers.IntegerField(help_text="bought this round in all")
    armies_used = serializers.IntegerField(help_text="declarations made this round, "
                                                     "withdrawn ones included (R-ATK-5)")

    class Meta:
        model = Purchase
        fields = ["id", "round", "attack_armies", "cost", "requisition", "armies_bought",
                  "armies_used", "created_at"]


class AttackInput(serializers.Serializer):
    tile = serializers.PrimaryKeyRelatedField(queryset=Tile.objects.none())

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        if campaign is not None:  # only the campaign's own tiles (others: 400, never 500)
            self.fields["tile"].queryset = Tile.objects.filter(campaign=campaign)


class AttackOutput(serializers.ModelSerializer):
    attacker = serializers.IntegerField(source="player_id")
    tile = serializers.IntegerField(source="tile_id")

    class Meta:
        model = Attack
        fields = ["id", "tile", "attacker", "source", "order", "status", "status_reason",
                  "created_at"]
