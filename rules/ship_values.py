"""One definition of a ship's values (R-FLT-2) and of its D6 datasheet (R-SPC-1): the bounds,
and the checks that the API, the map import, the admin, the pages, the odds preview (R-ODDS-1),
sea hazards (R-SEA-2) and the engines' fleet-shape adapters all use.

Values come as JSON data in the fleet shape (API.md "Fleets and naval battles"): a ship is
``{"id", "name", "class", "attack", "defence", "agility", "capacity", "seats",
"cargo": [{"name", "points"}], "crew": [{"name", "cp"}], "datasheet"}`` (``id`` is ignored);
a datasheet is ``{"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "4D+1",
"shields": "2D", "hull": "3D"}`` with an optional ``"captain": {"name", "dice_system",
"pip_system"}``, or null. A datasheet is complete or absent, never partly filled in (R-FLT-2).

Every check returns ``Problem``s in the order of the fields: the path of the offending value
below what was checked (``"datasheet.maneuver"``, ``"crew[2].cp"``; ``""`` is the value
itself), a message that names the rule, and the rule id, with a ``key`` and ``params`` that
name the same problem so a caller with translations (``fleets.messages``) can say it in the
reader's language (the ``message`` stays plain English). Callers put their own path in front
(``Problem.at``) and turn problems into their errors: a 400 naming the field and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from rules.dicecode import DiceCode, parse_code
from rules.ruleset import KEYS, IntKey

FLT, SPC = "R-FLT-2", "R-SPC-1"

# --- R-FLT-2 --------------------------------------------------------------------------------

# [decision] a ship's values; a sea hazard's attack, defence and agility too (R-SEA-2)
BOUNDS: dict[str, tuple[int, int]] = {
    "attack": (0, 50), "defence": (1, 50), "agility": (0, 7), "capacity": (0, 50),
    "cp": (0, 200),  # a crew member's command points (R-BRD-1)
    "seats": (1, 100),  # of the ship's class (R-VP-1)
}
# a new ship's values when they are not given
DEFAULTS = {"attack": 1, "defence": 1, "agility": 1, "capacity": 0}
NAME_LIMIT = 80  # names of ships, classes, characters, detachments and captains
MAX_CREW = 10  # characters in a crew stack
# a detachment's army points: 1 to the campaign's ``detachment_points`` (ruleset), which is at
# most MAX_DETACHMENT_POINTS; previews without a campaign allow that much
MIN_DETACHMENT_POINTS = 1
_POINTS = KEYS["detachment_points"]
assert isinstance(_POINTS, IntKey)
MAX_DETACHMENT_POINTS = _POINTS.high
SHIP_KEYS = ("id", "name", "class", "attack", "defence", "agility", "capacity", "seats",
             "cargo", "crew", "datasheet")

# --- R-SPC-1 --------------------------------------------------------------------------------

CODE_SYSTEMS = ("maneuver", "targeting", "gun_damage", "shields", "hull")  # dice codes nD+p
DATASHEET_KEYS = ("maneuver", "speed", "targeting", "gun_damage", "shields", "hull")
CAPTAIN_KEYS = ("name", "dice_system", "pip_system")
SPEED = (0, 100)  # a plain number
MAX_DICE = 20  # dice of one code; keeps every roll small
MAX_PIPS = 20  # pips of one code, either way
MAX_CODE_TEXT = 12  # "20D+20" and some spaces
MIN_HULL_DICE = 1  # hull 0D is destroyed (R-SPC-6)

REQUIRED = "this field is required"


_NO_PARAMS: Mapping = MappingProxyType({})


class Problem(NamedTuple):
    """What is wrong with one value: ``path`` below the checked value (``""``: the value
    itself), ``message`` naming the rule in English, ``rule`` its id; ``key`` and ``params``
    name the reason for a translation (every ``params`` holds the rule ids the message cites
    as ``rule``)."""

    path: str
    message: str
    rule: str
    key: str = ""
    params: Mapping = _NO_PARAMS

    def at(self, prefix: str) -> str:
        """The full path of the value below ``prefix`` (e.g. ``fleets[0].ships[0]``)."""
        return join(prefix, self.path)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def join(prefix: str, path: str) -> str:
    """``join("ships[0]", "crew[1].cp")`` -> ``"ships[0].crew[1].cp"``."""
    if not prefix or not path:
        return prefix or path
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


# --- single values --------------------------------------------------------------------------


def number_problem(value: object, low: int, high: int, path: str,
                   rule: str = FLT) -> Problem | None:
    """A whole number from ``low`` to ``high`` (booleans are not numbers)."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return None
    return Problem(path, f"expected a whole number from {low} to {high} ({rule})", rule,
                   "number", {"low": low, "high": high, "rule": rule})


def value_problem(name: str, value: object, path: str | None = None) -> Problem | None:
    """R-FLT-2: ``value`` of ``attack``, ``defence``, ``agility``, ``capacity``, ``cp`` or
    ``seats`` within its bounds."""
    return number_problem(value, *BOUNDS[name], name if path is None else path)


def text_problem(value: object, path: str, *, required: bool, rule: str = FLT) -> Problem | None:
    """A name: a string of at most NAME_LIMIT characters, not blank if ``required``."""
    if not isinstance(value, str) or len(value) > NAME_LIMIT:
        return Problem(path, f"expected a text of at most {NAME_LIMIT} characters ({rule})", rule,
                       "text", {"limit": NAME_LIMIT, "rule": rule})
    if required and not value.strip():
        return Problem(path, f"must not be blank ({rule})", rule, "blank", {"rule": rule})
    return None


def _required(path: str, rule: str) -> Problem:
    return Problem(path, f"{REQUIRED} ({rule})", rule, "required", {"rule": rule})


def _keys_problems(data: Mapping, allowed: tuple[str, ...], path: str,
                   rule: str) -> list[Problem]:
    return [Problem(join(path, str(key)), f"unknown field {str(key)!r} ({rule})", rule,
                    "unknown_field", {"field": repr(str(key)), "rule": rule})
            for key in data if key not in allowed]


def _object_problem(data: object, path: str, what: str, rule: str,
                    key: str = "object") -> Problem | None:
    """Not an object: ``key`` ``object`` (``what`` is a shape such as ``{name, cp}``),
    ``ship`` (a ship) or ``datasheet`` (a datasheet or null)."""
    if isinstance(data, Mapping):
        return None
    return Problem(path, f"expected an object: {what} ({rule})", rule, key,
                   {"shape": what, "rule": rule})


# --- crew and cargo (R-FLT-2) ---------------------------------------------------------------


def crew_problems(raw: object, *, named: bool = True) -> list[Problem]:
    """The crew stack, bottom first (R-BRD-1): at most MAX_CREW ``{"name", "cp"}``. Stored
    ships' characters have names (``named``); an odds preview's may go without."""
    if not isinstance(raw, list) or len(raw) > MAX_CREW:
        return [Problem("crew", f"expected a list of at most {MAX_CREW} characters "
                                f"{{name, cp}} ({FLT})", FLT, "crew_list",
                        {"most": MAX_CREW, "rule": FLT})]
    problems: list[Problem] = []
    for i, entry in enumerate(raw):
        problems += _entry_problems(entry, f"crew[{i}]", "cp", *BOUNDS["cp"], named)
    return problems


def cargo_problems(raw: object, *, capacity: object = None,
                   detachment_points: int = MAX_DETACHMENT_POINTS,
                   named: bool = True) -> list[Problem]:
    """The embarked detachments ``{"name", "points"}``: each of 1 to ``detachment_points``
    army points (ruleset), no more of them than the ship's ``capacity`` (when it is valid)."""
    most = BOUNDS["capacity"][1]
    if not isinstance(raw, list) or len(raw) > most:
        return [Problem("cargo", f"expected a list of at most {most} detachments "
                                 f"{{name, points}} ({FLT})", FLT, "cargo_list",
                        {"most": most, "rule": FLT})]
    problems: list[Problem] = []
    for i, entry in enumerate(raw):
        problems += _entry_problems(entry, f"cargo[{i}]", "points", MIN_DETACHMENT_POINTS,
                                    detachment_points, named)
    if isinstance(capacity, int) and value_problem("capacity", capacity) is None \
            and len(raw) > capacity:
        problems.append(Problem("cargo", f"more detachments than the capacity {capacity} "
                                         f"({FLT})", FLT, "over_capacity",
                                {"capacity": capacity, "count": len(raw), "rule": FLT}))
    return problems


def _entry_problems(entry: object, path: str, number: str, low: int, high: int,
                    named: bool) -> list[Problem]:
    problem = _object_problem(entry, path, f"{{name, {number}}}", FLT)
    if problem:
        return [problem]
    assert isinstance(entry, Mapping)
    problems = _keys_problems(entry, ("name", number), path, FLT)
    if number not in entry:
        problems.append(_required(join(path, number), FLT))
    else:
        problems += filter(None, [number_problem(entry[number], low, high,
                                                 join(path, number))])
    if named and "name" not in entry:
        problems.append(_required(join(path, "name"), FLT))
    elif "name" in entry:
        problems += filter(None, [text_problem(entry["name"], join(path, "name"),
                                               required=named)])
    return problems


# --- the D6 datasheet (R-SPC-1) -------------------------------------------------------------


def _code(value: object, path: str) -> DiceCode | Problem:
    if not isinstance(value, str) or len(value) > MAX_CODE_TEXT:
        return Problem(path, f"expected a dice code nD+p such as \"2D+1\" ({SPC})", SPC,
                       "code_shape", {"rule": SPC})
    try:
        code = parse_code(value)
    except ValueError:
        return Problem(path, f"not a dice code: {value!r} (expected nD+p such as \"2D+1\", "
                             f"{SPC})", SPC, "not_code", {"value": repr(value), "rule": SPC})
    if code.dice > MAX_DICE or abs(code.pips) > MAX_PIPS:
        return Problem(path, f"at most {MAX_DICE}D and {MAX_PIPS} pips either way ({SPC})",
                       SPC, "code_bounds", {"dice": MAX_DICE, "pips": MAX_PIPS, "rule": SPC})
    return code


def dice_code(value: object) -> DiceCode:
    """A system's dice code ``nD+p`` (R-DICE-1) within MAX_DICE and MAX_PIPS; raises
    ValueError with a message naming R-SPC-1 (``code_problem`` says the same as a Problem)."""
    code = _code(value, "")
    if isinstance(code, Problem):
        raise ValueError(code.message)
    return code


def code_problem(value: object, path: str) -> Problem | None:
    code = _code(value, path)
    return code if isinstance(code, Problem) else None


def hull_problem(value: object, path: str = "hull") -> Problem | None:
    """A valid hull code with fewer than MIN_HULL_DICE dice: the ship would start destroyed."""
    if code_problem(value, path) is None and dice_code(value).dice < MIN_HULL_DICE:
        return Problem(path, f"a ship starts with at least {MIN_HULL_DICE}D hull "
                             f"({SPC}, R-SPC-6)", SPC, "hull_dice",
                       {"dice": MIN_HULL_DICE, "rule": f"{SPC}, R-SPC-6"})
    return None


def captain_problems(raw: object, path: str = "captain") -> list[Problem]:
    """The optional captain (null or absent: none): +1D to ``dice_system``, +1 pip to another
    system or speed, ``pip_system``; the name is optional."""
    if raw is None:
        return []
    problem = _object_problem(raw, path, "{name, dice_system, pip_system}", SPC)
    if problem:
        return [problem]
    assert isinstance(raw, Mapping)
    problems = _keys_problems(raw, CAPTAIN_KEYS, path, SPC)
    if "name" in raw:
        problems += filter(None, [text_problem(raw["name"], join(path, "name"),
                                               required=False, rule=SPC)])
    choices = {"dice_system": CODE_SYSTEMS, "pip_system": (*CODE_SYSTEMS, "speed")}
    for key, allowed in choices.items():
        if key not in raw:
            problems.append(_required(join(path, key), SPC))
        elif raw[key] not in allowed:
            problems.append(Problem(join(path, key), f"expected one of {', '.join(allowed)} "
                                                     f"({SPC})", SPC, "choice",
                                    {"choices": ", ".join(allowed), "rule": SPC}))
    if not problems and raw["dice_system"] == raw["pip_system"]:
        problems.append(Problem(path, f"the captain's bonuses go to two different systems "
                                      f"({SPC})", SPC, "captain_systems", {"rule": SPC}))
    return problems


def datasheet_problems(raw: object, *, strict: bool = True) -> list[Problem]:
    """Null (no datasheet) or a complete datasheet (R-FLT-2): every system's dice code, speed,
    hull at least MIN_HULL_DICE, a valid captain if any. ``strict`` refuses unknown fields
    (new input); stored datasheets are read with ``strict=False``."""
    if raw is None:
        return []
    problem = _object_problem(raw, "", f"a D6 datasheet {{{', '.join(DATASHEET_KEYS)}}} "
                                       f"or null", SPC, "datasheet")
    if problem:
        return [problem]
    assert isinstance(raw, Mapping)
    problems = _keys_problems(raw, (*DATASHEET_KEYS, "captain"), "", SPC) if strict else []
    for key in DATASHEET_KEYS:
        if key not in raw:
            problems.append(Problem(key, f"{REQUIRED}: a datasheet is complete or absent, "
                                         f"never partly filled in ({SPC}, {FLT})", SPC,
                                    "datasheet_partial", {"rule": f"{SPC}, {FLT}"}))
        elif key == "speed":
            problems += filter(None, [number_problem(raw[key], *SPEED, key, SPC)])
        else:
            problems += filter(None, [code_problem(raw[key], key)])
    problems += filter(None, [hull_problem(raw.get("hull"))])
    return problems + captain_problems(raw.get("captain"))


# --- a whole ship ---------------------------------------------------------------------------


def ship_problems(data: object, *, detachment_points: int = MAX_DETACHMENT_POINTS,
                  named: bool = True, required: tuple[str, ...] = ()) -> list[Problem]:
    """A ship in the fleet shape (R-FLT-2, R-SPC-1). Values not given take DEFAULTS, except
    the ``required`` ones; a stored ship and its crew and detachments have names
    (``named``), an odds preview's may go without."""
    problem = _object_problem(data, "", "a ship", FLT, "ship")
    if problem:
        return [problem]
    assert isinstance(data, Mapping)
    problems = _keys_problems(data, SHIP_KEYS, "", FLT)
    if named and "name" not in data:
        problems.append(_required("name", FLT))
    elif "name" in data:
        problems += filter(None, [text_problem(data["name"], "name", required=named)])
    if "class" in data:
        problems += filter(None, [text_problem(data["class"], "class", required=False)])
    for key in DEFAULTS:
        if key in data:
            problems += filter(None, [value_problem(key, data[key])])
        elif key in required:
            problems.append(_required(key, FLT))
    if data.get("seats") is not None:
        problems += filter(None, [value_problem("seats", data["seats"])])
    problems += crew_problems(data.get("crew", []), named=named)
    problems += cargo_problems(data.get("cargo", []),
                               capacity=data.get("capacity", DEFAULTS["capacity"]),
                               detachment_points=detachment_points, named=named)
    problems += [p._replace(path=join("datasheet", p.path))
                 for p in datasheet_problems(data.get("datasheet"))]
    return problems


class ProblemError(ValueError):
    """A ``Problem`` raised by an engine's adapter: ``problem`` with its full path."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def raise_first(problems: list[Problem], path: str) -> None:
    """Raise ``ProblemError`` (a ValueError, ``"<path of the first problem>: <message>"``) if
    there is a problem (the engines' adapters; ``path`` is where the checked value is)."""
    if problems:
        raise ProblemError(problems[0]._replace(path=problems[0].at(path)))


def hazard_problems(values: Mapping) -> list[Problem]:
    """R-SEA-2: a sea hazard's ``attack``, ``defence`` and ``agility`` within the ship bounds
    of R-FLT-2 (the values not given take DEFAULTS); the messages name both rules."""
    return [problem._replace(rule="R-SEA-2", key="hazard_number",
                             params={**problem.params, "rule": f"R-SEA-2, {FLT}"})
            for key in ("attack", "defence", "agility")
            if (problem := number_problem(values.get(key, DEFAULTS[key]), *BOUNDS[key], key,
                                          f"R-SEA-2, ship bounds of {FLT}")) is not None]
