"""The site settings page's form (``web.views.site_settings``); the service checks the values
(``campaigns.services.site``)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class SiteSettingsForm(forms.Form):
    site_url = forms.CharField(
        label=_("Site address"), required=False, max_length=200,
        help_text=_("The address people open the site by, e.g. https://feldzug.example.org. "
                    "Leave it empty to use the address an administrator opens the site by."),
        widget=forms.URLInput(attrs={"placeholder": "https://feldzug.example.org",
                                     "autocomplete": "url", "inputmode": "url"}))
    webhooks_allow_private = forms.BooleanField(
        label=_("Allow webhooks to private addresses"), required=False)

    def __init__(self, *args, address_locked: bool = False, private_locked: bool = False,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["site_url"].disabled = address_locked
        self.fields["webhooks_allow_private"].disabled = private_locked
