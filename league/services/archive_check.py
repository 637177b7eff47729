"""Shape checks of a campaign archive (``docs/archive.md``): every record kind is a table of
field kinds, checked by one walker that reports each problem by its path
(``rounds[1].battles[0].attacker``) and never raises anything but ``DocumentInvalid``.
References (``player``, ``tile``, ...) are the archive's own ids; the walker checks that they
name a record of the archive, the import maps them to the new rows."""

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from battles.models import ArmyList, Battle
from campaigns.models import Attack, Round
from campaigns.values import is_int, show
from fleets.models import NavalBattle
from league.services.map_document import MAX_ERRORS, DocumentInvalid

BIG = 10**9
SMALL = 32767  # the database's small integers
REF = "ref"

PURCHASE = {"player": (REF, "player"), "attack_armies": "int", "cost": "int"}
ATTACK = {"id": "key", "player": (REF, "player"), "tile": (REF, "tile"),
          "source": ("choice", Attack.Source.values), "order": "int",
          "status": ("choice", Attack.Status.values), "status_reason": "str200"}
ARMY_LIST = {"player": (REF, "player"), "name": "str200", "faction": "str200", "entries": "list",
             "total": "int", "roster_total": "int?", "warnings": "list", "settings": "list",
             "source": ("choice", ArmyList.Source.values), "submitted_at": "time"}
HISTORY = {"at": "time?", "old": "json", "new": "json"}
BATTLE = {"id": "key", "attack": (REF, "attack"), "tile": (REF, "tile"),
          "attacker": (REF, "player"), "defender": (REF, "player?"), "neutral": "bool",
          "chain_position": "small", "chain_length": "small",
          "status": ("choice", Battle.Status.values), "point_limits": "dict", "bonus": "dict",
          "place": "str200", "outcome": ("choice", ["", *Battle.Outcome.values]),
          "attacker_vp": "int", "defender_vp": "int",
          "result_status": ("choice", Battle.ResultStatus.values), "chain_decision": "str5",
          "settled_at": "time?", "scheduled_at": "time?", "reported_at": "time?",
          "confirmed_at": "time?", "lists_revealed_at": "time?",
          "army_lists": ("items", ARMY_LIST), "history": ("items", HISTORY)}
CHOICE = {"player": (REF, "player"), "rolls": ("refs", "attack"), "defaulted": "bool"}
CONQUEST_ROLL = {"attack": (REF, "attack"), "battle": (REF, "battle?"), "tile": (REF, "tile"),
                 "player": (REF, "player"), "dice": "list", "modifiers": "list",
                 "total": "signed", "threshold": "small", "threshold_rule": "str10", "k": "small?",
                 "success": "bool", "immediate": "bool", "counter": "int"}
FLEET_PHASE = {"resolved_at": "time", "player_order": ("refs", "player"),
               "first_counter": "int", "dice_count": "int"}
NAVAL = {"area": (REF, "area?"), "sequence": "small",
         "engine": ("choice", NavalBattle.Engine.values), "attacker": (REF, "player?"),
         "defender": (REF, "player?"), "winner": ("choice", ["attacker", "defender", None]),
         "attacker_vp": "int", "defender_vp": "int", "losses": "dict",
         "first_counter": "int?", "dice_count": "int?"}
ROLL = {"counter": "int", "purpose": "str200", "sides": "small", "faces": "list",
        "object": "str80"}
ROUND = {"number": "int", "phase": ("choice", Round.Phase.values), "opened_at": "time?",
         "phase_started_at": "time?", "phase_deadline": "time?", "closed_at": "time?",
         "conquest_resolved_at": "time?", "seed_commitment": "str", "server_seed": "str?",
         "dice_campaign": "int?", "next_counter": "int?", "rolls": ("items", ROLL),
         "purchases": ("items", PURCHASE), "attacks": ("items", ATTACK),
         "battles": ("items", BATTLE), "conquest_choices": ("items", CHOICE),
         "conquest_rolls": ("items", CONQUEST_ROLL), "fleet_phase": ("one?", FLEET_PHASE),
         "naval_battles": ("items", NAVAL), "standings": "list?", "map_snapshot": "dict?"}
PLAYER = {"id": "key", "faction": "str", "colour": "str", "requisition": "int",
          "display_name": "str60"}
MARKER_TYPE = {"code": "str40", "name": "str80", "army_points_bonus": "signed",
               "conquest_modifier": "signed", "radius": "small"}
HAZARD = {"area": (REF, "area"), "owner": (REF, "player?"), "name": "str80", "attack": "small",
          "defence": "small", "agility": "small", "hits": "small", "active": "bool",
          "triggered_at": "time?"}
# fields added to version 1 after its first archives were written: those may lack them
LATER_FIELDS = frozenset({"language"})
CAMPAIGN = {"id": "int", "name": "str", "status": "str", "visibility": "str",
            "time_zone": "str", "language": "str?", "ruleset": "dict"}
DOCUMENT = {"format": "str", "version": "int", "exported_at": "time?", "campaign": ("one",
            CAMPAIGN), "marker_types": ("items", MARKER_TYPE), "players": ("items", PLAYER),
            "map": "dict", "hazards": ("items", HAZARD), "rounds": ("items", ROUND)}


# "no player with id 7 in the archive", one message per kind of record (the words differ)
_NO_RECORD = {
    "player": gettext_lazy("no player with id %(value)s in the archive"),
    "tile": gettext_lazy("no tile with id %(value)s in the archive"),
    "area": gettext_lazy("no area with id %(value)s in the archive"),
    "attack": gettext_lazy("no attack with id %(value)s in the archive"),
    "battle": gettext_lazy("no battle with id %(value)s in the archive"),
}


def parse_time(value) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


class Walker:
    """Collects every problem of a document by path; ``keys`` are the ids each record kind
    declares (``player``, ``tile``, ``area``, ``attack``, ``battle``)."""

    def __init__(self, keys: dict[str, set]):
        self.keys = keys
        self.errors: dict[str, list[str]] = {}

    def error(self, path: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.setdefault(path or "non_field_errors", []).append(message)

    def raise_if_any(self) -> None:
        if self.errors:
            raise DocumentInvalid(self.errors)

    def record(self, value, spec: dict, path: str) -> bool:
        if not isinstance(value, dict):
            self.error(path, _("must be an object"))
            return False
        def at(key) -> str:
            return f"{path}.{key}" if path else str(key)

        for key in value:
            if key not in spec:
                self.error(at(key), _("unknown field"))
        ok = True
        for key, kind in spec.items():
            if key not in value and key in LATER_FIELDS:
                continue
            if key not in value:
                self.error(at(key), _("this field is required"))
                ok = False
            elif not self.field(value[key], kind, at(key)):
                ok = False
        return ok

    def items(self, value, spec: dict, path: str) -> bool:
        if not isinstance(value, list):
            self.error(path, _("must be a list"))
            return False
        results = [self.record(item, spec, f"{path}[{i}]") for i, item in enumerate(value)]
        return all(results)

    def field(self, value, kind, path: str) -> bool:  # noqa: C901 - one table of kinds
        if isinstance(kind, tuple):
            return self.compound(value, kind, path)
        if kind.endswith("?"):
            if value is None:
                return True
            kind = kind[:-1]
        message = None
        if kind in ("int", "signed", "small"):
            low, high = (-BIG, BIG) if kind == "signed" else (0, SMALL if kind == "small"
                                                               else BIG)
            if not (is_int(value) and low <= value <= high):
                message = _("must be an integer from %(low)s to %(high)s") % {"low": low,
                                                                               "high": high}
        elif kind == "key":
            if not (is_int(value) or isinstance(value, str) and 0 < len(value) <= 100):
                message = _("an id is an integer or a short string")
        elif kind.startswith("str"):
            limit = int(kind[3:] or 10_000)
            if not isinstance(value, str) or len(value) > limit:
                message = ngettext("must be text of at most %(limit)s character",
                                   "must be text of at most %(limit)s characters",
                                   limit) % {"limit": limit}
        elif kind == "bool":
            if not isinstance(value, bool):
                message = _("must be true or false")
        elif kind == "time":
            message = self.time(value)
        elif kind in ("list", "dict") and not isinstance(value, list if kind == "list"
                                                          else dict):
            message = _("must be a list") if kind == "list" else _("must be an object")
        if message:
            self.error(path, message)
        return message is None

    @staticmethod
    def time(value) -> str | None:
        try:
            moment = parse_time(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            return _("must be an ISO 8601 time with its zone")
        return None

    def compound(self, value, kind: tuple, path: str) -> bool:
        name, arg = kind
        if name == REF:
            space = arg.rstrip("?")
            if value is None and arg.endswith("?"):
                return True
            if isinstance(value, dict | list) or value not in self.keys[space]:
                self.error(path, _NO_RECORD[space] % {"value": show(value)})
                return False
            return True
        if name == "refs":
            if not isinstance(value, list):
                self.error(path, _("must be a list"))
                return False
            return all([self.compound(v, (REF, arg), f"{path}[{i}]")
                        for i, v in enumerate(value)])
        if name == "choice":
            if value not in arg:
                self.error(path, _("must be one of %(choices)s") % {
                    "choices": ", ".join(show(c) for c in arg)})
                return False
            return True
        if name == "items":
            return self.items(value, arg, path)
        if name == "one?" and value is None:
            return True
        return self.record(value, arg, path)


def declared(document: dict) -> dict[str, set]:
    """The ids each kind of record declares in a document of the right outer shape; what is
    malformed declares nothing (the walker reports it)."""
    keys: dict[str, set] = {"player": set(), "tile": set(), "area": set(), "attack": set(),
                            "battle": set()}

    def ids(records) -> set:
        if not isinstance(records, list):
            return set()
        return {r.get("id") for r in records
                if isinstance(r, dict) and isinstance(r.get("id"), int | str)}

    keys["player"] = ids(document.get("players"))
    game_map = document.get("map") if isinstance(document.get("map"), dict) else {}
    planets = game_map.get("planets") if isinstance(game_map.get("planets"), list) else []
    for planet in planets:
        if isinstance(planet, dict):
            keys["tile"] |= ids(planet.get("tiles"))
    keys["area"] = ids(game_map.get("areas"))
    rounds = document.get("rounds") if isinstance(document.get("rounds"), list) else []
    for rnd in rounds:
        if isinstance(rnd, dict):
            keys["attack"] |= ids(rnd.get("attacks"))
            keys["battle"] |= ids(rnd.get("battles"))
    return {space: {k for k in values if k is not None} for space, values in keys.items()}


# (list of a round, fields that must be unique among its records) - the database's own
# unique keys, checked here so that a contradictory archive is a 400 naming the place
ROUND_UNIQUE = (("rolls", ("counter",)), ("attacks", ("id",)), ("attacks", ("order",)),
                ("battles", ("id",)), ("battles", ("attack",)), ("conquest_rolls", ("attack",)),
                ("conquest_choices", ("player",)), ("naval_battles", ("area", "sequence")))


def _duplicates(walker: Walker, records: list, fields: tuple, path: str, seen: dict) -> None:
    for i, record in enumerate(records):
        key = tuple(repr(record.get(f)) for f in fields)
        if key in seen:
            walker.error(f"{path}[{i}].{fields[-1]}",
                         _("%(fields)s also at %(other)s; once only") % {
                             "fields": ", ".join(fields), "other": seen[key]})
        seen.setdefault(key, f"{path}[{i}]")


def check_unique(walker: Walker, document: dict) -> None:
    """Ids once per archive, and each round's unique keys (call on a well-shaped document)."""
    _duplicates(walker, document["players"], ("id",), "players", {})
    ids: dict[str, dict] = {"attacks": {}, "battles": {}}
    for n, rnd in enumerate(document["rounds"]):
        for name, fields in ROUND_UNIQUE:
            seen = ids[name] if fields == ("id",) else {}
            _duplicates(walker, rnd[name], fields, f"rounds[{n}].{name}", seen)
        for b, battle in enumerate(rnd["battles"]):
            _duplicates(walker, battle["army_lists"], ("player",),
                        f"rounds[{n}].battles[{b}].army_lists", {})
