"""The naval odds form of the fleets page (R-ODDS-1): two sides, each one of the viewer's fleets,
a hostile fleet in reach with assumed values, or ships entered by hand; and a stance per side.

A side's ships are typed one per line (a phone's keyboard needs no per-ship inputs):

- ``dark_force``: ``attack defence agility`` (R-FLT-2), e.g. ``4 6 3``;
- ``d6_space``: ``maneuver speed targeting gun_damage shields hull`` (R-SPC-1), dice codes and a
  speed, e.g. ``2D 3 3D 3D+1 2D 3D``.

Values may be separated by spaces, commas, semicolons or slashes. The bounds are
``rules.ship_values``' (the same checks as the API's serializers); every error names the rule.
The form checks the shape; the preview service (``fleets.services.odds``) fights the battles."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.values import parse_number
from fleets.messages import problem_text
from fleets.models import Fleet
from fleets.services.odds import MAX_PREVIEW_SHIPS
from rules.fleet_phase import DEFAULT_DATASHEET
from rules.ship_values import (
    BOUNDS,
    DEFAULTS,
    SPEED,
    dice_code,
    hull_problem,
    ship_problems,
)

SIDES = ("attacker", "defender")
HAND = "hand"
MAX_TEXT = 2000  # 12 lines of six dice codes fit easily
# the values of a typed line, per engine (R-FLT-2, R-SPC-1)
COLUMNS = {"dark_force": ("attack", "defence", "agility"),
           "d6_space": ("maneuver", "speed", "targeting", "gun_damage", "shields", "hull")}
VALUE_NAMES = {"attack": _("attack"), "defence": _("defence"), "agility": _("agility"),
               "maneuver": _("maneuver"), "speed": _("speed"), "targeting": _("targeting"),
               "gun_damage": _("gun damage"), "shields": _("shields"), "hull": _("hull")}
SEPARATORS = re.compile(r"[\s,;/]+")


def default_line(engine: str) -> str:
    """A ship whose values nobody knows: the values a ship takes when none are given
    (``rules.ship_values.DEFAULTS``; with the D6 engine ``DEFAULT_DATASHEET``, which the fleet
    phase uses for a ship without a datasheet)."""
    if engine == "d6_space":
        sheet = DEFAULT_DATASHEET.as_dict()
        return " ".join(str(sheet[key]) for key in COLUMNS[engine])
    return " ".join(str(DEFAULTS[key]) for key in COLUMNS[engine])


def preview_ship(ship: dict, engine: str) -> dict:
    """A stored ship (``fleets.selectors.fleets.ship_data``) in the preview's fleet shape; a D6
    ship without a datasheet fights with ``DEFAULT_DATASHEET``, as in the fleet phase."""
    shaped = {key: value for key, value in ship.items() if key != "position"}
    if engine == "d6_space" and not shaped.get("datasheet"):
        shaped["datasheet"] = DEFAULT_DATASHEET.as_dict()
    return shaped


class NavalOddsForm(forms.Form):
    """``fleets``: the fleets the viewer may load with their values (full views, R-FLT-7);
    ``targets``: hostile fleets in reach, of which only the public facts are known (the public
    views: owner, kind, area, ship count) and their ships' values are assumed by the viewer.
    ``labels`` maps a fleet id to its option text. ``sides`` holds the two fleets in the
    preview's shape once the form is valid."""

    attacker = forms.ChoiceField(label=_("Fleet"))
    attacker_ships = forms.CharField(
        label=_("Ships, one per line"), required=False, max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false",
                                     "autocapitalize": "off"}))
    attacker_stance = forms.ChoiceField(label=_("Battle stance"),
                                        choices=Fleet.Stance.choices, initial="auto")
    defender = forms.ChoiceField(label=_("Fleet"))
    defender_ships = forms.CharField(
        label=_("Ships, one per line"), required=False, max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false",
                                     "autocapitalize": "off"}))
    defender_stance = forms.ChoiceField(label=_("Battle stance"),
                                        choices=Fleet.Stance.choices, initial="auto")

    def __init__(self, *args, engine: str, fleets: list[dict], targets: list[dict],
                 labels: dict[int, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.fleets = {f"fleet-{f['id']}": f for f in fleets}
        self.targets = {f"target-{f['id']}": f for f in targets}
        choices: list = [(HAND, _("Ships entered by hand"))]
        if fleets:
            choices.append((_("Fleets whose values you know"),
                            [(key, labels[f["id"]]) for key, f in self.fleets.items()]))
        if targets:
            choices.append((_("Hostile fleets in reach (values assumed)"),
                            [(key, labels[f["id"]]) for key, f in self.targets.items()]))
        columns = " ".join(str(VALUE_NAMES[c]) for c in COLUMNS[engine])
        example = default_line(engine)
        for side in SIDES:
            self.fields[side].choices = choices
            self.fields[f"{side}_ships"].help_text = _(
                "Used for ships entered by hand and for a hostile fleet (one line per ship, "
                "its assumed values; empty: “%(example)s” for each). Each line: %(columns)s. "
                "At most %(most)d ships.") % {"columns": columns, "example": example,
                                              "most": MAX_PREVIEW_SHIPS}
        self.sides: dict[str, dict] = {}
        self.refill: dict[str, str] = {}  # textareas to show with other text (a hostile pick)

    def initial_text(self, pick: str) -> str:
        """The textarea's text for a fresh pick: neutral values per ship of a hostile fleet."""
        target = self.targets.get(pick)
        return "\n".join([default_line(self.engine)] * target["ship_count"]) if target else ""

    def clean(self):
        data = super().clean()
        for side in SIDES:
            pick = data.get(side)
            if pick is None or f"{side}_ships" not in data or f"{side}_stance" not in data:
                continue
            ships = self._side(side, pick, data[f"{side}_ships"])
            if ships is not None:
                self.sides[side] = {"ships": ships, "stance": data[f"{side}_stance"]}
        return data

    def _side(self, side: str, pick: str, text: str) -> list[dict] | None:
        field = f"{side}_ships"
        if pick in self.fleets:
            fleet = self.fleets[pick]
            if len(fleet["ships"]) > MAX_PREVIEW_SHIPS:
                self.add_error(side, self._too_many(len(fleet["ships"])))
                return None
            if not fleet["ships"]:
                self.add_error(side, _("This fleet has no ships."))
                return None
            return [preview_ship(ship, self.engine) for ship in fleet["ships"]]
        lines = [line for line in text.splitlines() if line.strip()]
        if pick in self.targets:
            count = self.targets[pick]["ship_count"]
            if not lines:  # R-FLT-7: only the ship count is known; neutral values assumed
                self.refill[field] = self.initial_text(pick)
                lines = self.refill[field].splitlines()
            elif len(lines) != count:
                given = lines[:count] + [default_line(self.engine)] * (count - len(lines))
                self.refill[field] = "\n".join(given)
                self.add_error(field, ngettext(
                    "This fleet has %(count)d ship (its ship count is public, R-FLT-7): give "
                    "one line of assumed values per ship. The box now holds %(count)d line.",
                    "This fleet has %(count)d ships (its ship count is public, R-FLT-7): give "
                    "one line of assumed values per ship. The box now holds %(count)d lines.",
                    count) % {"count": count})
                return None
        elif not lines:
            self.add_error(field, _("Enter at least one ship."))
            return None
        if len(lines) > MAX_PREVIEW_SHIPS:
            self.add_error(field, self._too_many(len(lines)))
            return None
        ships, errors = [], []
        for number, line in enumerate(lines, 1):
            ship, problem = self._line(line)
            if problem:
                errors.append(_("Line %(line)d: %(problem)s") % {"line": number,
                                                                 "problem": problem})
            else:
                ships.append(ship)
        for error in errors:
            self.add_error(field, error)
        return None if errors else ships

    @staticmethod
    def _too_many(count: int) -> str:
        return _("%(count)d ships: a preview takes at most %(most)d ships a side (R-ODDS-1).") \
            % {"count": count, "most": MAX_PREVIEW_SHIPS}

    def _line(self, line: str) -> tuple[dict, str | None]:
        """One typed ship, or the reason it is refused (naming the rule)."""
        columns = COLUMNS[self.engine]
        values = [v for v in SEPARATORS.split(line.strip()) if v]
        if len(values) != len(columns):
            return {}, _("give %(count)d values: %(columns)s (%(rule)s).") % {
                "count": len(columns), "columns": " ".join(str(VALUE_NAMES[c]) for c in columns),
                "rule": "R-FLT-2" if self.engine == "dark_force" else "R-SPC-1"}
        given = dict(zip(columns, values, strict=True))
        if self.engine == "dark_force":
            ship: dict = {}
            for key, text in given.items():
                low, high = BOUNDS[key]
                number = parse_number(text)
                if number is None or not low <= number <= high:
                    return {}, self._number(key, low, high, "R-FLT-2")
                ship[key] = number
        else:
            sheet: dict = {}
            for key, text in given.items():
                if key == "speed":
                    number = parse_number(text)
                    if number is None or not SPEED[0] <= number <= SPEED[1]:
                        return {}, self._number(key, *SPEED, "R-SPC-1")
                    sheet[key] = number
                    continue
                code = text.upper()
                try:
                    dice_code(code)
                except ValueError:
                    return {}, _("%(name)s: “%(value)s” is not a dice code such as 2D+1 "
                                 "(R-SPC-1).") % {"name": VALUE_NAMES[key], "value": text[:12]}
                if key == "hull" and hull_problem(code):
                    return {}, _("hull: a ship starts with at least 1D hull (R-SPC-1, "
                                 "R-SPC-6).")
                sheet[key] = code
            ship = {"datasheet": sheet}
        problems = ship_problems(ship, named=False)  # the API's checks, should one be missed
        return ship, (problem_text(problems[0]) if problems else None)

    @staticmethod
    def _number(key: str, low: int, high: int, rule: str) -> str:
        return _("%(name)s must be a whole number from %(low)d to %(high)d (%(rule)s).") % {
            "name": VALUE_NAMES[key], "low": low, "high": high, "rule": rule}

