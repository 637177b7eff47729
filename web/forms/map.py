"""Forms of the map page: buying attack armies and declaring attacks (R-ECO-1, R-ATK).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.services.attacks import MAX_ARMIES


class PurchaseForm(forms.Form):
    attack_armies = forms.IntegerField(
        label=_("Attack armies to buy"), min_value=1, max_value=MAX_ARMIES, initial=1,
        help_text=_("Each declaration uses one attack army; unused armies lapse when the "
                    "declare phase ends."))


class DeclareForm(forms.Form):
    tile = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
