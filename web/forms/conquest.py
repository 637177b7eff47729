"""The conquest page's form (R-CON-4).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class ConquestChoiceForm(forms.Form):
    """Which of the player's won attacks to roll (R-CON-4); unticked ones are waived."""

    roll = forms.TypedMultipleChoiceField(label=_("Roll for"), coerce=int, required=False,
                                          widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, attacks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roll"].choices = [(a, a) for a in attacks]
