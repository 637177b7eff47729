"""Forms of the campaign admin's page: players, deadlines, advancing, results, map import
and the ruleset ("Ruleset keys" of RULES.md; defaults and ranges from rules.ruleset.KEYS).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.models import Battle
from battles.services.results import MAX_VP
from campaigns.models import Round
from fleets.models import NavalBattle
from rules.ruleset import KEYS, PHASE_HOURS_DEFAULTS, PHASE_HOURS_RANGE, BoolKey, ChoiceKey
from rules.text import walk_text
from web.forms.common import LocalDateTimeField, OptionalReasonForm
from web.forms.weekly import weekly_field_for, weekly_fields, weekly_initial, weekly_ruleset

MAP_DOCUMENT_BYTES = 5 * 1024 * 1024


class PlayerAddForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    faction = forms.CharField(label=_("Faction"), max_length=80)
    colour = forms.CharField(label=_("Colour"), initial="#888888", max_length=7,
                             widget=forms.TextInput(attrs={"type": "color"}))


class DeadlineForm(forms.Form):
    phase_deadline = LocalDateTimeField(label=_("Deadline"))  # the person's zone


class ExtendForm(forms.Form):
    """The current deadline, this many hours later (R-RND-1)."""

    hours = forms.IntegerField(label=_("Hours"), min_value=PHASE_HOURS_RANGE[0],
                               max_value=PHASE_HOURS_RANGE[1], initial=24)


class PauseForm(forms.Form):
    """The reason is shown on every page of the campaign while paused."""

    reason = forms.CharField(label=_("Reason"), max_length=200, required=False,
                             help_text=_("Shown to everyone on every page of the campaign."))


class AdvanceForm(forms.Form):
    """``expected_phase`` is the phase the admin saw: a second click advances nothing more."""

    expected_phase = forms.ChoiceField(choices=[("", "")] + list(Round.Phase.choices),
                                       required=False, widget=forms.HiddenInput)


class ResultForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome for the attacker"),
                                choices=Battle.Outcome.choices)
    attacker_vp = forms.IntegerField(label=_("Attacker VP"), min_value=0, max_value=MAX_VP,
                                     initial=0)
    defender_vp = forms.IntegerField(label=_("Defender VP"), min_value=0, max_value=MAX_VP,
                                     initial=0)


class MapImportForm(OptionalReasonForm):  # a correction once running
    document = forms.FileField(
        label=_("Map document (JSON)"),
        help_text=_("The shape the map export has: planets with tiles, links, areas and "
                    "fleets. It replaces the whole map."))

    def clean_document(self):
        upload = self.cleaned_data["document"]
        if upload.size > MAP_DOCUMENT_BYTES:
            raise forms.ValidationError(_("The document is larger than 5 MB."))
        try:
            document = json.loads(upload.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The document is not UTF-8 text.")) from None
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("Not valid JSON: %(error)s (line %(line)s, column %(column)s).")
                % {"error": exc.msg, "line": exc.lineno, "column": exc.colno}) from None
        except RecursionError:
            raise forms.ValidationError(_("The document nests too deeply.")) from None
        except ValueError:  # an integer longer than Python reads (4,300 digits)
            raise forms.ValidationError(_("The document holds a number too long to "
                                          "read.")) from None
        for path, found in walk_text(document):
            raise forms.ValidationError(
                _("%(path)s contains U+%(code)s at position %(position)s: NUL, control "
                  "characters and lone surrogates are not allowed.")
                % {"path": path or _("The document"), "code": found.code,
                   "position": found.position})
        return document


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
    "early_advance": _("Advance early when everyone is done"),
    "absence_days": _("Absence days per player and season"),
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
    "early_advance": _("A phase that waits for players ends as soon as every player who can "
                       "act in it has acted or said “done”; otherwise at its deadline."),
    "absence_days": _("Days a player may mark as away in a season; while away their inputs "
                      "take the defaults without reminders. 0 turns absences off."),
}


CHOICE_LABELS = {
    "campaign": _("all players of the campaign"), "battle": _("the two sides of the battle"),
    "defender_holds": _("the defender holds"), "attacker_wins": _("the attacker wins"),
    "roll_all": _("roll every won attack"), "waive_all": _("waive every roll"),
    **dict(NavalBattle.Engine.choices),
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
                label=_("Hours of the %(phase)s phase") % {"phase": Round.Phase(phase).label},
                min_value=low, max_value=high,
                help_text=_help(_("How long players have before the deadline."), default,
                                "R-RND-1", _bounds(low, high)))
        self.fields.update(weekly_fields())
        for name, spec in KEYS.items():
            self.fields[name] = _key_field(name, spec)

    @staticmethod
    def initial_from(ruleset: dict) -> dict:
        initial = {k: v for k, v in ruleset.items() if k != "phase_hours"}
        for phase, hours in ruleset.get("phase_hours", {}).items():
            initial[PHASE_FIELD.format(phase)] = hours
        initial.update(weekly_initial(ruleset.get("weekly_deadlines") or {}))
        return initial

    def ruleset(self) -> dict:
        data = self.cleaned_data
        result = {name: data[name] for name in KEYS}
        result["phase_hours"] = {p: data[PHASE_FIELD.format(p)] for p in PHASE_HOURS_DEFAULTS}
        result["weekly_deadlines"] = weekly_ruleset(data)
        return result

    @staticmethod
    def field_for(service_field: str | None) -> str | None:
        """``ruleset.phase_hours.declare`` -> ``phase_hours_declare``; ``ruleset.x`` -> ``x``."""
        key = (service_field or "").removeprefix("ruleset.")
        if key.startswith("phase_hours."):
            return PHASE_FIELD.format(key.split(".", 1)[1])
        if key.startswith("weekly_deadlines"):
            return weekly_field_for(key)
        return key or None
