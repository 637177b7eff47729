"""Forms of the members pages: invitations by e-mail or link, join requests,
accepting an invitation, and managing players (edit, remove, replace, seat invitation). They
check the shape only; the services check the rest."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.services.invitations import MAX_USES, MESSAGE_MAX
from web.forms.common import LocalDateTimeField
from web.forms.manage import PlayerAddForm


def _expiry_field():
    return LocalDateTimeField(label=_("Valid until"), required=False)  # local


def _preset_fields():
    return {
        "faction": forms.CharField(label=_("Faction"), max_length=80, required=False,
                                   help_text=_("Leave empty to let the invitee choose.")),
        "colour": forms.RegexField(label=_("Colour"), regex=r"^#[0-9a-fA-F]{6}$",
                                   max_length=7, required=False,
                                   help_text=_("#rrggbb; leave empty to let the invitee "
                                               "choose.")),
    }


class InviteEmailsForm(forms.Form):
    emails = forms.CharField(
        label=_("E-mail addresses"), max_length=26_000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One or many, separated by commas, semicolons or line breaks."))
    faction = _preset_fields()["faction"]
    colour = _preset_fields()["colour"]
    expires_at = _expiry_field()


class InviteLinkForm(forms.Form):
    max_uses = forms.IntegerField(label=_("Uses"), min_value=1, max_value=MAX_USES,
                                  required=False, help_text=_("Leave empty for no limit."))
    faction = _preset_fields()["faction"]
    colour = _preset_fields()["colour"]
    expires_at = _expiry_field()


class JoinSettingsForm(forms.Form):
    join_requests_open = forms.BooleanField(
        label=_("Take join requests"), required=False,
        help_text=_("Logged-in visitors of a public campaign may ask to join."))


class JoinDecisionForm(forms.Form):
    faction = PlayerAddForm.base_fields["faction"]
    colour = PlayerAddForm.base_fields["colour"]


class JoinRequestForm(forms.Form):
    message = forms.CharField(label=_("Message to the admin"), required=False,
                              max_length=MESSAGE_MAX, widget=forms.Textarea(attrs={"rows": 3}))


class AcceptInvitationForm(forms.Form):
    """Faction and colour, unless the admin set them on the invitation."""

    faction = forms.CharField(label=_("Faction"), max_length=80)
    colour = PlayerAddForm.base_fields["colour"]

    def __init__(self, *args, invitation=None, **kwargs):
        super().__init__(*args, **kwargs)
        if invitation is not None and invitation.seat_id is not None:  # the seat keeps its own
            self.fields.clear()
            return
        if invitation is not None and invitation.faction:
            del self.fields["faction"]
        if invitation is not None and invitation.colour:
            del self.fields["colour"]


# --- managing players -------------------------------------------------------

class PlayerEditForm(forms.Form):
    faction = PlayerAddForm.base_fields["faction"]
    colour = PlayerAddForm.base_fields["colour"]


class PlayerReplaceForm(forms.Form):
    account = forms.CharField(
        label=_("Username or e-mail address"), max_length=254,
        help_text=_("An existing account that does not play in this campaign yet; it takes "
                    "over the seat at once."))


class SeatInviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"), max_length=254,
        help_text=_("Whoever accepts the invitation takes over the seat."))
    expires_at = _expiry_field()


class PlayerRemoveForm(forms.Form):
    """The seat's id again: a remove button posts what it removes, and nothing else does."""

    seat = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


# --- naming and removing campaign admins -----------------------------------

class AdminAddForm(forms.Form):
    account = forms.CharField(
        label=_("Username or e-mail address"), max_length=254,
        help_text=_("An existing account; it may then manage the campaign like you."))


class AdminRemoveForm(forms.Form):
    """The admin's user id again: a remove button posts whom it removes, and nothing else."""

    admin = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
