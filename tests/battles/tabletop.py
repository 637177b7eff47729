"""Helpers for the players' side of a tabletop battle: a duel between anna and ben, chains,
roster bytes built here, calendar parsing."""

import io
import zipfile

from icalendar import Calendar

from battles.models import Battle
from tests.campaigns.league_map import League, advance_to, declare, row, tile

NS = "http://www.battlescribe.net/schema/rosterSchema"
WIN = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}
LOSS = {"outcome": "defeat", "attacker_vp": 3, "defender_vp": 11}


def with_emails(lg: League) -> League:
    for user in (lg.admin, lg.a.user, lg.b.user, lg.c.user, lg.d.user):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return lg


def duel(lg: League, phase: str = "lists") -> Battle:
    """Anna (one tile) attacks ben's tile next to it; both limits are 1500 (R-BON-1)."""
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, lg.b))
    advance_to(attack.round, phase)
    return Battle.objects.get(attack=attack)


def chain(lg: League, phase: str = "battles") -> list[Battle]:
    """Anna, then ben, then carl attack dora's tile (R-ATK-5)."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    tile(alpha, 1, 1, lg.c)
    rnd = lg.start()
    attacks = [declare(p, rnd, target) for p in (lg.a, lg.b, lg.c)]
    advance_to(rnd, phase)
    return [Battle.objects.get(attack=a) for a in attacks]


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
