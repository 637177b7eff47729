"""Per-campaign settings: the "Ruleset keys" table of RULES.md.

``validate_ruleset`` turns the admin's JSON object into the full normalized ruleset (missing keys
take their defaults, a partial ``phase_hours`` is merged with its defaults) or raises
``RulesetError`` naming the offending key. ``Ruleset`` is the typed, frozen form the rule
functions take.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


class RulesetError(ValueError):
    """An invalid ruleset: ``key`` names the offending key (``"phase_hours.declare"`` for a nested
    one, ``""`` for the whole document), ``message`` says what is wrong in plain English words;
    ``reason`` and ``params`` name the same problem so a caller with translations
    (``campaigns.messages.ruleset_text``) can say it in the reader's language."""

    def __init__(self, key: str, message: str, *, reason: str = "", params: dict | None = None
                 ) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.message = message
        self.reason = reason
        self.params = params or {}


@dataclass(frozen=True)
class IntKey:
    default: int | None
    low: int
    high: int
    rule: str
    nullable: bool = False


@dataclass(frozen=True)
class ChoiceKey:
    default: str
    choices: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class BoolKey:
    default: bool
    rule: str


PHASE_HOURS_DEFAULTS = {"declare": 48, "lists": 24, "battles": 72, "conquest": 24}
PHASE_HOURS_RANGE = (1, 720)

# Weekly deadlines [reading R-RND-1]: a waiting phase may close at a weekday and time
# in the campaign's zone instead of ``phase_hours`` after it opens.
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# One entry per row of the table; ``phase_hours`` is handled on its own (a nested object).
KEYS: dict[str, IntKey | ChoiceKey | BoolKey] = {
    "starting_requisition": IntKey(1, 0, 1000, "R-ECO-1"),
    "income_base": IntKey(1, 0, 1000, "R-ECO-1"),
    "income_per_tile": IntKey(0, 0, 100, "R-ECO-1"),
    "attack_army_cost": IntKey(1, 0, 1000, "R-ECO-1"),
    "base_army_points": IntKey(1500, 0, 100000, "R-BON-1"),
    "bonus_per_tile": IntKey(50, 0, 10000, "R-BON-2"),
    "bonus_scope": ChoiceKey("campaign", ("campaign", "battle"), "R-BON-2"),
    "orbital_assault_points": IntKey(1500, 0, 100000, "R-ATK-3"),
    "detachment_points": IntKey(500, 1, 100000, "R-FLT-2"),
    "neutral_needs_battle": BoolKey(False, "R-ATK-4"),
    "unplayed_outcome": ChoiceKey("defender_holds", ("defender_holds", "attacker_wins"),
                                  "R-RND-3"),
    "conquest_default": ChoiceKey("roll_all", ("roll_all", "waive_all"), "R-RND-3"),
    "confirm_hours": IntKey(48, 1, 720, "R-BAT-3"),
    "naval_engine": ChoiceKey("dark_force", ("dark_force", "d6_space"), "R-SPC"),
    "max_fleet_moves": IntKey(None, 1, 50, "R-FLT-4", nullable=True),
    "max_battle_rounds": IntKey(12, 1, 100, "R-NAV-11"),
    "start_distance_cm": IntKey(30, 10, 200, "R-SPC-2"),
    # [reading R-RND-2]: a waiting phase advances once every player who can act in
    # it has acted or said "done"; it still advances at its deadline otherwise.
    "early_advance": BoolKey(True, "R-RND-2"),
    # [reading R-RND-3]: days a player may mark as away per season (0 = off).
    "absence_days": IntKey(21, 0, 366, "R-RND-3"),
}

DEFAULTS: dict[str, Any] = {"phase_hours": dict(PHASE_HOURS_DEFAULTS), "weekly_deadlines": {}}
DEFAULTS.update({name: spec.default for name, spec in KEYS.items()})


def defaults() -> dict[str, Any]:
    """A fresh copy of the default ruleset (callers may mutate it)."""
    return copy.deepcopy(DEFAULTS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # bool is not an int here


def _check_int(key: str, value: Any, low: int, high: int, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if not _is_int(value):
        what = "an integer or null" if nullable else "an integer"
        raise RulesetError(key, f"must be {what}, got {type(value).__name__} {value!r}",
                           reason="not_int_or_null" if nullable else "not_int",
                           params={"value": repr(value)})
    if not low <= value <= high:
        raise RulesetError(key, f"must be between {low} and {high}, got {value}",
                           reason="out_of_range", params={"low": low, "high": high,
                                                          "value": value})
    return value


def _check_value(key: str, spec: IntKey | ChoiceKey | BoolKey, value: Any) -> Any:
    if isinstance(spec, IntKey):
        return _check_int(key, value, spec.low, spec.high, spec.nullable)
    if isinstance(spec, BoolKey):
        if not isinstance(value, bool):
            raise RulesetError(key, f"must be true or false, got {value!r}", reason="not_bool",
                               params={"value": repr(value)})
        return value
    if not isinstance(value, str) or value not in spec.choices:
        allowed = ", ".join(f'"{c}"' for c in spec.choices)
        raise RulesetError(key, f"must be one of {allowed}, got {value!r}", reason="not_choice",
                           params={"choices": allowed, "value": repr(value)})
    return value


def _check_phase_hours(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise RulesetError("phase_hours", "must be an object of phase name to hours",
                           reason="phase_hours_shape")
    merged = dict(PHASE_HOURS_DEFAULTS)
    for phase, hours in value.items():
        key = f"phase_hours.{phase}"
        if phase not in PHASE_HOURS_DEFAULTS:
            known = ", ".join(PHASE_HOURS_DEFAULTS)
            raise RulesetError(key, f"unknown phase (phases with a deadline: {known})",
                               reason="unknown_phase", params={"known": known})
        merged[phase] = _check_int(key, hours, *PHASE_HOURS_RANGE)
    return merged


def _check_weekly(value: Any) -> dict[str, dict[str, str]]:
    """``{"declare": {"weekday": "wednesday", "time": "20:00"}, ...}``: phases absent here
    keep ``phase_hours``."""
    if not isinstance(value, dict):
        raise RulesetError("weekly_deadlines", "must be an object of phase name to "
                           '{"weekday": ..., "time": "HH:MM"}', reason="weekly_shape")
    result = {}
    for phase, spec in value.items():
        key = f"weekly_deadlines.{phase}"
        if phase not in PHASE_HOURS_DEFAULTS:
            known = ", ".join(PHASE_HOURS_DEFAULTS)
            raise RulesetError(key, f"unknown phase (phases with a deadline: {known})",
                               reason="unknown_phase", params={"known": known})
        if not isinstance(spec, dict) or set(spec) != {"weekday", "time"}:
            raise RulesetError(key, 'must be {"weekday": ..., "time": "HH:MM"}',
                               reason="weekly_entry_shape")
        if spec["weekday"] not in WEEKDAYS:
            raise RulesetError(f"{key}.weekday", "must be one of " + ", ".join(WEEKDAYS),
                               reason="not_weekday", params={"choices": ", ".join(WEEKDAYS)})
        if parse_clock(spec["time"]) is None:
            raise RulesetError(f"{key}.time", f"must be a time HH:MM, got {spec['time']!r}",
                               reason="not_clock", params={"value": repr(spec["time"])})
        result[phase] = {"weekday": spec["weekday"], "time": spec["time"]}
    return result


def parse_clock(value: Any) -> tuple[int, int] | None:
    """``"20:00"`` -> (20, 0); None unless a 24-hour ``HH:MM``."""
    if not isinstance(value, str) or len(value) != 5 or value[2] != ":":
        return None
    hours, minutes = value[:2], value[3:]
    if not (hours.isdigit() and minutes.isdigit()):
        return None
    if int(hours) > 23 or int(minutes) > 59:
        return None
    return int(hours), int(minutes)


def validate_ruleset(data: dict | None) -> dict[str, Any]:
    """Return the full normalized ruleset for ``data`` (Ruleset keys table).

    Missing keys take their defaults; ``phase_hours`` may be partial. Unknown keys, wrong types
    (``true`` is not an integer) and out-of-range values raise ``RulesetError``."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesetError("", "the ruleset must be a JSON object", reason="not_object")
    result = defaults()
    for key, value in data.items():
        if key == "phase_hours":
            result[key] = _check_phase_hours(value)
        elif key == "weekly_deadlines":
            result[key] = _check_weekly(value)
        elif key in KEYS:
            result[key] = _check_value(key, KEYS[key], value)
        else:
            raise RulesetError(str(key), "unknown ruleset key", reason="unknown_key")
    return result


@dataclass(frozen=True)
class PhaseHours:
    """Deadline lengths of the phases that wait for players (R-RND-1)."""

    declare: int = PHASE_HOURS_DEFAULTS["declare"]
    lists: int = PHASE_HOURS_DEFAULTS["lists"]
    battles: int = PHASE_HOURS_DEFAULTS["battles"]
    conquest: int = PHASE_HOURS_DEFAULTS["conquest"]

    def for_phase(self, phase: str) -> int | None:
        """Hours for ``phase``, None for the automatic phases (``fleets``, ``closed``)."""
        return getattr(self, phase) if phase in PHASE_HOURS_DEFAULTS else None


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset; ``Ruleset()`` is the default one. Build from JSON with ``from_dict``."""

    phase_hours: PhaseHours = field(default_factory=PhaseHours)
    starting_requisition: int = 1
    income_base: int = 1
    income_per_tile: int = 0
    attack_army_cost: int = 1
    base_army_points: int = 1500
    bonus_per_tile: int = 50
    bonus_scope: str = "campaign"
    orbital_assault_points: int = 1500
    detachment_points: int = 500
    neutral_needs_battle: bool = False
    unplayed_outcome: str = "defender_holds"
    conquest_default: str = "roll_all"
    confirm_hours: int = 48
    naval_engine: str = "dark_force"
    max_fleet_moves: int | None = None
    max_battle_rounds: int = 12
    start_distance_cm: int = 30
    early_advance: bool = True
    absence_days: int = 21
    weekly_deadlines: dict = field(default_factory=dict)  # phase -> {"weekday", "time"}

    @classmethod
    def from_dict(cls, data: dict | None) -> Ruleset:
        """Validate ``data`` (raises ``RulesetError``) and build the typed ruleset."""
        normalized = validate_ruleset(data)
        hours = PhaseHours(**normalized.pop("phase_hours"))
        return cls(phase_hours=hours, **normalized)

    def as_dict(self) -> dict[str, Any]:
        """The normalized JSON form (what ``validate_ruleset`` returns)."""
        result: dict[str, Any] = {"phase_hours": {p: getattr(self.phase_hours, p)
                                                  for p in PHASE_HOURS_DEFAULTS}}
        result.update({name: getattr(self, name) for name in KEYS})
        result["weekly_deadlines"] = copy.deepcopy(self.weekly_deadlines)
        return result


DEFAULT_RULESET = Ruleset()
