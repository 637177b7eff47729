"""Django admin for the campaign core. A round's ``server_seed`` is never shown (R-DICE-2).
Every edit of campaign data is recorded in the campaign's audit log (``AuditedAdmin``)."""

from django.contrib import admin

from campaigns.admin_audit import AuditedAdmin
from campaigns.models import (
    Attack,
    Campaign,
    DiceRoll,
    JobRun,
    Marker,
    MarkerType,
    Planet,
    Player,
    Purchase,
    Round,
    RoundStandings,
    Tile,
    TileLink,
)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("user", "faction", "colour", "requisition")
    raw_id_fields = ("user",)


class MarkerTypeInline(admin.TabularInline):
    model = MarkerType
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("name", "visibility", "status", "created_at")
    list_filter = ("visibility", "status")
    search_fields = ("name",)
    filter_horizontal = ("admins",)
    inlines = (PlayerInline, MarkerTypeInline)


@admin.register(Player)
class PlayerAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("user", "campaign", "faction", "colour", "requisition", "joined_at")
    list_filter = ("campaign",)
    search_fields = ("user__username", "faction")
    list_select_related = ("user", "campaign")
    raw_id_fields = ("user",)


@admin.register(Planet)
class PlanetAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("name", "campaign")
    list_filter = ("campaign",)
    search_fields = ("name",)


@admin.register(Tile)
class TileAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("id", "planet", "q", "r", "owner", "features")
    list_filter = ("campaign", "planet")
    list_select_related = ("planet", "owner__user")
    raw_id_fields = ("planet", "owner")


@admin.register(TileLink)
class TileLinkAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("id", "campaign", "a", "b")
    list_filter = ("campaign",)
    raw_id_fields = ("a", "b")


@admin.register(MarkerType)
class MarkerTypeAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("code", "name", "campaign", "army_points_bonus", "conquest_modifier",
                    "radius")
    list_filter = ("campaign",)


@admin.register(Marker)
class MarkerAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("id", "type", "tile", "campaign")
    list_filter = ("campaign", "type__code")
    list_select_related = ("type", "tile")
    raw_id_fields = ("tile",)


@admin.register(Round)
class RoundAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("campaign", "number", "phase", "phase_deadline", "seed_revealed",
                    "closed_at")
    list_filter = ("phase", "campaign")
    exclude = ("server_seed",)
    readonly_fields = ("seed_commitment", "seed_revealed", "next_counter", "opened_at",
                       "closed_at", "phase_started_at")


@admin.register(DiceRoll)
class DiceRollAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("round", "counter", "purpose", "sides", "faces", "object")
    list_filter = ("round__campaign",)
    search_fields = ("purpose", "object")

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the dice log is evidence (R-DICE-3)


@admin.register(Purchase)
class PurchaseAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("round", "player", "attack_armies", "cost", "created_at")
    list_filter = ("round__campaign",)


@admin.register(Attack)
class AttackAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("round", "order", "player", "tile", "source", "status")
    list_filter = ("status", "source", "round__campaign")
    raw_id_fields = ("tile", "player")


@admin.register(RoundStandings)
class RoundStandingsAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("round", "created_at")


@admin.register(JobRun)
class JobRunAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "created_at")
    search_fields = ("name", "key")
