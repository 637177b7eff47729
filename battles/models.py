"""Tabletop battles, their results with history, and conquest rolls (R-BAT, R-CON). Each
code's human label (translatable) is on its choices here."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.conquest import WON_OUTCOMES, is_won


class Battle(models.Model):
    """One attack fought on the table. For chained attacks (R-ATK-5) ``chain_position`` counts
    from 1 and the defender stays null until the link before is resolved (R-CON-6)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the earlier attack on the tile")  # previous link
        OPEN = "open", _("to be played")  # to be played and reported
        DONE = "done", _("decided")  # result confirmed (or defaulted)

    class Outcome(models.TextChoices):
        VICTORY = "victory", _("Victory")
        MORAL_VICTORY = "moral_victory", _("Moral victory")
        DRAW = "draw", _("Draw")
        DEFEAT = "defeat", _("Defeat")

    class ResultStatus(models.TextChoices):
        NONE = "", _("no result")
        REPORTED = "reported", _("reported")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    WON = WON_OUTCOMES  # won attacks (R-BAT-3), as the rules define them

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
    lists_revealed_at = models.DateTimeField(null=True, blank=True)  # R-ARM-3
    calendar_sequence = models.PositiveIntegerField(default=0)  # bumped when date/place change
    schedule_changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "attack__order"]

    @property
    def won(self) -> bool:
        return self.result_status == self.ResultStatus.CONFIRMED and is_won(self.outcome)


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
    """One conquest roll (R-CON-1) as it was made: threshold and the rule that set it,
    every modifier with its rule, the multi-conquest count ``k`` used (R-CON-4/6; null for an
    immediate chain roll, which has none), the faces and the result. Pages and the API show
    these, never a recomputation against today's map. One per attack at most (the unique key
    makes jobs idempotent). ``immediate`` marks a chain-link roll (R-CON-6)."""

    class Modifier(models.TextChoices):
        """The ``name`` of each entry of ``modifiers`` (``rules.conquest.Modifier``)."""

        MORAL_VICTORY = "moral_victory", _("Moral victory")
        DEFENCE = "defence", _("Defence line")
        TERRAIN = "terrain", _("Terrain")
        SHIELD = "shield", _("Shield generator")
        MULTI_CONQUEST = "multi_conquest", _("Several conquests on one planet")

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
    threshold_rule = models.CharField(max_length=10, blank=True)  # R-CON-1 or R-CON-2
    k = models.PositiveSmallIntegerField(null=True, blank=True)  # R-CON-4; null: chain roll
    success = models.BooleanField()
    immediate = models.BooleanField(default=False)
    counter = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["counter"]


class ArmyList(models.Model):
    """A participant's army list for one battle (R-ARM-1..3): one per battle and player,
    replaceable until the battle's lists are revealed (``Battle.lists_revealed_at``)."""

    class Source(models.TextChoices):
        """What the list was read from (``battles.rosters.SOURCES``)."""

        TEXT = "text", _("pasted text")
        JSON = "json", _("JSON")
        ROS = "ros", _("BattleScribe .ros")
        ROSZ = "rosz", _("BattleScribe .rosz")
        NEWRECRUIT = "newrecruit", _("New Recruit")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="army_lists")
    player = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE,
                               related_name="army_lists")
    name = models.CharField(max_length=200, blank=True)
    faction = models.CharField(max_length=200, blank=True)
    entries = models.JSONField(default=list)  # [{"name", "points"}]
    total = models.PositiveIntegerField()
    roster_total = models.PositiveIntegerField(null=True, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    settings = models.JSONField(default=list, blank=True)  # [{"name", "value"}], R-ARM-2
    source = models.CharField(max_length=12, choices=Source.choices)
    submitted_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["battle", "player"], name="list_once")]
        ordering = ["battle", "player"]


class ScheduleProposal(models.Model):
    """A proposed date, time and place for a battle (R-BAT-2). At most one is ``proposed`` at a
    time; a counter-proposal supersedes it, acceptance fixes the battle's date."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("open")
        ACCEPTED = "accepted", _("accepted")
        SUPERSEDED = "superseded", _("superseded")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="proposals")
    proposed_by = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE,
                                    related_name="+")
    proposed_at = models.DateTimeField()
    place = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["battle"], condition=Q(status="proposed"),
                                               name="one_open_proposal")]
        ordering = ["battle", "created_at", "id"]


class CalendarToken(models.Model):
    """The secret of a user's personal calendar feed URL (R-BAT-2); regenerable."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="calendar_token")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField()


class CalendarDeadline(models.Model):
    """A phase deadline as the calendar feeds publish it: ``sequence`` grows whenever ``at``
    moves, so subscribed clients take the change (RFC 5545 SEQUENCE)."""

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="calendar_deadlines")
    phase = models.CharField(max_length=10)
    at = models.DateTimeField()
    sequence = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "phase"],
                                               name="deadline_once")]


class NotificationKind(models.TextChoices):
    PHASE_OPENED = "phase_opened"
    DEADLINE_SOON = "deadline_soon"
    DATE_PROPOSED = "date_proposed"
    RESULT_TO_CONFIRM = "result_to_confirm"
    DISPUTE_RAISED = "dispute_raised"


class NotificationPreference(models.Model):
    """A player's switch for one kind of e-mail; no row means on."""

    player = models.ForeignKey("campaigns.Player", on_delete=models.CASCADE,
                               related_name="notification_preferences")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    enabled = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "kind"],
                                               name="preference_once")]


class Notification(models.Model):
    """One e-mail to one user about one event. The unique key (recipient, kind, event) makes
    queueing and sending happen once however often a hook or job runs; ``sent_at`` is set
    when the mail went out."""

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="notifications")
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="+")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    event = models.CharField(max_length=120)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["recipient", "kind", "event"],
                                               name="notification_once")]
        ordering = ["id"]
