"""The home page's form: a new campaign.

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from campaigns.models import Campaign

VISIBILITY_CHOICES = [("private", pgettext_lazy("campaign", "private: members only")),
                      ("public", pgettext_lazy("campaign", "public: anyone may watch"))]


class CampaignForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=Campaign._meta.get_field("name").max_length)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=VISIBILITY_CHOICES,
                                   initial="private")
