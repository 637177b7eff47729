"""Webhook bodies: the versioned generic JSON payload, the Discord message, and the
HMAC-SHA256 signature. Plain functions of an event's stored payload and a hook's settings; no
database. The schema is documented in ``docs/webhooks.md``.

An event's ``data`` holds public facts only (R-FLT-7: names, tiles, counts, never lists, fleet
contents, orders or hazards); what the reader sees is rendered here in the hook's language."""

import hashlib
import hmac
import json
import zoneinfo
from datetime import UTC, datetime

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns import formats

VERSION = 1
SIGNATURE_HEADER = "X-Feldzug-Signature"

# Every event code a hook may subscribe to, with who may read it.
KINDS = {
    "phase_opened": ("public", gettext_lazy("Phase opened")),
    "deadline_soon": ("public", gettext_lazy("Deadline in 24 hours")),
    "battles_created": ("members", gettext_lazy("Battles created")),
    "battle_date_agreed": ("members", gettext_lazy("Battle date agreed")),
    "result_confirmed": ("members", gettext_lazy("Battle result confirmed")),
    "dispute_raised": ("admins", gettext_lazy("Result disputed")),
    "conquest_results": ("public", gettext_lazy("Conquest results")),
    "naval_battles": ("public", gettext_lazy("Naval battles fought")),
    "round_closed": ("public", gettext_lazy("Round closed")),
    "campaign_paused": ("public", gettext_lazy("Campaign paused")),
    "campaign_resumed": ("public", gettext_lazy("Campaign resumed")),
}
TEST_KIND = "test"
AUDIENCE_RANK = {"public": 0, "members": 1, "admins": 2}

PHASES = {"declare": gettext_lazy("Declare"), "fleets": gettext_lazy("Fleets"),
          "lists": gettext_lazy("Army lists"), "battles": gettext_lazy("Battles"),
          "conquest": gettext_lazy("Conquest"), "closed": gettext_lazy("Closed")}
OUTCOMES = {"victory": gettext_lazy("Victory"), "moral_victory": gettext_lazy("Moral victory"),
            "draw": gettext_lazy("Draw"), "defeat": gettext_lazy("Defeat")}

# Discord's message limits (developer documentation, "Create Message" / embed limits).
LIMITS = {"content": 2000, "embeds": 10, "title": 256, "description": 4096, "fields": 25,
          "field_name": 256, "field_value": 1024, "footer": 2048, "total": 6000}


def reaches(hook_audience: str, event_audience: str) -> bool:
    """A hook for ``hook_audience`` gets events meant for that audience or a wider one."""
    return AUDIENCE_RANK[event_audience] <= AUDIENCE_RANK[hook_audience]


# --- the generic payload --------------------------------------------------------------------

def payload(*, kind: str, key: str, at: datetime, campaign: dict, data: dict) -> dict:
    """The versioned generic payload, language-neutral (``docs/webhooks.md``)."""
    return {"version": VERSION, "event": kind, "id": key, "campaign": campaign,
            "at": at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "data": data}


def json_body(stored: dict, language: str) -> bytes:
    """The generic hook's body: the payload plus a one-line ``text`` in the hook's language."""
    with translation.override(language):
        text = summary(stored)
    body = {**stored, "language": language, "text": text}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """``t=<unix time>,v1=<hex HMAC-SHA256 of "<t>." + body>`` (replay: check ``t``)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes, *, now: int, tolerance: int = 300) -> bool:
    """What a receiver does (``docs/webhooks.md``): the signature matches and is recent."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    expected = sign(secret, timestamp, body).split("v1=", 1)[1]
    return abs(now - timestamp) <= tolerance and \
        hmac.compare_digest(expected, parts.get("v1", ""))


# --- what the reader sees (both formats) ----------------------------------------------------

def when(iso: str | None, zone_name: str) -> str:
    """A stored UTC time in the campaign's zone, named, in the active language."""
    if not iso:
        return _("no deadline")
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    with timezone.override(zoneinfo.ZoneInfo(zone_name)):  # the one format (campaigns.formats)
        return f"{formats.datetime_text(moment)} ({zone_name})"


def _phase(code: str) -> str:
    return str(PHASES.get(code, code))


def _side(name: str | None) -> str:
    return name or _("neutral")


def _tile(fact: dict) -> str:
    """A tile's display name (``tile_name``); events stored before it had their ``tile``."""
    return fact.get("tile_name") or fact.get("tile", "")


def _battle(b: dict) -> str:
    return f"{_tile(b)}: {_side(b.get('attacker'))} – {_side(b.get('defender'))}"


def _count(text: str, number, items: list) -> str:
    return text % {"n": number, "count": len(items)}


def _conquest(number, rolls: list) -> str:
    """How many conquest rolls succeeded, with the plural the count needs; no rolls is said
    as such (never "0 of 0")."""
    if not rolls:
        return _("Round %(n)s: no conquest rolls.") % {"n": number}
    won = sum(1 for r in rolls if r.get("success"))
    return ngettext("Round %(n)s: %(won)s of %(count)s conquest roll succeeded.",
                    "Round %(n)s: %(won)s of %(count)s conquest rolls succeeded.",
                    len(rolls)) % {"n": number, "won": won, "count": len(rolls)}


def summary(stored: dict) -> str:
    """One line saying what happened, in the active language."""
    kind, data, zone_name = stored["event"], stored["data"], stored["campaign"]["time_zone"]
    number = data.get("round")
    texts = {
        "phase_opened": lambda: _("Round %(n)s: %(phase)s is open until %(deadline)s.") % {
            "n": number, "phase": _phase(data.get("phase", "")),
            "deadline": when(data.get("deadline"), zone_name)},
        "deadline_soon": lambda: _("Round %(n)s: %(phase)s ends %(deadline)s.") % {
            "n": number, "phase": _phase(data.get("phase", "")),
            "deadline": when(data.get("deadline"), zone_name)},
        "battles_created": lambda: _count(ngettext(
            "Round %(n)s: %(count)s battle.", "Round %(n)s: %(count)s battles.",
            len(data.get("battles", []))), number, data.get("battles", [])),
        "battle_date_agreed": lambda: _("%(battle)s on %(at)s.") % {
            "battle": _battle(data.get("battle", {})), "at": when(data.get("at"), zone_name)},
        "result_confirmed": lambda: _("%(battle)s: %(outcome)s (%(a)s:%(d)s).") % {
            "battle": _battle(data.get("battle", {})),
            "outcome": OUTCOMES.get(data.get("outcome"), data.get("outcome")),
            "a": data.get("attacker_vp"), "d": data.get("defender_vp")},
        "dispute_raised": lambda: _("%(battle)s: result disputed by %(by)s.") % {
            "battle": _battle(data.get("battle", {})), "by": data.get("by", "")},
        "conquest_results": lambda: _conquest(number, data.get("rolls", [])),
        "naval_battles": lambda: _count(ngettext(
            "Round %(n)s: %(count)s naval battle.", "Round %(n)s: %(count)s naval battles.",
            len(data.get("battles", []))), number, data.get("battles", [])),
        "round_closed": lambda: _("Round %(n)s closed.") % {"n": number},
        "campaign_paused": lambda: _("The campaign admin paused the campaign.") + (
            f" {data['reason']}" if data.get("reason") else ""),
        "campaign_resumed": lambda: _("The campaign admin resumed the campaign."),
        TEST_KIND: lambda: _("Test event: this hook works."),
    }
    return texts.get(kind, lambda: kind)()


def _fields(stored: dict) -> list[tuple[str, str]]:
    """(name, value) pairs under the embed for the events that list things."""
    kind, data = stored["event"], stored["data"]
    if kind == "deadline_soon" and data.get("owing"):
        return [(_("Still to act"), ", ".join(data["owing"]))]
    if kind == "battles_created":
        return [(_tile(b), f"{_side(b.get('attacker'))} – {_side(b.get('defender'))}")
                for b in data.get("battles", [])]
    if kind == "conquest_results":
        return [(_tile(r), f"{r.get('player', '')}: "
                 + (_("conquered") if r.get("success") else _("held")))
                for r in data.get("rolls", [])]
    if kind == "naval_battles":
        return [(b.get("area") or "?", _naval_line(b)) for b in data.get("battles", [])]
    if kind == "round_closed":
        rows = [(f"{row['rank']}. {row['player']}", _("%(vp)s VP, %(tiles)s tiles") % {
            "vp": row.get("victory_points", 0), "tiles": row.get("tiles", 0)})
            for row in data.get("standings", [])]
        changes = [f"{_tile(c)}: {_side(c.get('from'))} → {_side(c.get('to'))}"
                   for c in data.get("map_changes", [])]
        return rows + ([(_("Map changes"), "\n".join(changes))] if changes else [])
    if kind == "dispute_raised" and data.get("reason"):
        return [(_("Reason"), data["reason"])]
    return []


def _naval_line(b: dict) -> str:
    names = {"attacker": b.get("attacker") or _("the pirates"),
             "defender": b.get("defender") or _("the pirates")}
    lost = b.get("lost", {})
    parts = [_("%(side)s lost %(sunk)s sunk, %(captured)s captured") % {
        "side": names[key], "sunk": lost.get(key, {}).get("sunk", 0),
        "captured": lost.get(key, {}).get("captured", 0)} for key in ("attacker", "defender")]
    winner = names.get(b.get("winner") or "", _("nobody"))
    return f"{names['attacker']} – {names['defender']}; " + _("winner: %(w)s") % {"w": winner} \
        + "; " + "; ".join(parts)


def _cut(text: str, limit: int) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def discord_body(stored: dict, language: str, colour: str) -> bytes:
    """A Discord webhook message (content + one embed in the hook's colour, linking the
    campaign page), kept inside every Discord limit (``LIMITS``)."""
    with translation.override(language):
        message = discord_message(stored, colour)
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def discord_message(stored: dict, colour: str) -> dict:
    kind, campaign = stored["event"], stored["campaign"]
    label = str(KINDS[kind][1]) if kind in KINDS else _("Test event")
    title = _cut(f"{campaign['name']}: {label}", LIMITS["title"])
    description = _cut(summary(stored), LIMITS["description"])
    fields = [{"name": _cut(name or "-", LIMITS["field_name"]),
               "value": _cut(value or "-", LIMITS["field_value"]), "inline": False}
              for name, value in _fields(stored)]
    link = stored["data"].get("link") or campaign["url"]
    embed = {"title": title, "description": description, "url": link,
             "color": int(colour.lstrip("#") or "0", 16), "timestamp": stored["at"],
             "footer": {"text": "Feldzug"}}
    budget = LIMITS["total"] - len(title) - len(description) - len("Feldzug")
    kept = []
    for field in fields[:LIMITS["fields"] - 1]:
        size = len(field["name"]) + len(field["value"])
        if size > budget:
            break
        kept.append(field)
        budget -= size
    if len(kept) < len(fields) and budget > 40:
        more = _("… and %(n)s more on the campaign page") % {"n": len(fields) - len(kept)}
        kept.append({"name": "…", "value": _cut(more, min(budget - 1, LIMITS["field_value"])),
                     "inline": False})
    embed["fields"] = kept
    return {"content": _cut(title, LIMITS["content"]), "embeds": [embed],
            "allowed_mentions": {"parse": []}}


def discord_size(message: dict) -> int:
    """The characters Discord counts towards an embed's 6000 total."""
    total = 0
    for embed in message.get("embeds", []):
        total += len(embed.get("title", "")) + len(embed.get("description", ""))
        total += len(embed.get("footer", {}).get("text", ""))
        total += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    return total


def body(stored: dict, *, kind: str, language: str, colour: str) -> bytes:
    """The bytes a hook of ``kind`` posts."""
    if kind == "discord":
        return discord_body(stored, language, colour)
    return json_body(stored, language)
