"""Army lists (R-ARM-1, R-ARM-2): read pasted text, a JSON entry list or a BattleScribe / New
Recruit roster file into one ``ParsedList``, and check it against the participant's limit.

Pure Python. Every unreadable input raises ``RosterError`` with a message meant for the player
(the API answers 400); a list over its limit raises ``ListOverLimit`` (R-ARM-1).

Roster files (``parse_roster_file``) are read into one shape, which is also the New Recruit JSON
export this module accepts (attributes become keys, containers become lists)::

    {"roster": {
        "name": "My list",
        "costs": [{"name": "pts", "typeId": "points", "value": 1000}],
        "forces": [{
            "catalogueName": "Space Marines",
            "selections": [{"name": "Captain", "customName": "...", "number": 1,
                            "costs": [...], "selections": [...]}],
            "forces": [...]}]}}

A container may also be wrapped the xml2js way (``"costs": {"cost": [...]}``, or one object
instead of a list). Costs carry ``typeId`` (``costTypeId`` in 2.01-style files) and a numeric or
numeric-string ``value``. Unknown keys are ignored.

Points: a cost counts if its type id is ``points``; a file without such ids counts the costs
named ``pts`` / ``points``. Other costs (`` PL``, ``CP``, ...) are ignored. A unit is a
top-level selection of a force; its points are its own costs plus those of all its nested
selections. Costs are taken as written: BattleScribe stores each selection's cost already
multiplied by its ``number``.

[decision] The entries' sum is the list's total (the limit is checked on it). A stated total
(a text "Total:" line, JSON ``total``, the roster's own costs) is kept as ``roster_total``; when
it disagrees with the sum the list is accepted with a warning.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import PurePosixPath

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from rules.text import forbidden_character

MAX_BYTES = 2 * 1024 * 1024  # unpacked size of any list or roster
MAX_ENTRIES = 500
MAX_POINTS = 100_000
MAX_NAME = 200
MAX_LINE = 300  # a pasted text line: name, separator, points
MAX_COST = Decimal(10**9)  # any single cost beyond this is garbage, not a points value
MAX_DEPTH = 64  # nesting of selections / forces; real rosters stay below 10
ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
POINT_COST_NAMES = frozenset({"pts", "pt", "points"})
SOURCES = ("text", "json", "ros", "rosz", "newrecruit")


class RosterError(ValueError):
    """An army list that cannot be read (R-ARM-2); ``message`` is shown to the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ListOverLimit(ValueError):
    """The list's total exceeds the participant's limit (R-ARM-1)."""

    def __init__(self, limit: int, total: int, excess: int):
        super().__init__(f"The list totals {total} points; the limit is {limit} ({excess} over)")
        self.limit, self.total, self.excess = limit, total, excess


@dataclass(frozen=True)
class Entry:
    name: str
    points: int


@dataclass(frozen=True)
class ParsedList:
    """An army list as read (R-ARM-1): ``total`` is the sum of the entries; ``roster_total``
    the total the input stated itself, if any."""

    name: str
    faction: str
    entries: tuple[Entry, ...]
    total: int
    roster_total: int | None
    warnings: tuple[str, ...]
    source: str

    def __post_init__(self):
        if self.total != sum(e.points for e in self.entries):
            raise ValueError("total must be the sum of the entries")
        if self.source not in SOURCES:
            raise ValueError(f"unknown source {self.source!r}")

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "faction": self.faction,
            "entries": [{"name": e.name, "points": e.points} for e in self.entries],
            "total": self.total,
            "roster_total": self.roster_total,
            "warnings": list(self.warnings),
            "source": self.source,
        }


def check_limit(parsed: ParsedList, limit: int) -> None:
    """R-ARM-1: reject a list over the limit, naming the limit and the excess."""
    if parsed.total > limit:
        raise ListOverLimit(limit, parsed.total, parsed.total - limit)


# --- shared checks ---------------------------------------------------------------------------

def _entry(name: object, points: object, where: str) -> Entry:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise RosterError(f"{where}: the unit needs a name.")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise RosterError(f"{where}: the unit name is longer than {MAX_NAME} characters.")
    return Entry(name, _points(points, where))


def _points(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise RosterError(f"{where}: points must be a whole number from 0 to {MAX_POINTS}.")
    return value


def _build(name: str, faction: str, entries: list[Entry], stated: int | None, source: str,
           warnings: tuple[str, ...] = ()) -> ParsedList:
    _check_characters("The list's name", name)
    _check_characters("The faction", faction)
    for index, entry in enumerate(entries):
        _check_characters(f"Unit {index + 1}", entry.name)
    if not entries:
        raise RosterError("The list has no units.")
    if len(entries) > MAX_ENTRIES:
        raise RosterError(f"The list has more than {MAX_ENTRIES} units.")
    total = sum(e.points for e in entries)
    if stated is not None and stated != total:
        warnings += (f"The stated total ({stated}) differs from the sum of the units ({total}); "
                     "the sum counts.",)
    return ParsedList(name, faction, tuple(entries), total, stated, warnings, source)


def _check_characters(where: str, text: str) -> None:
    """Issue 14 item 6: NUL, control characters and lone surrogates are refused wherever a
    list comes from (they cannot be stored)."""
    found = forbidden_character(text)
    if found:
        raise RosterError(f"{where}: {found}.")


# --- pasted text -----------------------------------------------------------------------------

_NUM = r"(?P<pts>\d{1,3}(?:[.,]\d{3})+|\d+)"  # 90, 1500, 1,500 or 1.500
_UNIT = r"(?:\s*(?:pts?|points?|punkte|p)\.?)?"
_ENTRY_FORMS = (
    re.compile(rf"(?P<name>.+?)\s*[-\u2013\u2014:]\s*{_NUM}{_UNIT}", re.I),  # name - 90 (pts)
    re.compile(rf"(?P<name>.+?)\s*[(\[]\s*{_NUM}{_UNIT}\s*[)\]]", re.I),  # name (90 pts)
    re.compile(rf"(?P<name>.+?)\s+{_NUM}\s*(?:pts?|points?|punkte)\.?", re.I),  # name 90 pts
)
_TOTAL = re.compile(
    rf"(?:(?:total|sum|summe|gesamt)\b\s*[-\u2013\u2014:=]?|=)\s*[(\[]?\s*{_NUM}{_UNIT}\s*[)\]]?",
    re.I)
_BULLET = re.compile(r"^[-*+\u2022]\s+")
_LETTER = re.compile(r"[^\W\d_]")


def parse_text(text: str, *, name: str = "") -> ParsedList:
    """R-ARM-2: one ``name - points`` per line (also ``name: points``, ``name (90 pts)``,
    ``name 90 pts``, en/em dashes, bullets, blank lines). A ``Total: 1500`` or ``= 1500`` line
    is checked against the sum, not counted. ``name`` names the list."""
    if not isinstance(text, str):
        raise RosterError("The list must be text.")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RosterError("The list is larger than 2 MB.")
    found = forbidden_character(text)
    if found:
        line = text.count("\n", 0, found.position) + 1
        raise RosterError(f"Line {line}: {found}.")
    entries: list[Entry] = []
    stated: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _BULLET.sub("", " ".join(raw.split()))
        if not line:
            continue
        if len(line) > MAX_LINE:  # also keeps the lazy patterns linear and numbers short
            raise RosterError(f"Line {number}: the line is longer than {MAX_LINE} characters.")
        total = _TOTAL.fullmatch(line)
        if total and stated is not None:
            raise RosterError(f"Line {number}: the list has a second total line.")
        if total:
            stated = _text_points(total["pts"], number)
            continue
        entries.append(_text_entry(line, number))
        if len(entries) > MAX_ENTRIES:
            raise RosterError(f"The list has more than {MAX_ENTRIES} units.")
    return _build(name.strip(), "", entries, stated, "text")


def _text_entry(line: str, number: int) -> Entry:
    for form in _ENTRY_FORMS:
        match = form.fullmatch(line)
        if match and _LETTER.search(match["name"]):
            return _entry(match["name"], _text_points(match["pts"], number), f"Line {number}")
    shown = line if len(line) <= 60 else line[:57] + "..."
    raise RosterError(f'Line {number}: cannot read "{shown}"; write one unit per line as '
                      '"name - points".')


def _text_points(digits: str, number: int) -> int:
    return _points(int(re.sub(r"[.,]", "", digits)), f"Line {number}")


# --- JSON entry list -------------------------------------------------------------------------

_LIST_KEYS = frozenset({"name", "faction", "entries", "total"})
_ENTRY_KEYS = frozenset({"name", "points"})


def parse_entries(data: object) -> ParsedList:
    """R-ARM-2: ``{"name", "entries": [{"name", "points"}], "faction"?, "total"?}``, strictly:
    no unknown keys, non-empty names, whole points 0..100000, 1..500 entries."""
    if not isinstance(data, dict):
        raise RosterError('The list must be an object with "name" and "entries".')
    _no_unknown_keys(data, _LIST_KEYS, "The list")
    name, faction = data.get("name"), data.get("faction", "")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise RosterError(f"The list needs a name of at most {MAX_NAME} characters.")
    if not isinstance(faction, str) or len(faction) > MAX_NAME:
        raise RosterError(f"The faction must be text of at most {MAX_NAME} characters.")
    items = data.get("entries")
    if not isinstance(items, list):
        raise RosterError('"entries" must be a list of {"name", "points"} objects.')
    if len(items) > MAX_ENTRIES:
        raise RosterError(f"The list has more than {MAX_ENTRIES} units.")
    entries = [_json_entry(item, i) for i, item in enumerate(items)]
    stated = data.get("total")
    if stated is not None:
        _points(stated, "The total")
    return _build(name.strip(), faction.strip(), entries, stated, "json")


def _json_entry(item: object, index: int) -> Entry:
    where = f"entries[{index}]"
    if not isinstance(item, dict):
        raise RosterError(f'{where}: must be an object with "name" and "points".')
    _no_unknown_keys(item, _ENTRY_KEYS, where)
    return _entry(item.get("name"), item.get("points"), where)


def _no_unknown_keys(data: dict, allowed: frozenset, where: str) -> None:
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise RosterError(f'{where}: unknown field "{unknown[0]}".')


# --- roster files ----------------------------------------------------------------------------

def parse_roster_file(filename: str, content: bytes) -> ParsedList:
    """R-ARM-2: a BattleScribe ``.ros`` (XML), ``.rosz`` (zip of one ``.ros``) or New Recruit
    ``.json`` export. Units, faction and the roster's own total are read; see the module
    docstring for the shape and the points rules."""
    if not isinstance(content, bytes | bytearray):
        raise RosterError("The upload is empty or unreadable.")
    if len(content) > MAX_BYTES:
        raise RosterError("The roster file is larger than 2 MB.")
    path = PurePosixPath(str(filename).replace("\\", "/"))
    suffix = path.suffix.lower()
    if suffix == ".rosz" or (suffix == ".ros" and content.startswith(b"PK\x03\x04")):
        return _from_roster(_xml_roster(_unzip_ros(bytes(content))), "rosz", path.stem)
    if suffix == ".ros":
        return _from_roster(_xml_roster(bytes(content)), "ros", path.stem)
    if suffix == ".json":
        return _from_roster(_json_roster(bytes(content)), "newrecruit", path.stem)
    raise RosterError("Unsupported file type; upload a BattleScribe .ros or .rosz file or a "
                      "New Recruit .json export.")


def _unzip_ros(content: bytes) -> bytes:
    """The single ``.ros`` of a ``.rosz``, checked before it is read and read bounded (a
    member may claim a small size and inflate to much more)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, ValueError, EOFError, OSError) as exc:
        raise RosterError("The file is not a valid .rosz (zip) archive.") from exc
    with archive:
        members = archive.infolist()
        if len(members) != 1:
            raise RosterError(f"A .rosz must hold exactly one .ros file, not {len(members)} "
                              "entries.")
        _check_member(members[0])
        try:
            with archive.open(members[0]) as stream:
                data = stream.read(MAX_BYTES + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, zlib.error, EOFError,
                OSError, ValueError) as exc:
            raise RosterError("The .rosz archive is damaged or uses an unsupported "
                              "compression.") from exc
    if len(data) > MAX_BYTES:
        raise RosterError("The roster is larger than 2 MB unpacked.")
    return data


def _check_member(info: zipfile.ZipInfo) -> None:
    name = info.filename
    parts = re.split(r"[/\\]", name)
    if info.is_dir():
        raise RosterError("A .rosz must hold a .ros file, not a folder.")
    if name.startswith(("/", "\\")) or ":" in name or ".." in parts:
        raise RosterError("The .rosz holds a file with an unsafe path.")
    if info.flag_bits & 0x1:
        raise RosterError("The .rosz is encrypted.")
    if not name.lower().endswith(".ros"):
        raise RosterError("A .rosz must hold a .ros file.")
    if info.file_size > MAX_BYTES:
        raise RosterError("The roster is larger than 2 MB unpacked.")


_CONTAINERS = {"roster": ("costs", "forces"), "force": ("selections", "forces"),
               "selection": ("costs", "selections"), "cost": ()}
_ITEM = {"costs": "cost", "forces": "force", "selections": "selection"}


def _xml_roster(content: bytes) -> dict:
    """The roster element as a dict of the module docstring's shape. No DTD at all is
    accepted, so entity expansion (billion laughs) and external entities never happen."""
    try:
        root = fromstring(content, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise RosterError("The roster file declares a DTD or entities, which is not "
                          "allowed.") from exc
    except (ParseError, ValueError) as exc:
        raise RosterError(f"The roster file is not valid XML ({exc}).") from exc
    namespace, tag = _split_tag(root.tag)
    if tag != "roster" or namespace not in ("", ROSTER_NAMESPACE):
        raise RosterError("The file is not a BattleScribe roster.")
    return _xml_node(root, "roster", 0)


def _xml_node(element, kind: str, depth: int) -> dict:
    if depth > MAX_DEPTH:
        raise RosterError(f"The roster nests deeper than {MAX_DEPTH} levels.")
    node: dict = dict(element.attrib)
    for container in _CONTAINERS[kind]:
        node[container] = [_xml_node(item, _ITEM[container], depth + 1)
                           for item in _xml_children(element, container)]
    return node


def _xml_children(element, container: str):
    for box in element:
        if _split_tag(box.tag)[1] == container:
            yield from (item for item in box if _split_tag(item.tag)[1] == _ITEM[container])


def _split_tag(tag) -> tuple[str, str]:
    if not isinstance(tag, str):  # comments and processing instructions
        return "", ""
    namespace, _, local = tag[1:].rpartition("}") if tag.startswith("{") else ("", "", tag)
    return namespace, local


def _json_roster(content: bytes) -> dict:
    try:
        data = json.loads(content.decode("utf-8-sig"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise RosterError("The roster file is not UTF-8 text.") from exc
    except (ValueError, RecursionError) as exc:
        raise RosterError("The roster file is not valid JSON.") from exc
    if not isinstance(data, dict) or not isinstance(data.get("roster"), dict):
        raise RosterError('Not a New Recruit export: expected an object with a "roster".')
    return data["roster"]


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _from_roster(roster: dict, source: str, stem: str) -> ParsedList:
    factions: list[str] = []
    entries: list[Entry] = []
    for force in _forces(roster, 0):
        faction = _text(force.get("catalogueName"), "catalogueName")
        if faction and faction not in factions:
            factions.append(faction)
        selections = _items(force, "selections")
        if len(entries) + len(selections) > MAX_ENTRIES:
            raise RosterError(f"The roster has more than {MAX_ENTRIES} units.")
        entries += [_unit(sel, len(entries) + i + 1) for i, sel in enumerate(selections)]
    stated = _points_cost(_items(roster, "costs"))
    warnings = ()
    if stated is None and entries and not any(e.points for e in entries):
        warnings = ("The roster shows no points costs (only PL or CP?); it counts as 0.",)
    name = _text(roster.get("name"), "name") or stem
    return _build(name[:MAX_NAME], " / ".join(factions), entries,
                  None if stated is None else _whole(stated), source, warnings)


def _forces(node: dict, depth: int):
    if depth > MAX_DEPTH:
        raise RosterError(f"The roster nests deeper than {MAX_DEPTH} levels.")
    for force in _items(node, "forces"):
        yield force
        yield from _forces(force, depth + 1)


def _unit(selection: dict, number: int) -> Entry:
    name = _text(selection.get("name"), "name")
    custom = _text(selection.get("customName"), "customName")
    label = f"{custom} ({name})" if custom and name and custom != name else custom or name
    return _entry(label, _whole(_selection_points(selection, 0)), f"Unit {number}")


def _selection_points(selection: dict, depth: int) -> Decimal:
    """R-ARM-2: a selection's points cost plus those of all its nested selections."""
    if depth > MAX_DEPTH:
        raise RosterError(f"The roster nests deeper than {MAX_DEPTH} levels.")
    own = _points_cost(_items(selection, "costs")) or Decimal(0)
    return own + sum((_selection_points(child, depth + 1)
                      for child in _items(selection, "selections")), Decimal(0))


def _points_cost(costs: list[dict]) -> Decimal | None:
    """The points among ``costs``: by type id ``points`` (``costTypeId`` in 2.01 files), else
    by the name ``pts`` / ``points``; None when there is no points cost."""
    typed = [c for c in costs
             if str(c.get("typeId") or c.get("costTypeId") or "").strip().lower() == "points"]
    chosen = typed or [c for c in costs
                       if str(c.get("name") or "").strip().lower() in POINT_COST_NAMES]
    if not chosen:
        return None
    return sum((_number(c.get("value")) for c in chosen), Decimal(0))


def _number(value: object) -> Decimal:
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise InvalidOperation
        number = Decimal(str(value).strip() or "0")
    except InvalidOperation as exc:
        raise RosterError(f'The roster has an invalid cost value "{value}".') from exc
    if not number.is_finite() or abs(number) > MAX_COST:
        raise RosterError(f'The roster has an invalid cost value "{value}".')
    return number


def _whole(points: Decimal) -> int:
    return int(points.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _items(node: dict, key: str) -> list[dict]:
    """The objects in container ``key``: a list, or xml2js-style ``{"cost": [...] | {...}}``."""
    value = node.get(key)
    if isinstance(value, dict):
        value = value.get(_ITEM[key], [])
    if isinstance(value, dict):
        value = [value]
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise RosterError(f'The roster\'s "{key}" must be a list of objects.')
    return value


def _text(value: object, key: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RosterError(f'The roster\'s "{key}" must be text.')
    return " ".join(value.split())
