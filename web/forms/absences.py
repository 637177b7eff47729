"""The Away card's form: first and last day away (the campaign's calendar)
and an optional note. It checks the shape only; ``absence_add`` checks the rest."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.services.absences import MAX_NOTE

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class AbsenceForm(forms.Form):
    starts_on = forms.DateField(label=_("First day away"), widget=DATE_INPUT,
                                input_formats=["%Y-%m-%d"])
    ends_on = forms.DateField(label=_("Last day away"), widget=DATE_INPUT,
                              input_formats=["%Y-%m-%d"])
    note = forms.CharField(label=_("Note (optional)"), max_length=MAX_NOTE, required=False,
                           help_text=_("Only you and the campaign's admins see it."))
