"""Helpers shared by the pages' forms."""

from datetime import datetime

from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from campaigns import formats
from campaigns.errors import DomainError
from campaigns.services.corrections import MAX_REASON
from web.templatetags.feldzug import explained


def add_service_error(form: forms.Form, exc: DomainError, fields: dict | None = None) -> None:
    """Show a service's refusal next to the field it names (``fields`` maps service field names
    to form field names); anything else, or a hidden field, goes above the form."""
    name = (fields or {}).get(exc.field, exc.field)
    shown = name in form.fields and not form.fields[name].widget.is_hidden
    form.add_error(name if shown else None, explained(exc))


DATETIME_LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


def _active_zone_name() -> str:
    return timezone.get_current_timezone_name()


active_zone_name = lazy(_active_zone_name, str)


class LocalDateTimeField(forms.DateTimeField):
    """A ``datetime-local`` input read in the active zone (``web.middleware.ActivateTimeZone``:
    the person's, else the campaign's); its label names the zone when the form is shown. A local
    time the zone skips or has twice (daylight saving) is a form error naming the zone."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    input_formats = DATETIME_LOCAL_FORMATS

    def __init__(self, *, label, **kwargs):
        super().__init__(label=format_lazy("{} ({})", label, active_zone_name()), **kwargs)

    def to_python(self, value):
        try:
            return super().to_python(value)
        except forms.ValidationError as exc:
            if getattr(exc, "code", None) != "ambiguous_timezone":
                raise
            raise forms.ValidationError(
                _("%(time)s does not exist or happens twice in %(zone)s (a daylight-saving "
                  "change); choose another time."),
                code="ambiguous_timezone",
                params={"time": _entered(value), "zone": _active_zone_name()}) from None


def _entered(value) -> str:
    """The time someone entered, in the reader's format (``campaigns.formats``), not ISO."""
    for pattern in DATETIME_LOCAL_FORMATS:
        try:
            return formats.datetime_text(datetime.strptime(str(value).strip(), pattern))
        except ValueError:
            continue
    return str(value)


class OptionalReasonForm(forms.Form):
    """A form of the map editor with the admin's optional reason: in a running campaign a change
    is a correction, and the reason is shown with it in the audit log (R-SEC-2). Optional: map
    building before the start is no correction, and a correction is never blocked for want of
    one. The pages show the field only while the campaign runs."""

    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON, required=False,
                             help_text=_("Why? Shown in the audit log."))
