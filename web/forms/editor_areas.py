"""Forms of the map editor's areas and fleets pages: areas (R-MAP-3), their links
and coastal borders, fleets (R-FLT-1), ships (R-FLT-2, with the D6 datasheet of R-SPC-1) and
sea hazards (R-SEA-2).

The forms check the shape of the input only: numbers are whole numbers, choices are of the
campaign. The bounds are the rules' (``rules.ship_values``), checked by the services, whose
refusal lands next to the field it names (``SERVICE_FIELDS``); the help texts show them.
Each has the admin's optional reason for a correction (``OptionalReasonForm``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from fleets.models import Area, Fleet
from rules.interception import AF_RANGE
from rules.ship_values import BOUNDS, DATASHEET_KEYS, NAME_LIMIT
from web.forms.common import OptionalReasonForm

NUMBER = {"min_value": -9999, "max_value": 9999}  # the shape; the rules check the bounds


def bounds(name: str) -> str:
    low, high = BOUNDS[name]
    return _("%(low)s to %(high)s (R-FLT-2)") % {"low": low, "high": high}


class AreaForm(OptionalReasonForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_LIMIT)
    kind = forms.ChoiceField(label=_("Kind"), choices=Area.Kind.choices)
    planet = forms.ModelChoiceField(queryset=None, label=_("Orbit of planet"), required=False,
                                    help_text=_("Only an orbit names its planet (R-MAP-3)."))
    owner = forms.ModelChoiceField(queryset=None, label=_("Owner (islands)"), required=False,
                                   help_text=_("Only an island has an owner (R-SEA-1)."))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["planet"].queryset = campaign.planets.order_by("name", "id")
        self.fields["owner"].queryset = campaign.players.order_by("faction", "id")


class LinkForm(OptionalReasonForm):
    """Two areas to link or unlink; the chart's script fills these by two clicks."""

    a = forms.ModelChoiceField(queryset=None, label=_("First area"))
    b = forms.ModelChoiceField(queryset=None, label=_("Second area"))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        areas = Area.objects.filter(campaign=campaign).order_by("name", "id")
        self.fields["a"].queryset = areas
        self.fields["b"].queryset = areas


class BordersForm(OptionalReasonForm):
    tiles = forms.ModelMultipleChoiceField(
        queryset=None, label=_("Tiles this coast borders"), required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only coastal waters list the tiles they border (R-MAP-3)."))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tiles"].queryset = (campaign.tiles.select_related("planet")
                                         .order_by("planet__name", "planet_id", "r", "q"))
        self.fields["tiles"].label_from_instance = tile_label


def tile_label(tile) -> str:
    where = tile.name or f"({tile.q}, {tile.r})"
    return f"{tile.planet.name} {where}"


class FleetForm(OptionalReasonForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_LIMIT)
    owner = forms.ModelChoiceField(queryset=None, label=_("Owner"), required=False,
                                   help_text=_("Every fleet but pirates has an owner "
                                               "(R-FLT-1)."))
    kind = forms.ChoiceField(label=_("Kind"), choices=Fleet.Kind.choices)
    admiral_rating = forms.IntegerField(label=_("Admiral rating (AF)"), initial=0, **NUMBER)
    area = forms.ModelChoiceField(queryset=None, label=_("Area"),
                                  help_text=_("Moving a fleet here gives it no movement "
                                              "order (R-FLT-4)."))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner"].queryset = campaign.players.order_by("faction", "id")
        self.fields["admiral_rating"].help_text = _("%(low)s to %(high)s (R-FLT-1)") % {
            "low": AF_RANGE[0], "high": AF_RANGE[1]}
        self.fields["area"].queryset = Area.objects.filter(campaign=campaign).order_by("name")


DATASHEET_LABELS = {"maneuver": _("Maneuver"), "speed": _("Speed"),
                    "targeting": _("Targeting"), "gun_damage": _("Gun damage"),
                    "shields": _("Shields"), "hull": _("Hull")}


class ShipForm(OptionalReasonForm):
    """A ship's values (R-FLT-2); with ``datasheet`` also the D6 systems (R-SPC-1): all of
    them or none."""

    name = forms.CharField(label=_("Name"), max_length=NAME_LIMIT)
    ship_class = forms.CharField(label=_("Class"), max_length=NAME_LIMIT, required=False)
    attack = forms.IntegerField(label=_("Attack"), initial=1, **NUMBER)
    defence = forms.IntegerField(label=_("Defence"), initial=1, **NUMBER)
    agility = forms.IntegerField(label=_("Agility"), initial=1, **NUMBER)
    capacity = forms.IntegerField(label=_("Capacity"), initial=0, **NUMBER)

    def __init__(self, *args, datasheet: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("attack", "defence", "agility", "capacity"):
            self.fields[name].help_text = bounds(name)
        self.datasheet = datasheet
        if datasheet:
            for key in DATASHEET_KEYS:
                field = (forms.IntegerField(**NUMBER, required=False) if key == "speed"
                         else forms.CharField(max_length=12, required=False))
                field.label = DATASHEET_LABELS[key]
                self.fields[f"ds_{key}"] = field
            self.fields["ds_maneuver"].help_text = _(
                "D6 datasheet (R-SPC-1): dice codes such as 2D+1, speed a number; fill in "
                "every system or none.")

    def datasheet_fields(self):
        return [self[f"ds_{key}"] for key in DATASHEET_KEYS] if self.datasheet else []

    def values(self, captain=None) -> dict:
        """The ship's values for the services: a datasheet of the systems given (a partly
        filled one is refused by R-SPC-1), none when every system is blank."""
        data = self.cleaned_data
        values = {key: data[key] for key in ("name", "ship_class", "attack", "defence",
                                             "agility", "capacity")}
        if self.datasheet:
            sheet = {key: data[f"ds_{key}"] for key in DATASHEET_KEYS
                     if data[f"ds_{key}"] not in (None, "")}
            if sheet and captain:
                sheet["captain"] = captain
            values["datasheet"] = sheet or None
        return values

    @staticmethod
    def initial_of(ship) -> dict:
        initial = {"name": ship.name, "ship_class": ship.ship_class, "attack": ship.attack,
                   "defence": ship.defence, "agility": ship.agility,
                   "capacity": ship.capacity}
        sheet = ship.datasheet if isinstance(ship.datasheet, dict) else {}
        initial.update({f"ds_{key}": sheet.get(key) for key in DATASHEET_KEYS})
        return initial


class HazardForm(OptionalReasonForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_LIMIT)
    attack = forms.IntegerField(label=_("Attack"), initial=1, **NUMBER)
    defence = forms.IntegerField(label=_("Defence"), initial=1, **NUMBER)
    agility = forms.IntegerField(label=_("Agility"), initial=1, **NUMBER)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("attack", "defence", "agility"):
            self.fields[name].help_text = bounds(name)


# service field names -> form field names (``web.forms.common.add_service_error``)
SERVICE_FIELDS = {"class": "ship_class", "borders_tiles": "tiles",
                  **{f"datasheet.{key}": f"ds_{key}" for key in DATASHEET_KEYS},
                  "datasheet": "ds_maneuver"}
