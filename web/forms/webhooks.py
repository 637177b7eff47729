"""The webhook form of the manage pages; the service validates again."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns import webhooks
from campaigns.models import Audience, Webhook


class WebhookForm(forms.Form):
    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https",
                         help_text=_("A Discord channel's webhook URL, or your receiver's."))
    kind = forms.ChoiceField(label=_("format"), choices=Webhook.Kind.choices)
    events = forms.MultipleChoiceField(
        label=_("events"), widget=forms.CheckboxSelectMultiple, required=False,
        choices=[(code, label) for code, (_audience, label) in webhooks.KINDS.items()])
    language = forms.ChoiceField(label=_("language"), choices=Webhook.Language.choices)
    audience = forms.ChoiceField(
        label=_("audience"), choices=Audience.choices, initial=Audience.MEMBERS,
        help_text=_("Who reads the channel: events meant for a narrower audience are not "
                    "sent (disputes go to admins' channels only)."))
    include_owing = forms.BooleanField(
        label=_("name who still owes input"), required=False,
        help_text=_("The 24-hour reminder lists the display names of players who still owe "
                    "input."))
    colour = forms.CharField(label=_("colour"), max_length=7, initial="#8b1e3f",
                             widget=forms.TextInput(attrs={"type": "color"}))
    enabled = forms.BooleanField(label=_("enabled"), required=False, initial=True)


def form_values(data: dict) -> dict:
    return {name: data[name] for name in ("url", "kind", "events", "language", "audience",
                                          "include_owing", "colour", "enabled")}


def initial_of(hook: Webhook) -> dict:
    return {name: getattr(hook, name) for name in ("url", "kind", "events", "language",
                                                   "audience", "include_owing", "colour",
                                                   "enabled")}
