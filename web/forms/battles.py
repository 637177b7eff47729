"""Forms of a battle's page: army lists, dates, results, disputes and chain decisions
(R-ARM-1..3, R-BAT-2..3, R-CON-6).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.rosters import MAX_BYTES as ROSTER_BYTES
from battles.rosters import MAX_NAME, ParsedList, RosterError, parse_roster_file, parse_text
from battles.services.results import MAX_REASON
from battles.services.schedule import MAX_PLACE

ROSTER_SUFFIXES = ".ros,.rosz,.json"


class ArmyListForm(forms.Form):
    """A list pasted as text or uploaded as a roster file; the rosters module reads it
    (R-ARM-2) and says in the player's words what it can not read."""

    name = forms.CharField(label=_("Name of the list"), max_length=MAX_NAME, required=False)
    text = forms.CharField(
        label=_("Paste your list"), required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("One unit per line as “name - points”, e.g. “Captain - 85”. A line "
                    "“Total: 1500” is checked against the sum."))
    file = forms.FileField(
        label=_("… or upload a roster file"), required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ROSTER_SUFFIXES}),
        help_text=_("BattleScribe .ros or .rosz, or a New Recruit .json export; at most "
                    "2 MB."))

    def clean(self):
        data = super().clean()
        upload, text = data.get("file"), (data.get("text") or "").strip()
        if self.errors:
            return data
        if upload is None and not text:
            raise forms.ValidationError(_("Paste a list or choose a roster file."))
        if upload is not None and text:
            raise forms.ValidationError(_("Paste a list or upload a file, not both."))
        try:
            data["parsed"] = self._parse(upload, text, data.get("name") or "")
        except RosterError as exc:
            self.add_error("file" if upload is not None else "text",
                           _("The list can not be read: %(detail)s") % {"detail": exc.message})
        return data

    @staticmethod
    def _parse(upload, text: str, name: str) -> ParsedList:
        if upload is None:
            return parse_text(text, name=name)
        if upload.size > ROSTER_BYTES:
            raise RosterError(str(_("The roster file is larger than 2 MB.")))
        return parse_roster_file(upload.name or "", upload.read(ROSTER_BYTES + 1))


class ProposeDateForm(forms.Form):
    proposed_at = forms.DateTimeField(
        label=_("Date and time (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    place = forms.CharField(label=_("Place"), max_length=MAX_PLACE)


class AcceptDateForm(forms.Form):
    """``proposal`` is the proposal the player saw: a newer one is not accepted unseen."""

    proposal = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class DisputeForm(forms.Form):
    reason = forms.CharField(label=_("Why (for the league admin)"), required=False,
                             max_length=MAX_REASON,
                             widget=forms.Textarea(attrs={"rows": 2}))


class ChainDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("roll", "roll"), ("waive", "waive")],
                                 widget=forms.HiddenInput)
