"""Django admin for areas, fleets, ships, orders, sea hazards and the fleet phase records (the
admin sees hidden fields, R-FLT-7). Records written by the fleet phase are read-only; every
other edit is recorded in the campaign's audit log, admin-only (``AuditedAdmin``)."""

from django import forms
from django.contrib import admin

from campaigns.admin_audit import AuditedAdmin
from campaigns.selectors.campaigns import ruleset_of
from fleets.messages import problem_text, ship_value_text
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
from rules.ship_values import (
    MAX_DETACHMENT_POINTS,
    SHIP_KEYS,
    hazard_problems,
    ship_problems,
)


@admin.register(Area)
class AreaAdmin(AuditedAdmin, admin.ModelAdmin):
    audit_public = True  # map facts every member sees
    list_display = ("name", "kind", "campaign", "planet", "owner")
    list_filter = ("kind", "campaign")
    search_fields = ("name",)
    filter_horizontal = ("adjacent",)
    raw_id_fields = ("planet", "owner", "borders_tiles")


class ShipForm(forms.ModelForm):
    """A ship's values as the rules read them (``rules.ship_values``: R-FLT-2, R-SPC-1)."""

    class Meta:
        model = Ship
        fields = ("fleet", "position", "name", "ship_class", "attack", "defence", "agility",
                  "capacity", "cargo", "crew", "seats", "datasheet")

    def clean(self):
        data = super().clean()
        fleet = data.get("fleet") or (self.instance.fleet if self.instance.fleet_id else None)
        points = (ruleset_of(fleet.campaign).detachment_points
                  if fleet is not None else MAX_DETACHMENT_POINTS)
        # the fleet shape's names; fields that failed their own checks are left out
        ship = {("class" if key == "ship_class" else key): value for key, value in data.items()
                if key in SHIP_KEYS or key == "ship_class"}
        for problem in ship_problems(ship, detachment_points=points):
            key = problem.path.split(".")[0].split("[")[0]
            field = "ship_class" if key == "class" else key
            if field in self.fields and not self.has_error(field):  # one message a field
                self.add_error(field, ship_value_text(problem) if problem.path == key
                               else problem_text(problem))
        return data


class ShipInline(admin.TabularInline):
    model = Ship
    form = ShipForm
    extra = 0
    fields = ("position", "name", "ship_class", "attack", "defence", "agility", "capacity",
              "cargo", "crew", "seats", "datasheet")


@admin.register(Fleet)
class FleetAdmin(AuditedAdmin, admin.ModelAdmin):
    list_display = ("name", "kind", "owner", "area", "admiral_rating", "campaign")
    list_filter = ("kind", "campaign")
    search_fields = ("name",)
    list_select_related = ("owner__user", "area", "campaign")
    raw_id_fields = ("owner", "area")
    readonly_fields = ("arrived_round", "arrived_step")
    inlines = (ShipInline,)


@admin.register(Ship)
class ShipAdmin(AuditedAdmin, admin.ModelAdmin):
    form = ShipForm
    list_display = ("name", "ship_class", "fleet", "position", "attack", "defence", "agility",
                    "capacity")
    list_filter = ("fleet__campaign",)
    search_fields = ("name", "ship_class")
    raw_id_fields = ("fleet",)


class SeaHazardForm(forms.ModelForm):
    """A sea hazard's values within the ship bounds of R-FLT-2 (R-SEA-2)."""

    class Meta:
        model = SeaHazard
        fields = ("campaign", "area", "owner", "name", "attack", "defence", "agility",
                  "active")

    def clean(self):
        data = super().clean()
        values = {key: data[key] for key in ("attack", "defence", "agility") if key in data}
        for problem in hazard_problems(values):
            self.add_error(problem.path, ship_value_text(problem))
        return data


@admin.register(SeaHazard)
class SeaHazardAdmin(AuditedAdmin, admin.ModelAdmin):
    form = SeaHazardForm
    list_display = ("name", "area", "owner", "attack", "defence", "agility", "active",
                    "triggered_at", "campaign")
    list_filter = ("active", "campaign")
    search_fields = ("name",)
    raw_id_fields = ("area", "owner")
    readonly_fields = ("hits", "triggered_at")


@admin.register(FleetOrder)
class FleetOrderAdmin(AuditedAdmin, admin.ModelAdmin):
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
