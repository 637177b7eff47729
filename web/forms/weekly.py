"""Weekly deadlines on the ruleset form: per waiting phase, a deadline "``phase_hours`` after it
opens" (no weekday) or "the next weekday at a time" in the campaign's time zone (the ruleset key
``weekly_deadlines``, checked by ``rules.ruleset``; computed by ``rules.deadlines``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Round
from rules.ruleset import PHASE_HOURS_DEFAULTS, WEEKDAYS

WEEKDAY_FIELD = "weekly_{}_weekday"
TIME_FIELD = "weekly_{}_time"
WEEKDAY_LABELS = {
    "monday": _("Monday"), "tuesday": _("Tuesday"), "wednesday": _("Wednesday"),
    "thursday": _("Thursday"), "friday": _("Friday"), "saturday": _("Saturday"),
    "sunday": _("Sunday"),
}


def weekly_fields() -> dict[str, forms.Field]:
    fields: dict[str, forms.Field] = {}
    choices = [("", _("— the hours after it opens"))] + [(d, WEEKDAY_LABELS[d]) for d in WEEKDAYS]
    for phase in PHASE_HOURS_DEFAULTS:
        label = Round.Phase(phase).label
        fields[WEEKDAY_FIELD.format(phase)] = forms.ChoiceField(
            label=_("%(phase)s phase ends on") % {"phase": label}, choices=choices,
            required=False,
            help_text=_("A weekday fixes the deadline to the next such day at the time below, "
                        "in the campaign's time zone, also across daylight-saving changes; "
                        "at least 12 hours after the phase opens (R-RND-1)."))
        fields[TIME_FIELD.format(phase)] = forms.TimeField(
            label=_("%(phase)s phase ends at") % {"phase": label}, required=False,
            input_formats=["%H:%M"],
            widget=forms.TimeInput(format="%H:%M", attrs={"type": "time"}),
            help_text=_("24-hour time, e.g. 20:00; used with a weekday only."))
    return fields


def weekly_initial(weekly: dict) -> dict:
    initial = {}
    for phase, spec in weekly.items():
        initial[WEEKDAY_FIELD.format(phase)] = spec.get("weekday", "")
        initial[TIME_FIELD.format(phase)] = spec.get("time", "")
    return initial


def weekly_ruleset(data: dict) -> dict:
    """The form's ``weekly_deadlines``: phases with a weekday; a missing time is passed on so
    the ruleset check names its field."""
    result = {}
    for phase in PHASE_HOURS_DEFAULTS:
        weekday = data.get(WEEKDAY_FIELD.format(phase))
        if weekday:
            clock = data.get(TIME_FIELD.format(phase))
            result[phase] = {"weekday": weekday,
                             "time": clock.strftime("%H:%M") if clock else ""}
    return result


def weekly_field_for(key: str) -> str | None:
    """``weekly_deadlines.declare.time`` -> ``weekly_declare_time``; otherwise its weekday."""
    parts = key.split(".")
    if len(parts) < 2 or parts[1] not in PHASE_HOURS_DEFAULTS:
        return None
    if len(parts) == 3 and parts[2] == "time":
        return TIME_FIELD.format(parts[1])
    return WEEKDAY_FIELD.format(parts[1])
