"""Sea and space areas, fleets and ships (R-MAP-3, R-FLT). Hidden fields (R-FLT-7) are never
serialized for anyone but the owner and the admin."""

from django.db import models


class Area(models.Model):
    class Kind(models.TextChoices):
        OCEAN = "ocean"
        COASTAL = "coastal"
        ORBIT = "orbit"
        ISLAND = "island"

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
        REGULAR = "regular"
        PIRATE = "pirate"
        BUCCANEER = "buccaneer"
        TREASURE = "treasure"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="fleets")
    owner = models.ForeignKey("campaigns.Player", null=True, blank=True,
                              on_delete=models.CASCADE, related_name="fleets")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    admiral_rating = models.PositiveSmallIntegerField(default=0)
    area = models.ForeignKey(Area, on_delete=models.PROTECT, related_name="fleets")
    standing_orders = models.JSONField(default=dict, blank=True)

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
    datasheet = models.JSONField(null=True, blank=True)  # D6 values (R-SPC-1)

    class Meta:
        ordering = ["fleet", "position", "id"]
