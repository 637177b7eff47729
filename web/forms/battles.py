"""Forms of a battle's page: army lists, dates, results, disputes and chain decisions
(R-ARM-1..3, R-BAT-2..3, R-CON-6).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.list_text import parse_text
from battles.rosters import MAX_BYTES as ROSTER_BYTES
from battles.rosters import (
    MAX_NAME,
    NoPointsCost,
    ParsedList,
    RosterError,
    parse_roster_file,
)
from battles.services.results import MAX_REASON
from battles.services.schedule import MAX_PLACE
from web.forms.common import LocalDateTimeField


class ArmyListForm(forms.Form):
    """A list pasted as text or uploaded as a roster file; the rosters module reads it
    (R-ARM-2) and says in the player's words what it can not read."""

    name = forms.CharField(label=_("Name of the list"), max_length=MAX_NAME, required=False)
    text = forms.CharField(
        label=_("Paste your list"), required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("The text export of the Warhammer 40,000 or Age of Sigmar app, of New "
                    "Recruit or Listbot, or one unit per line as “name - points”, e.g. "
                    "“Captain - 85”. A stated total is checked against the sum."))
    # no ``accept`` filter: the file is recognised by its content, also without an extension
    file = forms.FileField(
        label=_("… or upload a roster file"), required=False,
        help_text=_("BattleScribe or New Recruit roster (.ros, .rosz) or New Recruit JSON "
                    "export, with or without its file extension; at most 2 MB."))

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
            self.add_error("file" if upload is not None else "text", _explained(exc))
        return data

    @staticmethod
    def _parse(upload, text: str, name: str) -> ParsedList:
        if upload is None:
            return parse_text(text, name=name)
        if upload.size > ROSTER_BYTES:
            raise RosterError(str(_("The roster file is larger than 2 MB.")))
        return parse_roster_file(upload.name or "", upload.read(ROSTER_BYTES + 1))


def _explained(exc: RosterError) -> str:
    """The reader's refusal for the page: R-ARM-2 (no points) in the reader's language, the
    other details as the reader wrote them."""
    if isinstance(exc, NoPointsCost):
        types = ", ".join(exc.cost_types)
        if not exc.cost_types:
            return str(_("R-ARM-2: the roster has no costs at all; this campaign counts "
                         "points. Export the list with its points."))
        if exc.zero:
            return _("R-ARM-2: the roster's points are 0 for every unit; it is priced in "
                     "other costs (cost types: %(types)s); this campaign counts points. "
                     "Export the list with its points.") % {"types": types}
        return _("R-ARM-2: the roster has no points cost (cost types: %(types)s); this "
                 "campaign counts points. Export the list with its points.") % {"types": types}
    return _("The list can not be read: %(detail)s") % {"detail": exc.message}


class ProposeDateForm(forms.Form):
    proposed_at = LocalDateTimeField(label=_("Date and time"))  # the person's zone
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
