"""Payloads and files for the players' side of a tabletop battle: results, army lists, roster
bytes built here, calendar parsing. The battles themselves come from tests/worlds.py (``duel``,
``chain``)."""

import io
import zipfile

from icalendar import Calendar

NS = "http://www.battlescribe.net/schema/rosterSchema"
WIN = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}
LOSS = {"outcome": "defeat", "attacker_vp": 3, "defender_vp": 11}


def entries_list(*units: tuple[str, int], name: str = "Spearhead") -> dict:
    return {"name": name, "entries": [{"name": n, "points": p} for n, p in units]}


CAPTAIN_LIST = entries_list(("Captain", 85), ("Intercessor Squad", 100))


# --- roster files (R-ARM-2) ------------------------------------------------------------------

def ros(units: list[tuple[str, float]], *, faction: str = "Imperium - Space Marines",
        name: str = "Roster", total: float | None = None) -> bytes:
    """A BattleScribe .ros: one force, one top-level selection per unit, each with a nested
    wargear selection that costs 5 points (so nesting is summed)."""
    def cost(value):
        return f'<cost name="pts" typeId="points" value="{value}"/>'

    selections = "".join(
        f'<selection id="s{i}" name="{unit}" number="1" type="unit">'
        f"<costs>{cost(points - 5)}</costs><selections>"
        f'<selection id="w{i}" name="Wargear" number="1" type="upgrade">'
        f"<costs>{cost(5)}</costs></selection></selections></selection>"
        for i, (unit, points) in enumerate(units))
    stated = total if total is not None else sum(p for _, p in units)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<roster id="r" name="{name}" battleScribeVersion="2.03" xmlns="{NS}">'
            f"<costs>{cost(stated)}</costs><forces>"
            f'<force id="f" name="Army" catalogueName="{faction}">'
            f"<selections>{selections}</selections></force></forces></roster>").encode()


def rosz(content: bytes, member: str = "list.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, content)
    return buffer.getvalue()


def events(feed: bytes) -> dict:
    """UID -> VEVENT of an iCalendar feed, parsed back as a client would."""
    return {str(e["UID"]): e for e in Calendar.from_ical(feed).walk("VEVENT")}
