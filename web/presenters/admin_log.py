"""The audit log in readable form: each ``AdminAction``
as who (or "automatic"), when, a translated label of what was done, to what, and a row per
changed fact (before -> after) in the game's words: phases and outcomes translated, results as
"Victory 12 : 4 (confirmed)", ruleset keys by their form labels. Times are handed to the template
as datetimes (``*_at``) so that it shows them with ``|local_time`` in the reader's zone. Kinds or
facts this module does not know show as their codes."""

import re
from datetime import date, datetime

from django.utils.dateparse import parse_date, parse_datetime
from django.utils.dates import WEEKDAYS as WEEKDAY_NAMES
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.models import Battle
from campaigns import formats
from campaigns.models import Attack, Campaign, Round
from campaigns.selectors.admin_log import KIND_GROUPS
from rules.ruleset import WEEKDAYS
from web.forms.manage import CHOICE_LABELS, KEY_LABELS
from web.templatetags.feldzug import feature_label

KIND_LABELS = {
    "map.import": gettext_lazy("Map replaced by an import"),
    "planet.create": gettext_lazy("Planet added"),
    "planet.update": gettext_lazy("Planet renamed"),
    "planet.delete": gettext_lazy("Planet deleted"),
    "tile.create": gettext_lazy("Tile added"),
    "tile.update": gettext_lazy("Tile changed"),
    "tile.delete": gettext_lazy("Tile deleted"),
    "link.create": gettext_lazy("Tiles linked"),
    "link.delete": gettext_lazy("Tile link removed"),
    "marker.create": gettext_lazy("Marker added"),
    "marker.update": gettext_lazy("Marker changed"),
    "marker.delete": gettext_lazy("Marker removed"),
    "area.create": gettext_lazy("Area added"),
    "area.update": gettext_lazy("Area changed"),
    "area.delete": gettext_lazy("Area deleted"),
    "area.link": gettext_lazy("Areas linked"),
    "area.unlink": gettext_lazy("Area link removed"),
    "area.borders": gettext_lazy("Coastal borders changed"),
    "fleet.create": gettext_lazy("Fleet placed"),
    "fleet.update": gettext_lazy("Fleet changed"),
    "fleet.delete": gettext_lazy("Fleet removed"),
    "ship.create": gettext_lazy("Ship added"),
    "ship.update": gettext_lazy("Ship changed"),
    "ship.delete": gettext_lazy("Ship removed"),
    "hazard.create": gettext_lazy("Hazard placed"),
    "hazard.update": gettext_lazy("Hazard changed"),
    "hazard.delete": gettext_lazy("Hazard removed"),
    "player.add": gettext_lazy("Player added"),
    "player.remove": gettext_lazy("Player removed"),
    "player.update": gettext_lazy("Player changed"),
    "player.replace": gettext_lazy("Seat handed over"),
    "admin.add": gettext_lazy("Admin named"),
    "admin.remove": gettext_lazy("Admin removed"),
    "result.enter": gettext_lazy("Result entered"),
    "result.correct": gettext_lazy("Result corrected"),
    "dispute.settle": gettext_lazy("Dispute settled"),
    "campaign.update": gettext_lazy("Campaign settings changed"),
    "ruleset.update": gettext_lazy("Ruleset changed"),
    "round.advance": gettext_lazy("Phase advanced"),
    "round.early_advance": gettext_lazy("Phase advanced early"),
    "round.deadline_advance": gettext_lazy("Phase advanced: its deadline passed"),  # R-RND-2
    "round.job_advance": gettext_lazy("Phase advanced after its automatic work"),
    "round.deadline": gettext_lazy("Deadline moved"),
    "round.extend": gettext_lazy("Deadline extended"),
    # [reading R-RND-1, R-CON-4] league.services.rounds._pass_over_undue
    "round.skip_conquest": gettext_lazy("Conquest phase passed over: no conquest roll was due"),
    "campaign.pause": gettext_lazy("Campaign paused"),
    "campaign.resume": gettext_lazy("Campaign resumed"),
    "nudge": gettext_lazy("Players nudged"),
    "campaign.export": gettext_lazy("Campaign exported"),
    "sandbox.create": gettext_lazy("Sandbox created"),
    "campaign.import": gettext_lazy("Campaign imported from an archive"),
    "absence.create": gettext_lazy("Absence marked"),
    "absence.delete": gettext_lazy("Absence removed"),
    "webhook.create": gettext_lazy("Webhook added"),
    "webhook.update": gettext_lazy("Webhook changed"),
    "webhook.delete": gettext_lazy("Webhook removed"),
    # the organiser's corrections (R-SEC-2) and edits in the Django admin
    "result.void": gettext_lazy("Result voided"),
    "player.armies": gettext_lazy("Requisition or armies corrected"),
    "player.done": gettext_lazy("Marked done for the player"),
    "attack.cancel": gettext_lazy("Declaration cancelled for the player"),
    "staff.add": gettext_lazy("Added in the Django admin"),
    "staff.change": gettext_lazy("Changed in the Django admin"),
    "staff.delete": gettext_lazy("Deleted in the Django admin"),
}

GROUP_LABELS = {
    "rounds": gettext_lazy("Rounds"),
    "results": gettext_lazy("Results"),
    "map": gettext_lazy("Map & fleets"),
    "players": gettext_lazy("Players"),
    "settings": gettext_lazy("Settings"),
}
assert GROUP_LABELS.keys() == KIND_GROUPS.keys()

FIELD_LABELS = {
    "name": gettext_lazy("name"),
    "owner": gettext_lazy("owner"),
    "features": gettext_lazy("features"),
    "markers": gettext_lazy("markers"),
    "coordinates": gettext_lazy("coordinates"),
    "planet": gettext_lazy("planet"),
    "planets": gettext_lazy("planets"),
    "tile": gettext_lazy("tile"),
    "tiles": gettext_lazy("tiles"),
    "type": gettext_lazy("type"),
    "link": gettext_lazy("link"),
    "areas": gettext_lazy("areas"),
    "result": gettext_lazy("result"),
    "visibility": gettext_lazy("visibility"),
    "time_zone": gettext_lazy("time zone"),
    "language": gettext_lazy("language"),
    "join_requests_open": gettext_lazy("join requests"),
    "faction": gettext_lazy("faction"),
    "colour": gettext_lazy("colour"),
    "phase": gettext_lazy("phase"),
    "deadline": gettext_lazy("deadline"),
    "phase_deadline": gettext_lazy("deadline"),
    "hours": gettext_lazy("hours"),
    "reason": gettext_lazy("reason"),
    "players": gettext_lazy("players"),
    "from": gettext_lazy("from"),
    "to": gettext_lazy("to"),
    "note": gettext_lazy("note"),
    "paused_at": gettext_lazy("paused since"),
    "left_seconds": gettext_lazy("time left"),
    "rounds": gettext_lazy("rounds"),
    "sandbox": gettext_lazy("sandbox"),
    "phase_hours": gettext_lazy("hours per phase"),
    "weekly_deadlines": gettext_lazy("weekly deadlines"),
    "requisition": gettext_lazy("requisition"),
    "armies": gettext_lazy("attack armies left"),
    "done": gettext_lazy("done for the phase"),
    "status": gettext_lazy("status"),
    **KEY_LABELS,
}

RESULT_KINDS = frozenset({"result.enter", "result.correct", "dispute.settle"})
PHASE_KEYS = frozenset({"phase", "phase_hours", "weekly_deadlines"})
DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
DATE = re.compile(r"\d{4}-\d\d-\d\d")
NOTHING = "—"


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def field_label(key: str) -> str:
    return capfirst(str(FIELD_LABELS.get(key, key)))


def _choice(choices, value) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value)


def result_text(value: dict) -> str:
    """``Victory 12 : 4 (confirmed)`` (R-BAT-3): outcome, points, status."""
    outcome = _choice(Battle.Outcome, value.get("outcome"))
    text = f"{outcome} {value.get('attacker_vp')} : {value.get('defender_vp')}"
    if value.get("status"):
        text += f" ({_choice(Battle.ResultStatus, value['status'])})"
    return text


def _phase_map(key: str, value: dict) -> str:
    """``phase_hours`` {phase: hours} or ``weekly_deadlines`` {phase: {weekday, time}}."""
    parts = []
    for phase, item in value.items():
        if isinstance(item, dict) and item.get("weekday") in WEEKDAYS:
            weekday = WEEKDAY_NAMES[WEEKDAYS.index(item["weekday"])]
            item = f"{weekday} {item.get('time', '')}".strip()
        parts.append(f"{_choice(Round.Phase, phase)}: {value_text(key, item)}")
    return "; ".join(parts)


def value_text(key: str, value) -> str:
    if value is None or value == [] or value == "" or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "coordinates" and isinstance(value, list) and len(value) == 2:
        return f"({value[0]}, {value[1]})"
    if isinstance(value, list):
        shown = [feature_label(v) if key == "features" else v for v in value]
        return ", ".join(value_text("", v) for v in shown)
    if isinstance(value, dict):
        if "outcome" in value:
            return result_text(value)
        if key in PHASE_KEYS:
            return _phase_map(key, value)
        return "; ".join(f"{FIELD_LABELS.get(k, k)}: {value_text(k, v)}"
                         for k, v in value.items())
    if key == "phase":
        return _choice(Round.Phase, value)
    if key == "left_seconds" and isinstance(value, int):
        return f"{value // 3600} h {value % 3600 // 60:02d} min"
    if key == "visibility":
        return _choice(Campaign.Visibility, value)
    if key == "status":  # a declaration's (the organiser's cancel)
        return _choice(Attack.Status, value)
    if isinstance(value, str) and value in CHOICE_LABELS:
        return str(CHOICE_LABELS[value])
    if isinstance(value, str) and DATE.fullmatch(value) and parse_date(value):
        return formats.date_text(parse_date(value))
    return str(value)


def _side(key: str, value, present: bool) -> dict:
    """One side of a change: its text, or the time (``at``) the template shows localized."""
    if present and isinstance(value, str) and DATETIME.match(value):
        moment = parse_datetime(value)
        if isinstance(moment, datetime) and moment.tzinfo is not None:
            return {"text": "", "at": moment}
    if isinstance(value, date) and not isinstance(value, datetime):
        return {"text": formats.date_text(value), "at": None}
    return {"text": value_text(key, value) if present else NOTHING, "at": None}


def _row(key: str, old, new, has_old: bool, has_new: bool) -> dict:
    before, after = _side(key, old, has_old), _side(key, new, has_new)
    return {"field": field_label(key) if key else "", "before": before["text"],
            "after": after["text"], "before_at": before["at"], "after_at": after["at"]}


def change_rows(before, after, kind: str = "") -> list[dict]:
    """One row per fact that an entry records: its label, before and after. A result entry
    (``result.*``, ``dispute.settle``) is one row, the result as a whole."""
    if kind in RESULT_KINDS:
        return [_row("result", before, after, before is not None, after is not None)]
    if isinstance(before, dict) or isinstance(after, dict):
        old = before if isinstance(before, dict) else {}
        new = after if isinstance(after, dict) else {}
        keys = list(dict.fromkeys([*old, *new]))
        return [_row(key, old.get(key), new.get(key), before is not None, after is not None)
                for key in keys]
    if before is None and after is None:
        return []
    return [_row("", before, after, True, True)]


ROUND_TARGET = re.compile(r"round (\d+)")  # the round services name their target so


def target_label(target: str) -> str:
    """The target in the reader's language where the log wrote a round ("round 3")."""
    match = ROUND_TARGET.fullmatch(target)
    return _("round %(n)s") % {"n": match[1]} if match else target


def log_entries(actions) -> list[dict]:
    return [{"action": action, "kind": kind_label(action.kind),
             "target": target_label(action.target),
             "changes": change_rows(action.before, action.after, action.kind)}
            for action in actions]


def group_choices() -> list[tuple[str, str]]:
    """The kind groups for the filter: (code, label)."""
    return [(code, str(label)) for code, label in GROUP_LABELS.items()]
