"""The time zone menus: canonical zones only (``campaigns.zones.canonical_zone_names``), the
club's common ones first, the others grouped by region (``<optgroup>``, the place names without
their region). Any zone the system knows stays valid on submit, and a stored legacy zone
("US/Pacific") is still shown as chosen. Where the menu holds only a default, the browser's own
zone is suggested (``data-browser-zone``, static/feldzug.js)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.services.accounts import time_zone_names
from campaigns.zones import COMMON_ZONES, REGIONS, canonical_zone_names

REGION_LABELS = {"Europe": _("Europe"), "Africa": _("Africa"), "America": _("America"),
                 "Antarctica": _("Antarctica"), "Arctic": _("Arctic"), "Asia": _("Asia"),
                 "Atlantic": _("Atlantic Ocean"), "Australia": _("Australia"),
                 "Indian": _("Indian Ocean"), "Pacific": _("Pacific Ocean")}


def zone_choices(empty_label=None) -> list:
    """Choices with groups: "" first if ``empty_label``, then the common zones, then each
    region's zones (``Europe/Isle_of_Man`` shown as "Isle of Man" under "Europe")."""
    groups: dict[str, list] = {region: [] for region in REGIONS}
    for name in canonical_zone_names():
        region, _slash, place = name.partition("/")
        if name not in COMMON_ZONES and region in groups:
            groups[region].append((name, place.replace("_", " ")))
    choices = [("", empty_label)] if empty_label is not None else []
    choices.append((_("Common zones"), [(name, name.replace("_", " ")) for name in COMMON_ZONES]))
    choices += [(REGION_LABELS[region], zones) for region, zones in groups.items() if zones]
    return choices


class ZoneSelect(forms.Select):
    """A zone menu; a chosen zone it does not list (a legacy alias stored before) is added under
    "Other" so the form shows it and sends it back unchanged."""

    def optgroups(self, name, value, attrs=None):
        groups = super().optgroups(name, value, attrs)
        current = next((item for item in value if item), "")
        if current and current not in canonical_zone_names() and current in time_zone_names():
            index = len(groups)
            option = self.create_option(name, current, current, True, index, attrs=attrs)
            groups.append((str(_("Other")), [option], index))
        return groups


class ZoneChoiceField(forms.ChoiceField):
    """A time zone: the menu of ``zone_choices``; any zone the system knows is valid."""

    widget = ZoneSelect

    def __init__(self, *, empty_label=None, **kwargs):
        super().__init__(choices=lambda: zone_choices(empty_label), **kwargs)

    def valid_value(self, value) -> bool:
        return value in time_zone_names()


def suggest_browser_zone(field: forms.Field, default: str) -> None:
    """The menu holds only ``default`` (no one chose it): the page's script picks the browser's
    own zone instead, if the menu lists it."""
    field.widget.attrs["data-browser-zone"] = default
