"""Django admin for areas, fleets, ships, orders, sea hazards and the fleet phase records (the
admin sees hidden fields, R-FLT-7). Records written by the fleet phase are read-only."""

from django import forms
from django.contrib import admin

from fleets.models import (
    Area,
    Fleet,
    FleetMarker,
    FleetOrder,
    FleetPhase,
    NavalBattle,
    SeaHazard,
    Ship,
)
from fleets.values import VALUE_LIMIT, datasheet_error, entries_error
from rules.ruleset import Ruleset


@admin.register(Area)
class AreaAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "campaign", "planet", "owner")
    list_filter = ("kind", "campaign")
    search_fields = ("name",)
    filter_horizontal = ("adjacent",)
    raw_id_fields = ("planet", "owner", "borders_tiles")


class ShipForm(forms.ModelForm):
    """Cargo, crew and datasheet as the rules read them (R-FLT-2, R-SPC-1)."""

    class Meta:
        model = Ship
        fields = ("fleet", "position", "name", "ship_class", "attack", "defence", "agility",
                  "capacity", "cargo", "crew", "seats", "datasheet")

    def clean(self):
        data = super().clean()
        fleet = data.get("fleet") or (self.instance.fleet if self.instance.fleet_id else None)
        points = (Ruleset.from_dict(fleet.campaign.ruleset).detachment_points
                  if fleet is not None else VALUE_LIMIT)
        for name, number, high in (("cargo", "points", points), ("crew", "cp", VALUE_LIMIT)):
            if name in data:
                error = entries_error(data[name], number, high)
                if error:
                    self.add_error(name, error)
        if isinstance(data.get("cargo"), list) and len(data["cargo"]) > data.get("capacity", 0):
            self.add_error("cargo", "More detachments than the capacity (R-FLT-2).")
        error = datasheet_error(data.get("datasheet"))
        if error:
            self.add_error("datasheet", error)
        return data


class ShipInline(admin.TabularInline):
    model = Ship
    form = ShipForm
    extra = 0
    fields = ("position", "name", "ship_class", "attack", "defence", "agility", "capacity",
              "cargo", "crew", "seats", "datasheet")


@admin.register(Fleet)
class FleetAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "owner", "area", "admiral_rating", "campaign")
    list_filter = ("kind", "campaign")
    search_fields = ("name",)
    list_select_related = ("owner__user", "area", "campaign")
    raw_id_fields = ("owner", "area")
    readonly_fields = ("arrived_round", "arrived_step")
    inlines = (ShipInline,)


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    form = ShipForm
    list_display = ("name", "ship_class", "fleet", "position", "attack", "defence", "agility",
                    "capacity")
    list_filter = ("fleet__campaign",)
    search_fields = ("name", "ship_class")
    raw_id_fields = ("fleet",)


@admin.register(SeaHazard)
class SeaHazardAdmin(admin.ModelAdmin):
    list_display = ("name", "area", "owner", "attack", "defence", "agility", "active",
                    "triggered_at", "campaign")
    list_filter = ("active", "campaign")
    search_fields = ("name",)
    raw_id_fields = ("area", "owner")
    readonly_fields = ("hits", "triggered_at")


@admin.register(FleetOrder)
class FleetOrderAdmin(admin.ModelAdmin):
    list_display = ("fleet", "round", "path", "given_at")
    list_filter = ("round__campaign",)
    raw_id_fields = ("fleet", "round")


class ReadOnly(admin.ModelAdmin):
    """Written by the fleet phase job only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(FleetMarker)
class FleetMarkerAdmin(ReadOnly):
    list_display = ("fleet", "round", "kind", "partner")
    list_filter = ("kind", "round__campaign")


@admin.register(FleetPhase)
class FleetPhaseAdmin(ReadOnly):
    list_display = ("round", "resolved_at", "player_order", "dice_count")
    list_filter = ("round__campaign",)


@admin.register(NavalBattle)
class NavalBattleAdmin(ReadOnly):
    list_display = ("round", "area", "sequence", "engine", "attacker", "defender",
                    "attacker_vp", "defender_vp")
    list_filter = ("engine", "round__campaign")
