"""Sea and space areas, fleets and ships (R-MAP-3, R-FLT), movement orders and NO INTERCEPTION
markers per round (R-FLT-4, R-INT-4), sea hazards (R-SEA-2), and the record of each fleet
phase and naval battle (R-INT-6, R-NAV-13). Hidden fields (R-FLT-7) are never serialized for
anyone but the owner and the admin."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Area(models.Model):
    class Kind(models.TextChoices):
        OCEAN = "ocean", _("Ocean")
        COASTAL = "coastal", _("Coastal waters")
        ORBIT = "orbit", _("Orbit")
        ISLAND = "island", _("Island")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="areas")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    planet = models.ForeignKey("campaigns.Planet", null=True, blank=True,
                               on_delete=models.CASCADE, related_name="orbit_areas")
    adjacent = models.ManyToManyField("self", symmetrical=True, blank=True)
    borders_tiles = models.ManyToManyField("campaigns.Tile", blank=True,
                                           related_name="bordering_areas")
    owner = models.ForeignKey("campaigns.Player", null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="islands")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class Fleet(models.Model):
    class Kind(models.TextChoices):
        REGULAR = "regular", _("Regular fleet")
        PIRATE = "pirate", _("Pirates")
        BUCCANEER = "buccaneer", _("Buccaneers")
        TREASURE = "treasure", _("Treasure fleet")

    # The codes of ``standing_orders`` (R-FLT-5; the rules' POLICIES, BENEFITS, STANCES)
    class Interception(models.TextChoices):
        ALWAYS = "always", _("always")
        IF_STRONGER = "if_stronger", _("only if stronger")
        NEVER = "never", _("never")

    class Benefit(models.TextChoices):
        A = "a", _("advantage in the battle that follows")
        B = "b", _("move on")
        C = "c", _("avoid combat")
        D = "d", _("withdraw to a neighbouring area")

    class Stance(models.TextChoices):
        APPROACH = "approach", _("approach")
        HOLD = "hold", _("hold the distance")
        WITHDRAW = "withdraw", _("withdraw")
        AUTO = "auto", _("approach if stronger, else withdraw")

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="fleets")
    owner = models.ForeignKey("campaigns.Player", null=True, blank=True,
                              on_delete=models.CASCADE, related_name="fleets")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    admiral_rating = models.PositiveSmallIntegerField(default=0)
    area = models.ForeignKey(Area, on_delete=models.PROTECT, related_name="fleets")
    standing_orders = models.JSONField(default=dict, blank=True)  # R-FLT-5 (the line: Ship)
    # R-INT-6 arrival order: the round and step of the fleets phase in which it last entered
    # its area (null: placed by the admin or the map import); ties by id
    arrived_round = models.PositiveIntegerField(null=True, blank=True)
    arrived_step = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class Ship(models.Model):
    """A ship (R-FLT-2); ``position`` orders the battle line (1 = flagship)."""

    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="ships")
    position = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=80)
    ship_class = models.CharField(max_length=80, blank=True)
    attack = models.PositiveSmallIntegerField(default=1)
    defence = models.PositiveSmallIntegerField(default=1)
    agility = models.PositiveSmallIntegerField(default=1)
    capacity = models.PositiveSmallIntegerField(default=0)
    cargo = models.JSONField(default=list, blank=True)  # [{"name", "points"}] detachments
    crew = models.JSONField(default=list, blank=True)  # [{"name", "cp"}], bottom first
    seats = models.PositiveSmallIntegerField(null=True, blank=True)
    # D6 values (R-SPC-1): {"maneuver": "2D", "speed": 3, "targeting", "gun_damage", "shields",
    # "hull", "captain": {"name", "dice_system", "pip_system"} (optional)}
    datasheet = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["fleet", "position", "id"]


class FleetOrder(models.Model):
    """A fleet's movement order for a round (R-FLT-4): the areas to enter, in order. One per
    fleet and round, replaced while ``declare`` lasts; resolution follows the order of the
    rows' ids per player (R-FLT-6)."""

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="fleet_orders")
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="orders")
    path = models.JSONField(default=list)
    given_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "fleet"], name="fleet_order_once")]
        ordering = ["round", "id"]


class FleetMarker(models.Model):
    """A NO INTERCEPTION marker a fleet got in a round (R-INT-2, R-INT-4 c or d)."""

    class Kind(models.TextChoices):
        AVOID = "avoid", _("avoided combat")
        WITHDRAW = "withdraw", _("withdrew")

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="fleet_markers")
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="markers")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    partner = models.ForeignKey(Fleet, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "fleet"],
                                               name="fleet_marker_once")]


class SeaHazard(models.Model):
    """A sea hazard (R-SEA-2): hidden ship values placed in an area by the admin (no owner) or
    by the owner of that island (R-SEA-1 moves it to a conqueror). It triggers each time a
    hostile fleet enters (retreats and withdrawals included); ``hits`` are all it has taken in
    the campaign (they add up over its triggers); it is removed (``active`` false) when they
    reach its defence."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="sea_hazards")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="hazards")
    owner = models.ForeignKey("campaigns.Player", null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="sea_hazards")
    name = models.CharField(max_length=80)
    attack = models.PositiveSmallIntegerField(default=1)
    defence = models.PositiveSmallIntegerField(default=1)
    agility = models.PositiveSmallIntegerField(default=1)
    hits = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)
    triggered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class FleetPhase(models.Model):
    """The record of one round's fleet phase: when it was resolved, the players' order drawn
    (R-FLT-6), every movement, interception, hazard and conquest event, and the dice it drew
    (counters ``first_counter`` .. ``first_counter + dice_count - 1`` of the round's log).
    One per round: its existence marks the phase resolved (the job is idempotent)."""

    round = models.OneToOneField("campaigns.Round", on_delete=models.CASCADE,
                                 related_name="fleet_phase")
    resolved_at = models.DateTimeField()
    player_order = models.JSONField(default=list)
    events = models.JSONField(default=list)
    first_counter = models.PositiveIntegerField(default=0)
    dice_count = models.PositiveIntegerField(default=0)


class NavalBattle(models.Model):
    """An end-of-phase battle (R-INT-6) as the engine fought it: the sides (lines, stances,
    interception advantage), the outcome, the event log to replay it (R-NAV-13), the dice it
    drew in the round's log, and the victory points each player scored (R-VP-1)."""

    class Engine(models.TextChoices):
        DARK_FORCE = "dark_force", _("Dark Force naval rules")
        D6_SPACE = "d6_space", _("D6 space combat")

    round = models.ForeignKey("campaigns.Round", on_delete=models.CASCADE,
                              related_name="naval_battles")
    area = models.ForeignKey(Area, null=True, on_delete=models.SET_NULL,
                             related_name="naval_battles")
    sequence = models.PositiveSmallIntegerField(default=1)
    engine = models.CharField(max_length=12, choices=Engine.choices)
    attacker = models.ForeignKey("campaigns.Player", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    defender = models.ForeignKey("campaigns.Player", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    attacker_vp = models.PositiveIntegerField(default=0)
    defender_vp = models.PositiveIntegerField(default=0)
    sides = models.JSONField(default=list)
    outcome = models.JSONField(default=dict)
    events = models.JSONField(default=list)
    first_counter = models.PositiveIntegerField(default=0)
    dice_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "area", "sequence"],
                                               name="naval_battle_once")]
        ordering = ["round", "area", "sequence", "id"]


class OddsPreviewSlot(models.Model):
    """A naval odds preview (R-ODDS-1) running now: one row per preview in flight, so no
    more than ``slot``'s range run on the whole site and ``user_slot``'s range per user, across
    every web process and without Redis (``fleets.services.odds``). A row older than a few
    minutes belongs to a request that died and is taken over."""

    slot = models.PositiveSmallIntegerField(unique=True)
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="+")
    user_slot = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "user_slot"],
                                               name="odds_preview_user_slot_once")]
