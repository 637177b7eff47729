"""The organiser's correction forms (R-SEC-2): each asks why; the reason is shown in the
audit log."""

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.services.corrections import MAX_ARMIES, MAX_REQUISITION
from campaigns.services.corrections import MAX_REASON
from web.forms.absences import DATE_INPUT
from web.forms.manage import ResultForm


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON,
                             widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=_("Required: shown in the audit log with your change."))


class ArmiesForm(ReasonForm):
    requisition = forms.IntegerField(label=_("Requisition"), min_value=0,
                                     max_value=MAX_REQUISITION, required=False)
    armies = forms.IntegerField(label=_("Attack armies left this round"), min_value=0,
                                max_value=MAX_ARMIES, required=False,
                                help_text=_("Only in the declare phase (R-ECO-1)."))
    field_order = ["requisition", "armies", "reason"]


class AwayForm(ReasonForm):
    starts_on = forms.DateField(label=_("First day away"), widget=DATE_INPUT,
                                input_formats=["%Y-%m-%d"])
    ends_on = forms.DateField(label=_("Last day away"), widget=DATE_INPUT,
                              input_formats=["%Y-%m-%d"])
    field_order = ["starts_on", "ends_on", "reason"]


class ResultCorrectForm(ResultForm, ReasonForm):
    pass
