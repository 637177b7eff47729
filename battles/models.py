"""Tabletop battles, their results with history, and conquest rolls (R-BAT, R-CON)."""

from django.conf import settings
from django.db import models


class Battle(models.Model):
    """One attack fought on the table. For chained attacks (R-ATK-5) ``chain_position`` counts
    from 1 and the defender stays null until the link before is resolved (R-CON-6)."""

    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for the previous chain link
        OPEN = "open"  # to be played and reported
        DONE = "done"  # result confirmed (or defaulted)

    class Outcome(models.TextChoices):
        VICTORY = "victory"
        MORAL_VICTORY = "moral_victory"
        DRAW = "draw"
        DEFEAT = "defeat"

    class ResultStatus(models.TextChoices):
        NONE = ""
        REPORTED = "reported"
        CONFIRMED = "confirmed"
        DISPUTED = "disputed"

    WON = (Outcome.VICTORY, Outcome.MORAL_VICTORY)

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="battles")
    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE, related_name="battles")
    attack = models.OneToOneField("campaigns.Attack", on_delete=models.CASCADE,
                                  related_name="battle")
    tile = models.ForeignKey("campaigns.Tile", on_delete=models.CASCADE, related_name="battles")
    attacker = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE,
                                 related_name="battles_attacking")
    defender = models.ForeignKey("campaigns.Player", null=True, blank=True,
                                 on_delete=models.CASCADE, related_name="battles_defending")
    neutral = models.BooleanField(default=False)
    chain_position = models.PositiveSmallIntegerField(default=1)
    chain_length = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    point_limits = models.JSONField(default=dict, blank=True)
    bonus = models.JSONField(default=dict, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    place = models.CharField(max_length=200, blank=True)
    outcome = models.CharField(max_length=15, choices=Outcome.choices, blank=True)
    attacker_vp = models.PositiveIntegerField(default=0)
    defender_vp = models.PositiveIntegerField(default=0)
    result_status = models.CharField(max_length=10, choices=ResultStatus.choices, blank=True)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    reported_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    chain_decision = models.CharField(max_length=5, blank=True)  # "roll" / "waive" (R-CON-6)

    class Meta:
        ordering = ["round", "attack__order"]

    @property
    def won(self) -> bool:
        return self.result_status == self.ResultStatus.CONFIRMED and self.outcome in self.WON


class ResultChange(models.Model):
    """History of a battle's result (R-BAT-4): who changed it, when, old and new."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="history")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    old = models.JSONField(null=True)
    new = models.JSONField()

    class Meta:
        ordering = ["at", "id"]


class ConquestChoice(models.Model):
    """A player's sealed choice of which won attacks to roll (R-CON-4)."""

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="conquest_choices")
    player = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE,
                               related_name="conquest_choices")
    rolls = models.JSONField(default=list)  # attack ids
    defaulted = models.BooleanField(default=False)  # taken from conquest_default (R-RND-3)
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="choice_once")]


class ConquestRoll(models.Model):
    """One conquest roll (R-CON-1); one per attack at most (the unique key makes jobs
    idempotent). ``immediate`` marks a chain-link roll (R-CON-6)."""

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="conquest_rolls")
    attack = models.OneToOneField("campaigns.Attack", on_delete=models.CASCADE,
                                  related_name="conquest_roll")
    battle = models.ForeignKey(Battle, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    tile = models.ForeignKey("campaigns.Tile", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE, related_name="+")
    dice = models.JSONField()
    modifiers = models.JSONField()
    total = models.IntegerField()
    threshold = models.PositiveSmallIntegerField()
    success = models.BooleanField()
    immediate = models.BooleanField(default=False)
    counter = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["counter"]
