"""Roster files in the shapes real list builders write (R-ARM-2), built here from scratch: a New
Recruit Horus Heresy 3rd edition roster priced in ``Point(s)`` with a GUID cost type, a Kill
Team roster priced in ``EP`` only, an Apocalypse roster priced in ``PL`` only, a Warhammer
40,000 10th edition roster with its configuration selections (battle size, detachment,
show/hide options), an Age of Sigmar 4 New Recruit JSON export with its battle traits, lores and
formation, and zips as macOS re-packs them. Pasted text exports are in ``fixtures/``."""

from __future__ import annotations

import io
import itertools
import json
import zipfile
from pathlib import Path

NS = "http://www.battlescribe.net/schema/rosterSchema"
FIXTURES = Path(__file__).parent / "fixtures"

HH_POINTS = "3a7f0c2e-91d4-4b8e-a5c6-0d2f7e9b4c18"  # New Recruit's GUID cost type ids
HH_REACTIONS = "b4e9d2a1-6c3f-47e0-8d15-9a2c4f6e0b73"
_IDS = itertools.count(1)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def cost(name: str, type_id: str, value) -> str:
    return f'<cost name="{name}" typeId="{type_id}" value="{value}"/>'


def sel(name: str, kind: str = "unit", costs: str = "", children: str = "",
        categories: tuple[str, ...] = (), number: int = 1) -> str:
    cats = "".join(f'<category id="c{i}" name="{c}" entryId="e{i}" '
                   f'primary="{str(i == 0).lower()}"/>' for i, c in enumerate(categories))
    return (f'<selection id="s{next(_IDS)}" name="{name}" entryId="x" '
            f'number="{number}" type="{kind}"><costs>{costs}</costs>'
            + (f"<categories>{cats}</categories>" if cats else "")
            + (f"<selections>{children}</selections>" if children else "")
            + "</selection>")


def roster_xml(selections: str, *, costs: str = "", limits: str = "", name: str = "My roster",
               catalogue: str = "Faction", system: str = "Game") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<roster id="r1" name="{name}" battleScribeVersion="2.03" '
            f'generatedBy="https://newrecruit.eu" gameSystemName="{system}" xmlns="{NS}">'
            f"<costs>{costs}</costs><costLimits>{limits}</costLimits><forces>"
            f'<force id="f1" name="Army" entryId="f" catalogueName="{catalogue}">'
            f"<selections>{selections}</selections></force></forces></roster>").encode()


# --- Horus Heresy 3rd edition (New Recruit): Point(s) with a GUID type id ---------------------

def _hh(value) -> str:
    return cost("Point(s)", HH_POINTS, value) + cost("Reactions", HH_REACTIONS, 0)


HH_UNITS = (("Legion Praetor", 150, 25), ("Legion Tactical Squad", 200, 0),
            ("Legion Tactical Squad", 200, 0), ("Legion Terminator Squad", 400, 48),
            ("Contemptor Dreadnought", 195, 30), ("Legion Land Raider", 260, 0),
            ("Legion Spartan Assault Tank", 375, 15), ("Legion Fellblade", 500, 0),
            ("Legion Sicaran Battle Tank", 225, 30), ("Legion Veteran Squad", 300, 45))
HH_TOTAL = sum(base + extra for _, base, extra in HH_UNITS)  # 2998


def horus_heresy_roster() -> bytes:
    """Each unit priced in ``Point(s)`` (a GUID type id), wargear nested and priced too; the
    roster states the 2998 total and declares the cost type in ``costs`` and ``costLimits``."""
    units = "".join(
        sel(name, "unit", _hh(base),
            sel("Legionary", "model", _hh(0), sel("Bolter", "upgrade", _hh(0)), number=5)
            + (sel("Upgrade", "upgrade", _hh(extra)) if extra else ""))
        for name, base, extra in HH_UNITS)
    allegiance = sel("Allegiance", "upgrade", _hh(0), sel("Loyalist", "upgrade", _hh(0)))
    return roster_xml(allegiance + units, costs=_hh(HH_TOTAL),
                      limits=f'<costLimit name="Point(s)" typeId="{HH_POINTS}" value="3000"/>',
                      name="Legion 3000", catalogue="Legiones Astartes",
                      system="Horus Heresy 3rd Edition")


# --- no points at all: Kill Team (EP), Apocalypse (PL) ----------------------------------------

def kill_team_roster() -> bytes:
    def ep(value):
        return cost("EP", "ep-1", value)

    operatives = "".join(sel(f"Operative {i}", "model", ep(2 if i % 2 else 0),
                             sel("Chainsword", "upgrade", ep(1))) for i in range(6))
    return roster_xml(operatives, costs=ep(12), limits='<costLimit name="EP" typeId="ep-1" '
                      'value="10"/>', name="Kill team", catalogue="Kommandos",
                      system="Kill Team (2021)")


def apocalypse_roster() -> bytes:
    def pl(value):
        return cost("PL", "pl-9", value) + cost("CP", "cp-2", 0)

    units = sel("Warlord Titan", "model", pl(80)) + sel("Reaver Titan", "model", pl(55))
    return roster_xml(units, costs=pl(135), name="Big stompy", catalogue="Titan Legions",
                      system="Warhammer 40,000: Apocalypse")


# --- Warhammer 40,000 10th edition: configuration selections ----------------------------------

def _pts(value) -> str:
    return cost("pts", "51b2-306e-1021-d207", value)


W40K_SETTINGS = (("Battle Size", "2. Strike Force (2000 Point limit)"),
                 ("Detachment", "Gladius Task Force"),
                 ("Show/Hide Options", "Legends are visible, Titans are visible"))


def wh40k_roster() -> bytes:
    """Configuration entries first (type upgrade, 0 pts, category Configuration), then units;
    the points cost type has a GUID id and the name ``pts``."""
    config = (
        sel("Battle Size", "upgrade", _pts(0), sel("2. Strike Force (2000 Point limit)",
                                                    "upgrade", _pts(0)),
            categories=("Configuration",))
        + sel("Detachment", "upgrade", _pts(0), sel("Gladius Task Force", "upgrade", _pts(0)),
              categories=("Configuration",))
        + sel("Show/Hide Options", "upgrade", _pts(0),
              sel("Legends are visible", "upgrade", _pts(0))
              + sel("Titans are visible", "upgrade", _pts(0)),
              categories=("Configuration",)))
    units = (sel("Captain", "model", _pts(80), sel("Warlord", "upgrade", _pts(0))
                 + sel("Artificer Armour", "upgrade", _pts(10)), categories=("Character",))
             + sel("Intercessor Squad", "unit", _pts(0),
                   sel("Intercessor", "model", _pts(160), number=10),
                   categories=("Battleline",))
             + sel("Nurglings", "unit", _pts(0), sel("Nurgling Swarm", "model", _pts(0))))
    return roster_xml(config + units, costs=_pts(250), name="Gladius", catalogue="Space Marines",
                      system="Warhammer 40,000 10th Edition")


# --- Age of Sigmar 4 (New Recruit JSON): battle traits, formation, lores, regiments -------------

def aos_new_recruit_json() -> bytes:
    def pts(value):
        return [{"name": "pts", "typeId": "points", "value": value}]

    def selection(name, kind, value, children=(), categories=()):
        return {"name": name, "type": kind, "number": 1, "costs": pts(value),
                "categories": [{"name": c, "primary": i == 0} for i, c in enumerate(categories)],
                "selections": list(children)}

    root = [
        selection("Battle Traits: Swamp Lords", "upgrade", 0),
        selection("Battle Formation", "upgrade", 0,
                  [selection("Grinnin' Blades", "upgrade", 0)]),
        selection("Spell Lore", "upgrade", 0, [selection("Lore of the Mire", "upgrade", 0)]),
        selection("Manifestation Lore", "upgrade", 30,
                  [selection("Swamp Spirits", "upgrade", 0)]),
        selection("Swamp Totem", "unit", 0, categories=("Faction Terrain",)),
    ]
    regiment = {"name": "General's Regiment", "catalogueName": "Swamp Lords", "selections": [
        selection("Bog Boss", "unit", 160, [selection("General", "upgrade", 0)]),
        selection("Mire Stalkers", "unit", 0, [selection("Mire Stalker", "model", 240)])]}
    body = {"name": "Swampy 2k", "generatedBy": "https://newrecruit.eu",
            "gameSystemName": "Age of Sigmar 4.0",
            "costs": pts(430), "costLimits": pts(2000),
            "forces": [{"name": "General's Handbook", "catalogueName": "Swamp Lords",
                        "selections": root, "forces": [regiment]}]}
    return json.dumps({"roster": body}).encode()


# --- zips ---------------------------------------------------------------------------------------

def zipped(*members: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


APPLE_DOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        " + b"\x00" * 32


def macos_rezip(content: bytes, member: str = "Lists/Gladius.ros") -> bytes:
    """What Finder's "Compress" writes: folder entries, the roster inside its folder, and the
    AppleDouble resource forks under ``__MACOSX/`` (``._name``), plus a .DS_Store."""
    folder = member.rsplit("/", 1)[0] + "/"
    fork = f"__MACOSX/{folder}._{member.rsplit('/', 1)[1]}"
    return zipped((folder, b""), (member, content), ("__MACOSX/", b""),
                  (f"__MACOSX/{folder}", b""), (fork, APPLE_DOUBLE),
                  (f"{folder}.DS_Store", b"\x00\x00\x00\x01Bud1"))
