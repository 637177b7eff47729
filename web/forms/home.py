"""The home page's form: a new campaign.

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from campaigns.models import Campaign
from web.forms.zones import ZoneChoiceField

VISIBILITY_CHOICES = [("private", pgettext_lazy("campaign", "private: members only")),
                      ("public", pgettext_lazy("campaign", "public: anyone may watch"))]


class CampaignForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=Campaign._meta.get_field("name").max_length)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=VISIBILITY_CHOICES,
                                   initial="private")
    time_zone = ZoneChoiceField(
        label=_("Time zone"), required=False,
        help_text=_("Pages show times in it to visitors and to members who chose no zone of "
                    "their own; it is the default for new members."))
    language = forms.ChoiceField(
        label=_("Language"), required=False, choices=lambda: settings.LANGUAGES,
        help_text=_("For people the site does not know yet: invitations to new addresses, "
                    "visitors who chose no language, the public feeds."))


def campaign_fields(data: dict) -> dict:
    """The form's values for the campaign services: no zone or language given keeps the
    campaign's (or, for a new one, takes the site's default)."""
    return {key: value for key, value in data.items()
            if value or key not in ("time_zone", "language")}
