"""Forms of the campaign pages. They check the shape of the input only; the services check the
rules and their ``DomainError`` lands on the form field it names (``add_service_error``)."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from battles.models import Battle
from battles.rosters import MAX_BYTES as ROSTER_BYTES
from battles.rosters import MAX_NAME, ParsedList, RosterError, parse_roster_file, parse_text
from battles.services.results import MAX_REASON, MAX_VP
from battles.services.schedule import MAX_PLACE
from campaigns.errors import DomainError
from campaigns.models import Campaign, Round
from rules.ruleset import KEYS, PHASE_HOURS_DEFAULTS, PHASE_HOURS_RANGE, BoolKey, ChoiceKey
from web.templatetags.feldzug import INTERCEPTIONS, OUTCOMES, PHASES, STANCES, explained

MAX_ARMIES = 10_000
MAX_ARMY_POINTS = 100_000
MAP_DOCUMENT_BYTES = 5 * 1024 * 1024


def add_service_error(form: forms.Form, exc: DomainError, fields: dict | None = None) -> None:
    """Show a service's refusal next to the field it names (``fields`` maps service field names
    to form field names); anything else, or a hidden field, goes above the form."""
    name = (fields or {}).get(exc.field, exc.field)
    shown = name in form.fields and not form.fields[name].widget.is_hidden
    form.add_error(name if shown else None, explained(exc))


VISIBILITY_CHOICES = [("private", pgettext_lazy("campaign", "private: members only")),
                      ("public", pgettext_lazy("campaign", "public: anyone may watch"))]


class CampaignForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=Campaign._meta.get_field("name").max_length)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=VISIBILITY_CHOICES,
                                   initial="private")


class PurchaseForm(forms.Form):
    attack_armies = forms.IntegerField(
        label=_("Attack armies to buy"), min_value=1, max_value=MAX_ARMIES, initial=1,
        help_text=_("Each declaration uses one attack army; unused armies lapse when the "
                    "declare phase ends."))


class DeclareForm(forms.Form):
    tile = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class ConquestChoiceForm(forms.Form):
    """Which of the player's won attacks to roll (R-CON-4); unticked ones are waived."""

    roll = forms.TypedMultipleChoiceField(label=_("Roll for"), coerce=int, required=False,
                                          widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, attacks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roll"].choices = [(a, a) for a in attacks]


class PlayerAddForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    faction = forms.CharField(label=_("Faction"), max_length=80)
    colour = forms.CharField(label=_("Colour"), initial="#888888", max_length=7,
                             widget=forms.TextInput(attrs={"type": "color"}))


class DeadlineForm(forms.Form):
    phase_deadline = forms.DateTimeField(
        label=_("Deadline (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])


class AdvanceForm(forms.Form):
    """``expected_phase`` is the phase the admin saw: a second click advances nothing more."""

    expected_phase = forms.ChoiceField(choices=[("", "")] + list(Round.Phase.choices),
                                       required=False, widget=forms.HiddenInput)


class ResultForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome for the attacker"),
                                choices=[(v, OUTCOMES[v]) for v in Battle.Outcome.values])
    attacker_vp = forms.IntegerField(label=_("Attacker VP"), min_value=0, max_value=MAX_VP,
                                     initial=0)
    defender_vp = forms.IntegerField(label=_("Defender VP"), min_value=0, max_value=MAX_VP,
                                     initial=0)


class MapImportForm(forms.Form):
    document = forms.FileField(
        label=_("Map document (JSON)"),
        help_text=_("The shape the map export has: planets with tiles, links, areas and "
                    "fleets. It replaces the whole map."))

    def clean_document(self):
        upload = self.cleaned_data["document"]
        if upload.size > MAP_DOCUMENT_BYTES:
            raise forms.ValidationError(_("The document is larger than 5 MB."))
        try:
            return json.loads(upload.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The document is not UTF-8 text.")) from None
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("Not valid JSON: %(error)s (line %(line)s, column %(column)s).")
                % {"error": exc.msg, "line": exc.lineno, "column": exc.colno}) from None
        except RecursionError:
            raise forms.ValidationError(_("The document nests too deeply.")) from None


# --- the ruleset ("Ruleset keys" of RULES.md; defaults and ranges from rules.ruleset.KEYS) ---

KEY_LABELS = {
    "starting_requisition": _("Starting requisition"), "income_base": _("Base income"),
    "income_per_tile": _("Income per tile"), "attack_army_cost": _("Attack army cost"),
    "base_army_points": _("Base army points"), "bonus_per_tile": _("Bonus per tile"),
    "bonus_scope": _("Tile bonus compares with"),
    "orbital_assault_points": _("Orbital assault points"),
    "detachment_points": _("Detachment points"),
    "neutral_needs_battle": _("Neutral tiles need a battle"),
    "unplayed_outcome": _("Unplayed battles"), "conquest_default": _("Missing conquest choice"),
    "confirm_hours": _("Hours to confirm"), "naval_engine": _("Naval combat rules"),
    "max_fleet_moves": _("Fleet moves per round"),
    "max_battle_rounds": _("Fleet battle rounds"),
    "start_distance_cm": _("Space battle start distance (cm)"),
}
KEY_HELP = {
    "starting_requisition": _("Requisition a new player starts with."),
    "income_base": _("Requisition every player receives when a round closes."),
    "income_per_tile": _("Extra requisition per tile held when a round closes."),
    "attack_army_cost": _("Requisition one attack army costs; 0 makes them free."),
    "base_army_points": _("Army points each side of a battle has before bonuses."),
    "bonus_per_tile": _("Extra army points for every tile another player holds more than "
                        "you."),
    "bonus_scope": _("Whose tiles the tile bonus compares with."),
    "orbital_assault_points": _("Army points embarked in orbit that each orbital attack on a "
                                "planet needs."),
    "detachment_points": _("Army points of one detachment a ship carries."),
    "neutral_needs_battle": _("Attacks on neutral tiles are fought against a garrison; "
                              "otherwise they count as won."),
    "unplayed_outcome": _("What a battle not played by the battles deadline counts as."),
    "conquest_default": _("What happens for a player who made no conquest choice by the "
                          "deadline."),
    "confirm_hours": _("Hours to answer a reported result or decide a chain roll before the "
                       "default applies."),
    "naval_engine": _("The combat rules of fleet battles."),
    "max_fleet_moves": _("Areas a fleet may move per round; empty for no limit."),
    "max_battle_rounds": _("Rounds after which a fleet battle ends."),
    "start_distance_cm": _("Distance in cm at which a D6 space battle starts."),
}
CHOICE_LABELS = {
    "campaign": _("all players of the campaign"), "battle": _("the two sides of the battle"),
    "defender_holds": _("the defender holds"), "attacker_wins": _("the attacker wins"),
    "roll_all": _("roll every won attack"), "waive_all": _("waive every roll"),
    "dark_force": _("Dark Force naval rules"), "d6_space": _("D6 space combat"),
}
PHASE_FIELD = "phase_hours_{}"


def _help(text, default, spec_rule: str, bounds: str = "") -> str:
    parts = [str(text), str(_("Default: %(default)s.") % {"default": default})]
    if bounds:
        parts.append(bounds)
    parts.append(f"({spec_rule})")
    return " ".join(parts)


def _bounds(low: int, high: int) -> str:
    return str(_("Allowed: %(low)s to %(high)s.") % {"low": low, "high": high})


def _key_field(name: str, spec) -> forms.Field:
    label = KEY_LABELS[name]
    if isinstance(spec, BoolKey):
        default = _("yes") if spec.default else _("no")
        return forms.BooleanField(label=label, required=False,
                                  help_text=_help(KEY_HELP[name], default, spec.rule))
    if isinstance(spec, ChoiceKey):
        return forms.ChoiceField(label=label,
                                 choices=[(c, CHOICE_LABELS.get(c, c)) for c in spec.choices],
                                 help_text=_help(KEY_HELP[name], CHOICE_LABELS[spec.default],
                                                 spec.rule))
    default = _("no limit") if spec.default is None else spec.default
    return forms.IntegerField(label=label, required=not spec.nullable, min_value=spec.low,
                              max_value=spec.high,
                              help_text=_help(KEY_HELP[name], default, spec.rule,
                                              _bounds(spec.low, spec.high)))


class RulesetForm(forms.Form):
    """Every ruleset key, each explained with its default and range; ``ruleset()`` gives the
    JSON the campaign service validates and stores."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        low, high = PHASE_HOURS_RANGE
        for phase, default in PHASE_HOURS_DEFAULTS.items():
            self.fields[PHASE_FIELD.format(phase)] = forms.IntegerField(
                label=_("Hours of the %(phase)s phase") % {"phase": PHASES[phase]},
                min_value=low, max_value=high,
                help_text=_help(_("How long players have before the deadline."), default,
                                "R-RND-1", _bounds(low, high)))
        for name, spec in KEYS.items():
            self.fields[name] = _key_field(name, spec)

    @staticmethod
    def initial_from(ruleset: dict) -> dict:
        initial = {k: v for k, v in ruleset.items() if k != "phase_hours"}
        for phase, hours in ruleset.get("phase_hours", {}).items():
            initial[PHASE_FIELD.format(phase)] = hours
        return initial

    def ruleset(self) -> dict:
        data = self.cleaned_data
        result = {name: data[name] for name in KEYS}
        result["phase_hours"] = {p: data[PHASE_FIELD.format(p)] for p in PHASE_HOURS_DEFAULTS}
        return result

    @staticmethod
    def field_for(service_field: str | None) -> str | None:
        """``ruleset.phase_hours.declare`` -> ``phase_hours_declare``; ``ruleset.x`` -> ``x``."""
        key = (service_field or "").removeprefix("ruleset.")
        if key.startswith("phase_hours."):
            return PHASE_FIELD.format(key.split(".", 1)[1])
        return key or None


# --- tabletop battles (R-ARM-1..3, R-BAT-2..3, R-CON-6) ---

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


# --- fleets (R-FLT-4, R-FLT-5, R-FLT-8) ---

def _ids(value: str) -> list[int]:
    parts = [p for p in value.replace(",", " ").split() if p]
    if not all(p.isdigit() for p in parts):
        raise forms.ValidationError(_("Give area numbers separated by commas."))
    return [int(p) for p in parts]


class FleetOrderForm(forms.Form):
    path = forms.CharField(
        label=_("Path (area numbers in order)"), required=False, max_length=600,
        help_text=_("Click the areas in the order the fleet should enter them, or type their "
                    "numbers. Empty: the fleet stays where it is."))

    def clean_path(self) -> list[int]:
        return _ids(self.cleaned_data["path"])


class StandingOrdersForm(forms.Form):
    """Interception policy, benefit preference, stance and the battle line (R-FLT-5): one
    position field per ship, flagship = 1."""

    interception = forms.ChoiceField(label=_("Intercept passing enemies"),
                                     choices=list(INTERCEPTIONS.items()))
    benefits = forms.CharField(
        label=_("Benefit preference"), required=False, max_length=20,
        help_text=_("Letters in order of preference, e.g. “a, c”: a) advantage in the "
                    "battle that follows, b) move on, c) avoid combat, d) withdraw."))
    stance = forms.ChoiceField(label=_("Battle stance"), choices=list(STANCES.items()))

    def __init__(self, *args, ships=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.ships = list(ships)
        for ship in self.ships:
            self.fields[f"line_{ship['id']}"] = forms.IntegerField(
                label=_("Position of %(ship)s") % {"ship": ship["name"]}, min_value=1,
                max_value=max(1, len(self.ships)), initial=ship["position"])

    def line_fields(self):
        return [self[f"line_{ship['id']}"] for ship in self.ships]

    def clean_benefits(self) -> list[str]:
        return [p for p in self.cleaned_data["benefits"].lower().replace(",", " ").split()]

    def clean(self):
        data = super().clean()
        positions = [data.get(f"line_{ship['id']}") for ship in self.ships]
        if None not in positions and len(set(positions)) != len(positions):
            raise forms.ValidationError(_("Give every ship its own position in the line."))
        return data

    def changes(self) -> dict:
        data = self.cleaned_data
        line = sorted(self.ships, key=lambda ship: data[f"line_{ship['id']}"])
        return {"interception": data["interception"], "benefits": data["benefits"],
                "stance": data["stance"], "line": [ship["id"] for ship in line]}


class EmbarkForm(forms.Form):
    ship = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    name = forms.CharField(label=_("Detachment"), max_length=80)
    points = forms.IntegerField(label=_("Army points"), min_value=0, max_value=MAX_ARMY_POINTS)


class DisembarkForm(forms.Form):
    ship = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    index = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
