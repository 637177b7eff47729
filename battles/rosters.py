"""Army lists (R-ARM-1, R-ARM-2): read a JSON entry list or a BattleScribe / New Recruit roster
file into one ``ParsedList``, and check it against the participant's limit. Pasted text is read
by ``battles.list_text`` into the same shape.

Pure Python. Every unreadable input raises ``RosterError`` with a message meant for the player
(the API answers 400; ``rule`` names the rule when one is broken); a list over its limit raises
``ListOverLimit`` (R-ARM-1).

Roster files (``parse_roster_file``) are recognised by their content, never by their name: a zip
(``PK`` signature) is a ``.rosz``, XML with a ``roster`` root a ``.ros``, a JSON object holding
``"roster"`` a New Recruit export. They are read into one shape, which is also the New Recruit
JSON export (attributes become keys, containers become lists)::

    {"roster": {
        "name": "My list",
        "costs": [{"name": "pts", "typeId": "points", "value": 1000}],
        "costLimits": [{"name": "pts", "typeId": "points", "value": 2000}],
        "forces": [{
            "catalogueName": "Space Marines",
            "selections": [{"name": "Captain", "customName": "...", "number": 1,
                            "type": "model", "costs": [...], "selections": [...],
                            "categories": [{"name": "Character"}]}],
            "forces": [...]}]}}

A container may also be wrapped the xml2js way (``"costs": {"cost": [...]}``, or one object
instead of a list). Costs carry ``typeId`` (``costTypeId`` in 2.01-style files) and a numeric or
numeric-string ``value``. Unknown keys are ignored.

Points (R-ARM-2): the roster declares its cost types itself - in ``costs`` and ``costLimits``
and on every cost it lists. The points are the cost types named like points (``pts``, ``pt``,
``points``, ``Point(s)``, ``Pts.`` in any case) or with the type id ``points``, whatever their
type id otherwise is (New Recruit uses GUIDs, e.g. Horus Heresy 3rd edition's ``Point(s)``). A
cost counts when its type id is one of those, or it has no type id and such a name. Other costs
(``PL``, ``CP``, ``EP``, ...) never count. A roster with no points cost at all (Kill Team's EP,
Apocalypse's PL) - or whose points are all 0 while it prices its units in another cost - is
refused (``NoPointsCost``): the campaign counts points.

A unit is a top-level selection of a force (or of the roster); its points are its own costs plus
those of all its nested selections. Costs are taken as written: BattleScribe stores each
selection's cost already multiplied by its ``number``. A top-level selection that configures the
list rather than adding to it is a list setting, not a unit (``_is_setting``).

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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.messages import forbidden_text
from rules.text import forbidden_character

MAX_BYTES = 2 * 1024 * 1024  # unpacked size of any list or roster
MAX_ENTRIES = 500
MAX_SETTINGS = 50
MAX_POINTS = 100_000
MAX_NAME = 200
MAX_LINE = 300  # a pasted text line: name, separator, points
MAX_COST = Decimal(10**9)  # any single cost beyond this is garbage, not a points value
MAX_DEPTH = 64  # nesting of selections / forces; real rosters stay below 10
MAX_MEMBERS = 100  # entries of a .rosz looked at; a re-zipped roster has a handful
ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
POINT_COST_NAMES = frozenset({"pt", "pts", "point", "points"})  # after ``_cost_name_key``
SOURCES = ("text", "json", "ros", "rosz", "newrecruit")
NOT_A_ROSTER = gettext_noop(
    "The file is not a roster: upload a BattleScribe or New Recruit roster (.ros or .rosz) or a "
    "New Recruit JSON export, or paste a text list instead.")


# A list's warnings are stored as these English texts and shown in the reader's language
# (``warning_text``): the opponent may read another language than the one who submitted.
TOTAL_DIFFERS = gettext_noop("The stated total (%(stated)s) differs from the sum of the units "
                             "(%(total)s); the sum counts.")
SEVERAL_POINTS_COSTS = gettext_noop("The roster has several points costs (%(names)s); all of "
                                    "them are counted.")


def _pattern(text: str) -> re.Pattern:
    """``text`` read back: each ``%(name)s`` a named group."""
    parts = re.split(r"%\((\w+)\)s", text)
    return re.compile("".join(f"(?P<{part}>.+?)" if index % 2 else re.escape(part)
                              for index, part in enumerate(parts)))


_WARNINGS = tuple((_pattern(text), text) for text in (TOTAL_DIFFERS, SEVERAL_POINTS_COSTS))


def warning_text(stored: str) -> str:
    """A stored warning of a list (R-ARM-2) in the reader's language; a text of another
    form is shown as stored."""
    for pattern, text in _WARNINGS:
        match = pattern.fullmatch(stored)
        if match:
            return _(text) % match.groupdict()
    return stored


class RosterError(ValueError):
    """An army list that cannot be read (R-ARM-2); ``message`` is shown to the player, ``rule``
    names the rule it breaks, if any."""

    rule: str | None = None

    def __init__(self, message: str, *, rule: str | None = None):
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule


class NoPointsCost(RosterError):
    """R-ARM-2: the roster has no points cost (``zero`` is False), or its points are all 0 while
    it prices its units in another cost (``zero`` is True). ``cost_types`` are the names of the
    cost types the file has."""

    rule = "R-ARM-2"

    def __init__(self, cost_types: tuple[str, ...], *, zero: bool = False):
        self.cost_types, self.zero = cost_types, zero
        types = {"types": ", ".join(cost_types)}
        if not cost_types:
            message = _("R-ARM-2: the roster has no costs at all; this campaign counts points. "
                        "Export the list with its points.")
        elif zero:
            message = _("R-ARM-2: the roster's points are 0 for every unit; it is priced in "
                        "other costs (cost types: %(types)s); this campaign counts points. "
                        "Export the list with its points.") % types
        else:
            message = _("R-ARM-2: the roster has no points cost (cost types: %(types)s); this "
                        "campaign counts points. Export the list with its points.") % types
        super().__init__(message)


class ListOverLimit(ValueError):
    """The list's total exceeds the participant's limit (R-ARM-1)."""

    def __init__(self, limit: int, total: int, excess: int):
        super().__init__(_("The list totals %(total)s points; the limit is %(limit)s "
                           "(%(excess)s over)") % {"total": total, "limit": limit,
                                                  "excess": excess})
        self.limit, self.total, self.excess = limit, total, excess


@dataclass(frozen=True)
class Entry:
    name: str
    points: int


@dataclass(frozen=True)
class Setting:
    """A list setting (battle size, detachment, lore, ...): configures the list, adds no units
    and no points. ``name`` or ``value`` may be empty."""

    name: str
    value: str


@dataclass(frozen=True)
class ParsedList:
    """An army list as read (R-ARM-1): ``total`` is the sum of the entries; ``roster_total``
    the total the input stated itself, if any; ``settings`` the list's settings."""

    name: str
    faction: str
    entries: tuple[Entry, ...]
    total: int
    roster_total: int | None
    warnings: tuple[str, ...]
    source: str
    settings: tuple[Setting, ...] = ()

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
            "settings": [{"name": s.name, "value": s.value} for s in self.settings],
        }


def check_limit(parsed: ParsedList, limit: int) -> None:
    """R-ARM-1: reject a list over the limit, naming the limit and the excess."""
    if parsed.total > limit:
        raise ListOverLimit(limit, parsed.total, parsed.total - limit)


# --- shared checks (also used by battles.list_text) -------------------------------------------

def make_entry(name: object, points: object, where: str) -> Entry:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise RosterError(_("%(where)s: the unit needs a name.") % {"where": where})
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise RosterError(_("%(where)s: the unit name is longer than %(limit)s characters.")
                          % {"where": where, "limit": MAX_NAME})
    return Entry(name, checked_points(points, where))


def checked_points(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise RosterError(_("%(where)s: points must be a whole number from 0 to %(limit)s.")
                          % {"where": where, "limit": MAX_POINTS})
    return value


def clip(text: str) -> str:
    """``text`` with whitespace collapsed, cut to ``MAX_NAME`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_NAME else text[:MAX_NAME - 1] + "\u2026"


def make_setting(name: str, value: str) -> Setting:
    return Setting(clip(name), clip(value))


def build_list(name: str, faction: str, entries: list[Entry], stated: int | None, source: str,
               warnings: tuple[str, ...] = (), settings: list[Setting] | tuple = ()
               ) -> ParsedList:
    _check_characters(_("The list's name"), name)
    _check_characters(_("The faction"), faction)
    for index, entry in enumerate(entries):
        _check_characters(unit_where(index + 1), entry.name)
    for index, setting in enumerate(settings):
        _check_characters(_("Setting %(number)s") % {"number": index + 1},
                          f"{setting.name} {setting.value}")
    if not entries:
        raise RosterError(_("The list has no units."))
    if len(entries) > MAX_ENTRIES:
        raise RosterError(too_many_units())
    if len(settings) > MAX_SETTINGS:
        raise RosterError(too_many_settings())
    total = sum(e.points for e in entries)
    if stated is not None and stated != total:
        warnings += (TOTAL_DIFFERS % {"stated": stated, "total": total},)
    return ParsedList(name, faction, tuple(entries), total, stated, warnings, source,
                      tuple(settings))


def _check_characters(where: str, text: str) -> None:
    """NUL, control characters and lone surrogates are refused wherever a
    list comes from (they cannot be stored)."""
    found = forbidden_character(text)
    if found:
        raise RosterError(_("%(where)s: %(problem)s.") % {"where": where,
                                                          "problem": forbidden_text(found)})


def unit_where(number: int) -> str:
    """"Unit 3": where a problem is, in the reader's language."""
    return _("Unit %(number)s") % {"number": number}


def line_where(number: int) -> str:
    """"Line 3": where a problem of a pasted list is, in the reader's language."""
    return _("Line %(number)s") % {"number": number}


def too_many_units() -> str:
    return _("The list has more than %(limit)s units.") % {"limit": MAX_ENTRIES}


def too_many_settings() -> str:
    return _("The list has more than %(limit)s settings.") % {"limit": MAX_SETTINGS}


def too_deep() -> str:
    return _("The roster nests deeper than %(limit)s levels.") % {"limit": MAX_DEPTH}


# --- JSON entry list -------------------------------------------------------------------------

_LIST_KEYS = frozenset({"name", "faction", "entries", "total"})
_ENTRY_KEYS = frozenset({"name", "points"})


def parse_entries(data: object) -> ParsedList:
    """R-ARM-2: ``{"name", "entries": [{"name", "points"}], "faction"?, "total"?}``, strictly:
    no unknown keys, non-empty names, whole points 0..100000, 1..500 entries."""
    if not isinstance(data, dict):
        raise RosterError(_('The list must be an object with "name" and "entries".'))
    _no_unknown_keys(data, _LIST_KEYS, _("The list"))
    name, faction = data.get("name"), data.get("faction", "")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise RosterError(_("The list needs a name of at most %(limit)s characters.")
                          % {"limit": MAX_NAME})
    if not isinstance(faction, str) or len(faction) > MAX_NAME:
        raise RosterError(_("The faction must be text of at most %(limit)s characters.")
                          % {"limit": MAX_NAME})
    items = data.get("entries")
    if not isinstance(items, list):
        raise RosterError(_('"entries" must be a list of {"name", "points"} objects.'))
    if len(items) > MAX_ENTRIES:
        raise RosterError(too_many_units())
    entries = [_json_entry(item, i) for i, item in enumerate(items)]
    stated = data.get("total")
    if stated is not None:
        checked_points(stated, _("The total"))
    return build_list(name.strip(), faction.strip(), entries, stated, "json")


def _json_entry(item: object, index: int) -> Entry:
    where = f"entries[{index}]"
    if not isinstance(item, dict):
        raise RosterError(_('%(where)s: must be an object with "name" and "points".')
                          % {"where": where})
    _no_unknown_keys(item, _ENTRY_KEYS, where)
    return make_entry(item.get("name"), item.get("points"), where)


def _no_unknown_keys(data: dict, allowed: frozenset, where: str) -> None:
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise RosterError(_('%(where)s: unknown field "%(field)s".')
                          % {"where": where, "field": unknown[0]})


# --- roster files: what the file is --------------------------------------------------------------

_ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")  # a member first, or an empty archive
_UTF8_BOM = b"\xef\xbb\xbf"


def parse_roster_file(filename: str, content: bytes) -> ParsedList:
    """R-ARM-2: a BattleScribe / New Recruit roster - ``.ros`` (XML), ``.rosz`` (zip of one
    ``.ros``) or New Recruit JSON export - recognised by its content; ``filename`` only names
    the list when the roster has no name. Units, settings, faction and the roster's own total
    are read; see the module docstring for the shape and the points rules."""
    if not isinstance(content, bytes | bytearray):
        raise RosterError(_("The upload is empty or unreadable."))
    if len(content) > MAX_BYTES:
        raise RosterError(_("The roster file is larger than 2 MB."))
    content = bytes(content)
    stem = PurePosixPath(str(filename or "").replace("\\", "/")).stem
    kind = _kind(content)
    if kind == "zip":
        return _from_roster(_xml_roster(_unzip_ros(content)), "rosz", stem)
    if kind == "xml":
        return _from_roster(_xml_roster(content), "ros", stem)
    if kind == "json":
        return _from_roster(_json_roster(content), "newrecruit", stem)
    if not content.strip():
        raise RosterError(_("The file is empty."))
    raise RosterError(_(NOT_A_ROSTER))


def _kind(content: bytes) -> str | None:
    """``zip``, ``xml`` or ``json`` by the first bytes (after a UTF-8 byte order mark and
    white space), else None."""
    if content.startswith(_ZIP_SIGNATURES):
        return "zip"
    head = content.removeprefix(_UTF8_BOM).lstrip()[:1]
    return {b"<": "xml", b"{": "json", b"[": "json"}.get(head)


def _unzip_ros(content: bytes) -> bytes:
    """The one roster of a ``.rosz``, checked before it is read and read bounded (a member may
    claim a small size and inflate to much more). What archivers add is ignored: folder
    entries, macOS ``__MACOSX/`` resource forks and ``._name`` files, ``.DS_Store``; the roster
    may sit in a folder. Every entry's path is checked, read or not."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError, OSError) as exc:
        raise RosterError(_("The file is not a valid .rosz (zip) archive.")) from exc
    with archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise RosterError(_("The .rosz holds more than %(limit)s files.")
                              % {"limit": MAX_MEMBERS})
        for info in members:
            _check_path(info.filename)
        files = [info for info in members if not _packing_junk(info)]
        rosters = [info for info in files if info.filename.lower().endswith(".ros")] or files
        if not rosters:
            raise RosterError(_("The .rosz holds no .ros file."))
        if len(rosters) != 1:
            raise RosterError(_("A .rosz must hold exactly one .ros file, not %(count)s "
                                "files.") % {"count": len(rosters)})
        _check_member(rosters[0])
        try:
            with archive.open(rosters[0]) as stream:
                data = stream.read(MAX_BYTES + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, zlib.error, EOFError,
                OSError, ValueError) as exc:
            raise RosterError(_("The .rosz archive is damaged or uses an unsupported "
                                "compression.")) from exc
    if len(data) > MAX_BYTES:
        raise RosterError(_("The roster is larger than 2 MB unpacked."))
    if _kind(data) != "xml":
        raise RosterError(_("A .rosz must hold a .ros file."))
    return data


def _check_path(name: str) -> None:
    if name.startswith(("/", "\\")) or ":" in name or ".." in re.split(r"[/\\]", name):
        raise RosterError(_("The .rosz holds a file with an unsafe path."))


def _packing_junk(info: zipfile.ZipInfo) -> bool:
    parts = [part for part in re.split(r"[/\\]", info.filename) if part]
    return (not parts or info.filename.endswith(("/", "\\")) or parts[0] == "__MACOSX"
            or parts[-1].startswith("._") or parts[-1] in (".DS_Store", "Thumbs.db",
                                                           "desktop.ini"))


def _check_member(info: zipfile.ZipInfo) -> None:
    if info.flag_bits & 0x1:
        raise RosterError(_("The .rosz is encrypted."))
    if info.file_size > MAX_BYTES:
        raise RosterError(_("The roster is larger than 2 MB unpacked."))


# --- roster files: reading XML and JSON into one shape -------------------------------------------

_CONTAINERS = {"roster": ("costs", "costLimits", "selections", "forces"),
               "force": ("selections", "forces"),
               "selection": ("costs", "selections", "categories"),
               "cost": (), "costLimit": (), "category": ()}
_ITEM = {"costs": "cost", "costLimits": "costLimit", "forces": "force",
         "selections": "selection", "categories": "category"}


def _xml_roster(content: bytes) -> dict:
    """The roster element as a dict of the module docstring's shape. No DTD at all is
    accepted, so entity expansion (billion laughs) and external entities never happen."""
    try:
        root = fromstring(content, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise RosterError(_("The roster file declares a DTD or entities, which is not "
                            "allowed.")) from exc
    except (ParseError, ValueError, LookupError) as exc:  # LookupError: an unknown encoding
        raise RosterError(_("The roster file is not valid XML (%(detail)s).")
                          % {"detail": exc}) from exc
    namespace, tag = _split_tag(root.tag)
    if tag != "roster" or namespace not in ("", ROSTER_NAMESPACE):
        raise RosterError(_("The file is not a BattleScribe roster."))
    return _xml_node(root, "roster", 0)


def _xml_node(element, kind: str, depth: int) -> dict:
    if depth > MAX_DEPTH:
        raise RosterError(too_deep())
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
        raise RosterError(_("The roster file is not UTF-8 text.")) from exc
    except (ValueError, RecursionError) as exc:
        raise RosterError(_("The roster file is not valid JSON.")) from exc
    if not isinstance(data, dict) or not isinstance(data.get("roster"), dict):
        raise RosterError(_('Not a New Recruit export: expected an object with a "roster".'))
    return data["roster"]


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


# --- roster files: points, units and settings -----------------------------------------------------

def _from_roster(roster: dict, source: str, stem: str) -> ParsedList:
    name = _text(roster.get("name"), "name") or stem
    _check_characters(_("The list's name"), name)  # what the file is, before what it costs
    costs = _CostTypes(roster)
    factions: list[str] = []
    entries: list[Entry] = []
    settings: list[Setting] = []
    for node in [roster, *_forces(roster, 0)]:
        faction = _text(node.get("catalogueName"), "catalogueName") if node is not roster else ""
        if faction and faction not in factions:
            factions.append(faction)
        for selection in _items(node, "selections"):
            points = costs.selection_points(selection, 0)
            if _is_setting(selection, points):
                settings.append(_setting(selection))
                continue
            entries.append(make_entry(_label(selection), _whole(points),
                                      unit_where(len(entries) + 1)))
            if len(entries) > MAX_ENTRIES:
                raise RosterError(_("The roster has more than %(limit)s units.")
                                  % {"limit": MAX_ENTRIES})
        if len(settings) > MAX_SETTINGS:
            raise RosterError(_("The roster has more than %(limit)s settings.")
                              % {"limit": MAX_SETTINGS})
    stated = costs.points(_items(roster, "costs"))
    costs.check_priced_in_points(entries, stated)
    return build_list(name[:MAX_NAME], " / ".join(factions), entries,
                      None if stated is None else _whole(stated), source, costs.warnings(),
                      settings)


class _CostTypes:
    """The roster's cost types (R-ARM-2): which of them are its points, read from every cost it
    declares or lists (``costs``, ``costLimits``, the forces' and selections' costs)."""

    def __init__(self, roster: dict):
        self.names: list[str] = []  # every cost type's name, in order of appearance
        self.point_ids: set[str] = set()
        self.point_names: list[str] = []
        self.named_points = False  # a points cost without a type id
        self.other_priced = False  # a non-points cost with a value other than 0
        listed = [*_items(roster, "costs"), *_items(roster, "costLimits"),
                  *_listed_costs(roster, 0)]
        for cost in listed:
            name, type_id = _cost_name(cost), _type_id(cost)
            if name and name not in self.names:
                self.names.append(name)
            if _is_points_type(name, type_id):
                if type_id:
                    self.point_ids.add(type_id)
                else:
                    self.named_points = True
                if name and name not in self.point_names:
                    self.point_names.append(name)
        for cost in listed:
            if not self.is_points(cost) and _value_or_zero(cost.get("value")) != 0:
                self.other_priced = True

    def is_points(self, cost: dict) -> bool:
        type_id = _type_id(cost)
        if type_id:
            return type_id in self.point_ids
        return _is_points_type(_cost_name(cost), "")

    def points(self, costs: list[dict]) -> Decimal | None:
        """The points among ``costs``; None when none of them is a points cost."""
        chosen = [c for c in costs if self.is_points(c)]
        if not chosen:
            return None
        return sum((_number(c.get("value")) for c in chosen), Decimal(0))

    def selection_points(self, selection: dict, depth: int) -> Decimal:
        """R-ARM-2: a selection's points cost plus those of all its nested selections."""
        if depth > MAX_DEPTH:
            raise RosterError(too_deep())
        own = self.points(_items(selection, "costs")) or Decimal(0)
        return own + sum((self.selection_points(child, depth + 1)
                          for child in _items(selection, "selections")), Decimal(0))

    def check_priced_in_points(self, entries: list[Entry], stated: Decimal | None) -> None:
        """R-ARM-2: no points cost at all, or only zero points while another cost prices the
        units, is refused; the campaign counts points."""
        if not self.point_ids and not self.named_points:
            raise NoPointsCost(tuple(self.names))
        if self.other_priced and not any(e.points for e in entries) and not stated:
            raise NoPointsCost(tuple(self.names), zero=True)

    def warnings(self) -> tuple[str, ...]:
        if len(self.point_ids) > 1:
            return (SEVERAL_POINTS_COSTS % {"names": ", ".join(self.point_names)},)
        return ()


def _listed_costs(node: dict, depth: int):
    """The costs of every force and selection under ``node``, depth first."""
    if depth > MAX_DEPTH:
        raise RosterError(too_deep())
    yield from _items(node, "costs") if depth else ()
    for child in [*_items(node, "forces"), *_items(node, "selections")]:
        yield from _listed_costs(child, depth + 1)


def _cost_name(cost: dict) -> str:
    name = cost.get("name")
    return " ".join(name.split()) if isinstance(name, str) else ""


def _type_id(cost: dict) -> str:
    value = cost.get("typeId") or cost.get("costTypeId") or ""
    return value.strip() if isinstance(value, str) else str(value)


def _is_points_type(name: str, type_id: str) -> bool:
    """``pts``, ``pt``, ``points``, ``Point(s)``, ``Pts.`` in any case, or type id ``points``."""
    key = name.lower().replace("(s)", "s").rstrip(".").strip()
    return key in POINT_COST_NAMES or type_id.lower() == "points"


def _forces(node: dict, depth: int):
    if depth > MAX_DEPTH:
        raise RosterError(too_deep())
    for force in _items(node, "forces"):
        yield force
        yield from _forces(force, depth + 1)


_SETTING_WORDS = re.compile(
    r"\b(?:battle\s*size|detachment|show\s*/\s*hide|game\s*(?:type|mode)|battle\s*formation|"
    r"battle\s*traits?|legends?|lores?|configuration|army\s*of\s*renown|grand\s*strateg\w*|"
    r"allegiance|rites?\s*of\s*war|points?\s*limit|force\s*disposition|battle\s*tactics?)\b",
    re.I)
_TROOPS = frozenset({"unit", "model"})


def _is_setting(selection: dict, points: Decimal) -> bool:
    """A top-level selection that configures the list rather than adding to it (R-ARM-2):
    battle size, detachment, show/hide options, legends toggles, battle formation, battle
    traits, spell/prayer/manifestation lores, game type and the like. It is a setting when it

    - costs no points, itself and all its nested selections together, and
    - is not a model and holds no unit or model anywhere below it, and
    - either is of type ``upgrade`` (a unit or model is always typed so), or its name or one
      of its categories says it is one (``Battle Size``, ``Detachment``, ``Show/Hide
      Options``, ``Game Type``, ``... Lore``, ``Legends``, category ``Configuration``, ...).

    A priced selection or one holding models is always a unit, so a setting never hides
    points or troops from the opponent."""
    kind = str(selection.get("type") or "").strip().lower()
    if points != 0 or kind == "model" or _holds_troops(selection, 0):
        return False
    if kind == "upgrade":
        return True
    names = [_label(selection)] + [_text(c.get("name"), "name")
                                   for c in _items(selection, "categories")]
    return any(_SETTING_WORDS.search(name) for name in names)


def _holds_troops(selection: dict, depth: int) -> bool:
    if depth > MAX_DEPTH:
        raise RosterError(too_deep())
    return any(str(child.get("type") or "").strip().lower() in _TROOPS
               or _holds_troops(child, depth + 1) for child in _items(selection, "selections"))


def _setting(selection: dict) -> Setting:
    """A setting named like its selection, valued by what was chosen under it."""
    chosen: list[str] = []
    stack = list(reversed(_items(selection, "selections")))
    while stack and len(chosen) < MAX_ENTRIES:
        child = stack.pop()
        label = _label(child)
        if label and label not in chosen:
            chosen.append(label)
        stack.extend(reversed(_items(child, "selections")))
    return make_setting(_label(selection), ", ".join(chosen))


def _label(selection: dict) -> str:
    name = _text(selection.get("name"), "name")
    custom = _text(selection.get("customName"), "customName")
    return f"{custom} ({name})" if custom and name and custom != name else custom or name


def _number(value: object) -> Decimal:
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise InvalidOperation
        number = Decimal(str(value).strip() or "0")
    except InvalidOperation as exc:
        raise RosterError(_('The roster has an invalid cost value "%(value)s".')
                          % {"value": value}) from exc
    if not number.is_finite() or abs(number) > MAX_COST:
        raise RosterError(_('The roster has an invalid cost value "%(value)s".')
                          % {"value": value})
    return number


def _value_or_zero(value: object) -> Decimal:
    """A cost that does not count as points only matters for being other than 0."""
    try:
        return _number(value)
    except RosterError:
        return Decimal(0)


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
        raise RosterError(_('The roster\'s "%(key)s" must be a list of objects.')
                          % {"key": key})
    return value


def _text(value: object, key: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RosterError(_('The roster\'s "%(key)s" must be text.') % {"key": key})
    return " ".join(value.split())
