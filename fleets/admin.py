"""Django admin for areas, fleets and ships (the admin sees hidden fields, R-FLT-7)."""

from django.contrib import admin

from .models import Area, Fleet, Ship


@admin.register(Area)
class AreaAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "campaign", "planet", "owner")
    list_filter = ("kind", "campaign")
    search_fields = ("name",)
    filter_horizontal = ("adjacent",)
    raw_id_fields = ("planet", "owner", "borders_tiles")


class ShipInline(admin.TabularInline):
    model = Ship
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
    inlines = (ShipInline,)


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ("name", "ship_class", "fleet", "position", "attack", "defence", "agility",
                    "capacity")
    list_filter = ("fleet__campaign",)
    search_fields = ("name", "ship_class")
