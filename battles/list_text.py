"""Pasted army lists (R-ARM-2): what players write by hand and what their list builders export,
read into one ``battles.rosters.ParsedList``.

Understood line by line:

- hand-written lists: one unit per line as ``name - points`` (also ``name: points``,
  ``name (90 pts)``, ``name [90]``, ``name 90 pts``, en/em dashes, bullets), a ``Total: 1500``
  or ``= 1500`` line;
- the official Warhammer Age of Sigmar app: a title ``NAME 1990/2000 pts`` (or a free-text
  first line and ``1990/2000 pts`` alone on the second), a header (grand alliance, faction,
  battle formation, General's Handbook, ``Drops: 2``, ``Spell Lore - ...``), regiments
  (``General's Regiment``, ``Regiment 1``, ``Faction Terrain``, ...), units ``Unit (120)``,
  bullet lines ``• General`` under them and priced extras ``• Thing (+60 Points)`` or
  ``• Thing - (10) Points``, the ``Created with ...`` footer;
- the official Warhammer 40,000 app: a title ``Army (1995 Points)``, a header (faction,
  detachment ``(1 Detachment Points)``, battle size ``Strike Force (2,000 Points)``), sections
  (``CHARACTERS``, ``BATTLELINE``, ...), ``Unit (100 Points)`` with bullet lines under it, the
  ``Exported with App Version ...`` footer;
- New Recruit's text exports: the tournament form (``+ FACTION KEYWORD: ...``,
  ``+ TOTAL ARMY POINTS: 1995pts``, ``Char1: 1x Unit (80 pts): wargear``,
  ``Enhancement: Name (+15 pts)``, ``• 9x Model: ...``) and the roster form
  (``+++ Name (System) [1,995pts] +++``, ``++ Army Roster (Faction) [1,995pts] ++``,
  ``+ Configuration +``, ``Unit [80pts]: wargear``, ``++ Total: [1,995pts] ++``);
- Listbot-style lines ``- 20 x Unit (300)`` with ``Allegiance: ...``, ``Allies: 0 / 400``,
  ``Wounds: 64`` and ``Total: 900 / 2000``.

The total is the sum of every priced line - units and priced extras; a title, a header, a
battle size or a detachment's cost line is never a unit. A priced extra under a unit is an entry
of its own named ``extra (unit)``. Lines that configure the list (detachment, battle size,
lores, formation, ...) become the list's settings. A total the text states (a total line, else
the title or the roster header, else the sum of the force headers) is kept; when it differs
from the sum the list is accepted with a warning (as for rosters).

The Age of Sigmar app prices a unit together with its enhancements: ``Knight-Arcanum (140)``
with ``• Envoy of the Heavens - (20) Points`` under it costs 140, not 160. Read alone, such a
line cannot be told from an extra on top, so [decision] it is taken as included exactly when
the stated total is the sum less all such lines: each is then taken out of its unit's price
(``Knight-Arcanum`` 120, ``Envoy of the Heavens (Knight-Arcanum)`` 20), and the list totals
what the app says. Any other difference keeps the sum, with the warning.

An export (a recognised title, ``+`` header lines or a builder's footer) may hold unpriced lines
- its header, wargear, continuation lines - which are context, not units. A hand-written list
may not: an unpriced line that is no section heading, setting or bullet under a unit is refused
naming the line, as are prices out of range anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from battles.rosters import (
    MAX_BYTES,
    MAX_ENTRIES,
    MAX_LINE,
    MAX_NAME,
    MAX_SETTINGS,
    Entry,
    ParsedList,
    RosterError,
    Setting,
    build_list,
    checked_points,
    clip,
    line_where,
    make_entry,
    make_setting,
    too_many_settings,
    too_many_units,
)
from campaigns.messages import forbidden_text
from rules.text import forbidden_character

_NUM = r"\d{1,3}(?:[.,]\d{3})+|\d+"  # 90, 1500, 1,500 or 1.500
_UNIT = r"(?:(?:pts?|points?|punkte|p)\.?)"
_DETAILS = r"(?:\s*(?::|[-\u2013\u2014])\s*.*)?"  # ": wargear" or " - Warlord" after the price

# priced lines: "name (90 pts)", "name [90pts]: wargear", "name (+60 Points)", "name (120)**"
_PAREN_PRICE = re.compile(
    rf"(?P<name>.+?)\s*[(\[]\s*(?P<plus>\+)?\s*(?P<pts>{_NUM})\s*{_UNIT}?\s*[)\]]\**{_DETAILS}",
    re.I)
# "name - (10) Points" (an extra in the Age of Sigmar app)
_DASH_PAREN_PRICE = re.compile(
    rf"(?P<name>.+?)\s*[-\u2013\u2014]\s*\(\s*(?P<plus>\+)?\s*(?P<pts>{_NUM})\s*\)\s*"
    r"(?:pts?|points?)\.?", re.I)
# the hand-written forms: "name - 90 (pts)", "name: 90", "name 90 pts"
_PLAIN_PRICES = (
    re.compile(rf"(?P<name>.+?)\s*[-\u2013\u2014:]\s*(?P<pts>{_NUM})\s*{_UNIT}?", re.I),
    re.compile(rf"(?P<name>.+?)\s+(?P<pts>{_NUM})\s*(?:pts?|points?|punkte)\.?", re.I),
)
_TOTAL = re.compile(
    rf"(?:(?:total|sum|summe|gesamt)(?:\s+army)?(?:\s+(?:points?|pts|punkte))?\s*"
    rf"[-\u2013\u2014:=]?|=)\s*[(\[]?\s*(?P<pts>{_NUM})\s*(?:/\s*(?:{_NUM})\s*)?{_UNIT}?\s*[)\]]?",
    re.I)
_AOS_TITLE = re.compile(
    rf"(?P<name>.+?)\s+(?P<pts>{_NUM})\s*/\s*(?P<limit>{_NUM})\s*(?:pts?|points?)\.?", re.I)
_AOS_POINTS = re.compile(  # "1990/2000 pts" alone on the line under a free-text first line
    rf"(?P<pts>{_NUM})\s*/\s*(?P<limit>{_NUM})\s*(?:pts?|points?)\.?", re.I)
_GRAND_ALLIANCE = re.compile(r"order|chaos|death|destruction", re.I)
_APP_TITLE = re.compile(
    rf"(?P<name>.+?)\s*[(\[]\s*(?P<pts>{_NUM})\s*(?:pts?|points?)\s*[)\]]", re.I)
_BATTLE_SIZE = re.compile(r"(?:combat patrol|incursion|strike force|onslaught)", re.I)
_FOOTER = re.compile(r"(?:(?:created with|exported with|generated (?:by|with)|made with|"
                     r"app version|data version)\b|app:)", re.I)
_SEPARATOR = re.compile(r"[-=_~*#+.\u2500\u2014]{3,}")
_RATIO = re.compile(rf"[^:]+:\s*(?:{_NUM})\s*/\s*(?:{_NUM})\s*{_UNIT}?", re.I)
_CONTEXT = re.compile(r"(?:general['\u2019]?s handbook|ghb|pitched battles?|matched play|"
                      r"battlescroll|balance dataslate|munitorum field manual)\b.*", re.I)
_SECTION = re.compile(
    r"(?:general['\u2019]?s regiment|regiment \d+|regiments? of renown|auxiliary units|"
    r"auxiliaries|faction terrain|terrain|attached units?(?: \d+)?|characters?|epic heroe?s?|"
    r"battleline|dedicated transports?|other datasheets|allied units|allies|leaders?|other|"
    r"behemoths?|artillery|endless spells?(?: (?:&|and) invocations)?|manifestations|"
    r"invocations|core battalions|battalions|units|hq|troops|elites|fast attack|"
    r"heavy support|flyers?|lords? of war|fortifications?|heroe?s|configuration)\s*:?", re.I)
_CAPS_SECTION = re.compile(r"[A-Z][A-Z&'\u2019/ -]*[A-Z]:?")
_TERRAIN = re.compile(r"(?:faction )?terrain", re.I)
_KEY_VALUE = re.compile(
    r"(?P<key>[^\W\d_][\w'\u2019/ &.-]{0,40}?)\s*(?::|\s[-\u2013\u2014])\s*(?P<value>.+)")
_PLUS_KEY = re.compile(r"(?P<key>[A-Z][A-Z0-9 '\u2019&/-]*?)\s*:\s*(?P<value>.*)")
_BRACKET_POINTS = re.compile(rf"\[\s*(?P<pts>{_NUM})\s*{_UNIT}\s*\]", re.I)
_LAST_PARENS = re.compile(r"\s*\((?P<inner>[^()]*)\)\s*$")
_CHAR_PREFIX = re.compile(r"char\d+\s*:\s*", re.I)
_COUNT = re.compile(r"(?P<count>\d+)\s*[x\u00d7]\s+(?P<rest>.+)", re.I)
_BULLET = re.compile(r"(?P<mark>[-*+\u2022\u25e6\u25aa\u2023\u2043\u00b7.])\s+")
_SUB_BULLETS = frozenset("\u2022\u25e6\u25aa\u2023\u2043\u00b7.")  # never a unit's own mark
_LETTER = re.compile(r"[^\W\d_]")

_SETTING_KEYS = frozenset({
    "battle formation", "spell lore", "prayer lore", "manifestation lore", "lore",
    "detachment", "detachments", "battle size", "game type", "grand strategy",
    "grand strategies", "battle tactics", "battle tactic cards", "triumph", "triumphs",
    "army of renown", "force disposition", "show/hide options", "legends", "points limit",
    "rite of war", "rites of war", "season of war", "realm of battle", "mortal realm",
    "subfaction", "sub-faction", "chapter", "army type", "game mode"})
_FACTION_KEYS = frozenset({"allegiance", "faction", "faction keyword", "army faction"})
_NAME_KEYS = frozenset({"list name", "army name"})
_INFO_KEYS = frozenset({
    "drops", "drop", "wounds", "allies", "reinforced units", "reinforcements",
    "command points", "cp", "number of units", "units", "models", "secondary", "secondaries",
    "warlord", "general", "enhancement", "enhancements", "artefact", "artefacts", "artifact",
    "artifacts", "heroic trait", "heroic traits", "relic", "relics", "warlord trait",
    "unit count", "auxiliaries", "regiments", "roster note", "bodies"})


@dataclass(frozen=True)
class _Line:
    number: int
    indent: int
    mark: str  # the bullet, if any
    text: str  # without the bullet, white space collapsed


@dataclass(frozen=True)
class _Unit:
    """The last unit read: extras and detail lines below it belong to it."""

    name: str
    indent: int
    mark: str
    index: int  # of its entry


def parse_text(text: str, *, name: str = "") -> ParsedList:
    """R-ARM-2: a pasted list in any of the module docstring's forms; ``name`` names the list
    (else the export's title does)."""
    if not isinstance(text, str):
        raise RosterError(_("The list must be text."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RosterError(_("The list is larger than 2 MB."))
    found = forbidden_character(text)
    if found:
        line = text.count("\n", 0, found.position) + 1
        raise RosterError(_("%(where)s: %(problem)s.") % {"where": line_where(line),
                                                          "problem": forbidden_text(found)})
    reader = _Reader(_lines(text))
    reader.read()
    return build_list(" ".join(name.split()) or reader.name, reader.faction,
                      reader.priced_entries(), reader.stated(), "text",
                      settings=reader.settings)


def _lines(text: str) -> list[_Line]:
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        collapsed = " ".join(raw.split())
        if not collapsed:
            continue
        if len(collapsed) > MAX_LINE:  # also keeps the lazy patterns linear and numbers short
            raise RosterError(_("%(where)s: the line is longer than %(limit)s characters.")
                              % {"where": line_where(number), "limit": MAX_LINE})
        indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        bullet = _BULLET.match(collapsed)
        mark, body = (bullet["mark"], collapsed[bullet.end():]) if bullet else ("", collapsed)
        lines.append(_Line(number, indent, mark, body))
    return lines


class _Reader:
    def __init__(self, lines: list[_Line]):
        self.lines = lines
        self.name = ""
        self.faction = ""
        self.entries: list[Entry] = []
        self.settings: list[Setting] = []
        self.total: int | None = None  # a total line
        self.header_total: int | None = None  # the title or the roster header
        self.force_totals: list[int] = []  # "++ Force [N pts] ++" headers
        self.enhancements: list[tuple[int, int]] = []  # "• X - (N) Points": (entry, unit entry)
        self.unit: _Unit | None = None
        self.section = ""
        self.in_header = True  # an export's header: before its first section or unit
        self.title = self._title()
        self.export = bool(self.title) or any(
            _plus_line(line) or _FOOTER.match(line.text) for line in lines)

    def stated(self) -> int | None:
        if self.total is not None:
            return self.total
        if self.header_total is not None:
            return self.header_total
        return sum(self.force_totals) if self.force_totals else None

    def priced_entries(self) -> list[Entry]:
        """The entries, with the app's enhancement lines taken out of their units' prices when
        the stated total says they are included (module docstring)."""
        entries, stated = list(self.entries), self.stated()
        lines = sum(entries[extra].points for extra, _unit in self.enhancements)
        if not lines or stated is None or sum(e.points for e in entries) - stated != lines:
            return entries
        for extra, unit in self.enhancements:
            entries[unit] = Entry(entries[unit].name, entries[unit].points - entries[extra].points)
        if any(e.points < 0 for e in entries):  # a unit cheaper than its own enhancements
            return list(self.entries)
        return entries

    # --- the title ---------------------------------------------------------------------------

    def _title(self) -> tuple[_Line, ...]:
        """The first line, when it is an app's title: ``NAME 1990/2000 pts``; or
        ``NAME (1995 Points)`` followed by an unpriced header line, in a text with sections
        or a builder's footer (a hand-written first unit is never taken for a title); or a
        free-text first line (the name) and ``1990/2000 pts`` alone on the second."""
        if not self.lines or self.lines[0].mark:
            return ()
        first = self.lines[0]
        if _AOS_TITLE.fullmatch(first.text) or _AOS_POINTS.fullmatch(first.text):
            return (first,)
        second = self.lines[1] if len(self.lines) > 1 else None
        if second is not None and not second.mark and _AOS_POINTS.fullmatch(second.text) \
                and not (_priced(first.text) or _section(first.text)
                         or _FOOTER.match(first.text)):
            return first, second
        if not _APP_TITLE.fullmatch(first.text):
            return ()
        rest = [line for line in self.lines[1:] if not line.mark]
        structured = any(_FOOTER.match(line.text) or _section(line.text) for line in rest)
        return (first,) if structured and rest and not _priced(rest[0].text) else ()

    def _read_title(self, line: _Line) -> None:
        if line is not self.title[-1]:  # the free-text first line: the list's name
            self.name = clip(line.text)
            return
        match = (_AOS_TITLE.fullmatch(line.text) or _AOS_POINTS.fullmatch(line.text)
                 or _APP_TITLE.fullmatch(line.text))
        self.name = clip(match.groupdict().get("name") or "") or self.name
        self.header_total = _points(match["pts"], line.number)
        if match.groupdict().get("limit"):
            self.settings.append(make_setting("Points limit", str(_points(match["limit"],
                                                                         line.number))))

    # --- every line ----------------------------------------------------------------------------

    def read(self) -> None:
        for line in self.lines:
            if any(line is title for title in self.title):
                self._read_title(line)
            elif not self._skipped(line):
                self._read(line)
            if len(self.entries) > MAX_ENTRIES:
                raise RosterError(too_many_units())
            if len(self.settings) > MAX_SETTINGS:
                raise RosterError(too_many_settings())

    def _skipped(self, line: _Line) -> bool:
        """Separators, footers, ``+`` header lines and ``&`` continuations are read here."""
        full = f"{line.mark} {line.text}" if line.mark else line.text
        if _SEPARATOR.fullmatch(full) or _FOOTER.match(line.text):
            return True
        if (line.mark == "+" or line.text.startswith("+")) and _plus_line(line):
            self._read_plus(line)
            return True
        return self.export and line.text.startswith("&") and not line.mark

    def _read(self, line: _Line) -> None:
        text = line.text
        total = _TOTAL.fullmatch(text)
        if total:
            if self.total is not None:
                raise RosterError(_("%(where)s: the list has a second total line.")
                                  % {"where": line_where(line.number)})
            self.total = _points(total["pts"], line.number)
            return
        priced = _PAREN_PRICE.fullmatch(text) or _DASH_PAREN_PRICE.fullmatch(text)
        if priced and _LETTER.search(priced["name"]):
            unit, count = self.unit, len(self.entries)
            self._read_priced(line, priced["name"], priced["pts"], bool(priced["plus"]))
            if priced.re is _DASH_PAREN_PRICE and not priced["plus"] and line.mark \
                    and unit is not None and self.unit is unit \
                    and len(self.entries) == count + 1:  # an extra under the unit
                self.enhancements.append((count, unit.index))
            return
        if not line.mark and _section(text):
            self.section, self.unit, self.in_header = text.rstrip(":").strip(), None, False
            return
        if self._read_key_value(line):
            return
        if _CONTEXT.fullmatch(text):
            self.settings.append(make_setting("", text))
            return
        if not (self.export and self._detail(line)):
            for form in _PLAIN_PRICES:
                match = form.fullmatch(text)
                if match and _LETTER.search(match["name"]):
                    self._read_priced(line, match["name"], match["pts"], False)
                    return
        self._read_unpriced(line)

    def _read_priced(self, line: _Line, raw_name: str, digits: str, plus: bool) -> None:
        points = _points(digits, line.number)
        name = _unit_name(raw_name)
        if not _LETTER.search(name):
            raise _unreadable(line)
        if not line.mark and _BATTLE_SIZE.fullmatch(name):
            self.settings.append(make_setting("Battle Size", line.text))
            return
        if self.section.lower() == "configuration" and points == 0:
            self.settings.append(make_setting("", line.text))
            return
        if self.unit is not None and (plus or line.indent > self.unit.indent or (
                line.mark in _SUB_BULLETS and line.mark != self.unit.mark)):
            label = f"{name} ({self.unit.name})"
            if len(name) <= MAX_NAME:
                name = clip(label)
            self.entries.append(make_entry(name, points, line_where(line.number)))
            return
        entry = make_entry(name, points, line_where(line.number))
        self.entries.append(entry)
        if not plus:
            self.unit = _Unit(entry.name, line.indent, line.mark, len(self.entries) - 1)
        self.in_header = False

    def _read_key_value(self, line: _Line) -> bool:
        """``Key: value`` / ``Key - value`` lines that are settings (``Spell Lore - ...``,
        ``Detachment: ...``), the faction (``Allegiance: ...``) or information the campaign
        does not need (``Drops: 2``, ``Allies: 0 / 400``, ``Warlord: ...``)."""
        if _RATIO.fullmatch(line.text):
            return True
        match = _KEY_VALUE.fullmatch(line.text)
        if not match:
            return False
        key = " ".join(match["key"].lower().split())
        known = _FACTION_KEYS | _SETTING_KEYS | _NAME_KEYS | _INFO_KEYS
        if key not in known or _priced(match["value"]):
            return False  # "Warlord: Captain - 80" is a priced unit, not information
        if key in _FACTION_KEYS:
            self.faction = self.faction or clip(match["value"])
        elif key in _SETTING_KEYS:
            self.settings.append(make_setting(match["key"], match["value"]))
        elif key in _NAME_KEYS:
            self.name = self.name or clip(match["value"])
        return True

    def _read_unpriced(self, line: _Line) -> None:
        if self._detail(line):
            return
        if not line.mark and _TERRAIN.fullmatch(self.section):
            self.entries.append(make_entry(_unit_name(line.text), 0, line_where(line.number)))
        elif self.section.lower() == "configuration" and not line.mark:
            self.settings.append(make_setting("", line.text))
        elif not self.export:
            raise _unreadable(line)
        elif self.in_header and not line.mark:
            if _GRAND_ALLIANCE.fullmatch(line.text):
                self.settings.append(make_setting("Grand Alliance", line.text))
            elif self.faction:
                self.settings.append(make_setting("", line.text))
            else:
                self.faction = clip(line.text)
        # else: wargear, notes and continuation lines of an export

    def _detail(self, line: _Line) -> bool:
        """A line below the last unit: deeper indented or with a bullet of its own kind."""
        if self.unit is None:
            return self.export and bool(line.mark) and not self.in_header
        return line.indent > self.unit.indent or bool(line.mark and line.mark != self.unit.mark)

    # --- "+" lines of New Recruit and BattleScribe --------------------------------------------

    def _read_plus(self, line: _Line) -> None:
        body = line.text.strip("+ ")
        if not body:
            return
        total = _TOTAL.fullmatch(body) or _TOTAL.fullmatch(_BRACKET_POINTS.sub(
            lambda m: m["pts"] + " pts", body))
        if total:
            if self.total is not None:
                raise RosterError(_("%(where)s: the list has a second total line.")
                                  % {"where": line_where(line.number)})
            self.total = _points(total["pts"], line.number)
            return
        bracket = _BRACKET_POINTS.search(body)
        if bracket:  # "+++ Name (System) [N pts] +++" or "++ Force (Faction) [N pts] ++"
            label = body[:bracket.start()].strip()
            inner = _LAST_PARENS.search(label)
            if line.text.startswith("+++"):
                self.header_total = _points(bracket["pts"], line.number)
                self.name = self.name or clip(_LAST_PARENS.sub("", label))
            else:
                self.force_totals.append(_points(bracket["pts"], line.number))
                if inner and not self.faction:
                    self.faction = clip(inner["inner"])
            return
        key_value = _PLUS_KEY.fullmatch(body)
        if key_value:
            key = " ".join(key_value["key"].lower().split())
            value = key_value["value"]
            if key in _FACTION_KEYS:
                self.faction = self.faction or clip(value)
            elif key in _NAME_KEYS:
                self.name = self.name or clip(value)
            elif key in _SETTING_KEYS:
                self.settings.append(make_setting(key.title(), value))
            return
        self.section, self.unit, self.in_header = body, None, False  # "+ Character +"


def _plus_line(line: _Line) -> bool:
    """New Recruit / BattleScribe header lines: ``+++...``, ``++ Force [N pts] ++``,
    ``+ KEY: value``, ``+ Section +``, a lone ``+``; not a ``+`` bullet before a unit."""
    text = (f"+ {line.text}" if line.mark == "+" else line.text).strip()
    if not text.startswith("+"):
        return False
    body = text.lstrip("+").strip()
    return (text.startswith("++") or text.endswith("+") or not body
            or bool(_PLUS_KEY.fullmatch(body) and body.split(":", 1)[0].isupper()))


def _section(text: str) -> bool:
    return bool(_SECTION.fullmatch(text) or (_CAPS_SECTION.fullmatch(text)
                                             and sum(c.isalpha() for c in text) >= 2))


def _priced(text: str) -> bool:
    return bool(_PAREN_PRICE.fullmatch(text) or _DASH_PAREN_PRICE.fullmatch(text)
                or any(form.fullmatch(text) for form in _PLAIN_PRICES))


def _unit_name(raw: str) -> str:
    """``Char1: 1x Captain`` -> ``Captain``; ``20 x Liberators`` -> ``20x Liberators``."""
    name = _CHAR_PREFIX.sub("", " ".join(raw.split()), count=1).rstrip("*").strip()
    count = _COUNT.fullmatch(name)
    if count:
        rest = count["rest"].strip()
        name = rest if int(count["count"]) == 1 else f"{int(count['count'])}x {rest}"
    return name


def _points(digits: str, number: int) -> int:
    return checked_points(int(re.sub(r"[.,]", "", digits)), line_where(number))


def _unreadable(line: _Line) -> RosterError:
    shown = line.text if len(line.text) <= 60 else line.text[:57] + "..."
    return RosterError(_('%(where)s: cannot read "%(line)s"; write one unit per line as '
                         '"name - points".') % {"where": line_where(line.number), "line": shown})
