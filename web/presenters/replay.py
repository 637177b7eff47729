"""A naval battle's event log (R-NAV-13) told as steps a reader follows without the rules: who
forms which line, the distance, each shot with its dice and hits, boardings with every strike,
sinkings, captures, retreats and the end. Both engines' logs (Dark Force R-NAV and D6 space
R-SPC) are read; a step this module does not know is shown with its rule and raw values.

``replay(battle, names)`` returns the rounds with their steps; each step is
``{"rule", "kind", "text", "dice", "tone", "lines"}``. Pure formatting, no rule is applied."""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

# Sentences whose verb agrees with a side as their subject (a faction, or "the pirates" in the
# plural) have the context "naval side", written out in each call so that makemessages sees it.


def _distance(value) -> str:
    return {"far": _("far"), "near": _("near")}.get(value, str(value))


def _band(value) -> str:
    """R-SPC-5: what beating the defence does, in words."""
    return {"no effect": _("no effect"), "shields down": _("the shields fail"),
            "1D off one system": _("one system loses 1D"),
            "1D off two systems": _("two systems lose 1D each"),
            "2D off one system": _("one system loses 2D"),
            "2D off two systems": _("two systems lose 2D each"),
            "destroyed": _("destroyed")}.get(value, str(value))


def _system(value) -> str:
    """R-SPC-6: the system a hit-table roll damages."""
    return {"maneuver": _("maneuver"), "speed": _("speed"), "targeting": _("targeting"),
            "gun_damage": _("guns"), "shields": _("shields"), "hull": _("hull"),
            "bridge": _("the bridge"),
            "bridge (bonus off this round)": _("the bridge (no captain bonus this round)"),
            }.get(value, str(value))


def _stance(value) -> str:
    return {"approach": _("approach"), "hold": _("hold"), "withdraw": _("withdraw"),
            "auto": _("decide by strength")}.get(value, str(value))


class Names:
    """Ship and side names of one battle, from its recorded sides. ``plural_sides`` are the
    sides named as a group ("the pirates"), whose verbs agree in the plural."""

    def __init__(self, battle, side_labels: dict[str, str], area_names: dict[int, str],
                 plural_sides: frozenset[str] = frozenset()):
        self.sides = side_labels
        self.areas = area_names
        self.plural = plural_sides
        self.ships: dict[int, str] = {}
        for side in battle.sides:
            for ship in side.get("ships", []):
                self.ships[int(ship["id"])] = ship.get("name") or f"#{ship['id']}"

    def ship(self, ship_id) -> str:
        try:
            return self.ships.get(int(ship_id), f"#{ship_id}")
        except (TypeError, ValueError):
            return str(ship_id)

    def side(self, key) -> str:
        return self.sides.get(key, str(key))

    def number(self, key) -> int:
        """The grammatical number of a side as a subject, for ``ngettext``: 1 for a named
        side (a faction), 2 for a group ("the pirates")."""
        return 2 if key in self.plural else 1

    def area(self, area_id) -> str:
        return self.areas.get(area_id, f"#{area_id}")

    def line(self, ids) -> list[str]:
        return [self.ship(i) for i in ids or []]


def _pair(event: dict, key: str) -> tuple:
    value = event.get(key) or {}
    if isinstance(value, dict):
        return value.get("attacker"), value.get("defender")
    return tuple(value) if isinstance(value, list | tuple) and len(value) == 2 else (None, None)


# --- Dark Force (R-NAV, R-BRD) -----------------------------------------------------------------

def _battle(e: dict, n: Names) -> str:
    cf_a, cf_d = _pair(e, "cf")
    text = capfirst(npgettext(
        "naval side", "%(attacker)s attacks %(defender)s (the fleet that arrived last attacks). "
        "Combat factors: %(cf_a)s against %(cf_d)s.",
        "%(attacker)s attack %(defender)s (the fleet that arrived last attacks). "
        "Combat factors: %(cf_a)s against %(cf_d)s.", n.number("attacker")) % {
        "attacker": n.side("attacker"), "defender": n.side("defender"), "cf_a": cf_a,
        "cf_d": cf_d})
    if e.get("advantage"):
        text += " " + capfirst(npgettext(
            "naval side", "%(side)s won the interception and has the advantage in the first round.",
            "%(side)s won the interception and have the advantage in the first round.",
            n.number(e["advantage"])) % {"side": n.side(e["advantage"])})
    for carried in e.get("hazard_hits") or []:  # R-SEA-2: hazard hits count in the battle
        if isinstance(carried, dict):
            text += " " + _("%(ship)s starts with %(hits)s hits from sea hazards here.") % {
                "ship": n.ship(carried.get("ship")), "hits": carried.get("hits")}
    return text


def _setup(e: dict, n: Names) -> str:
    if "start_distance_cm" in e:  # D6 space (R-SPC-2)
        return _("The ships start %(cm)s cm apart.") % {"cm": e["start_distance_cm"]}
    a, d = _pair(e, "stances")
    return " ".join([
        _("The lines form up at %(distance)s distance, flagships first.") % {
            "distance": _distance(e.get("distance"))},
        *(capfirst(ngettext("%(side)s means to %(stance)s.", "%(side)s mean to %(stance)s.",
                            n.number(key)) % {"side": n.side(key), "stance": _stance(stance)})
          for key, stance in (("attacker", a), ("defender", d)))])


def _maneuver(e: dict, n: Names) -> str:
    a, d = _pair(e, "stances")
    text = " ".join([
        _("Maneuver:"),
        *(capfirst(ngettext("%(side)s chooses to %(stance)s.", "%(side)s choose to %(stance)s.",
                            n.number(key)) % {"side": n.side(key), "stance": _stance(stance)})
          for key, stance in (("attacker", a), ("defender", d)))])
    ra, rd = _pair(e, "rolls")
    if ra is not None:
        ga, gd = _pair(e, "lowest_agility")
        text += " " + _("They roll %(ra)s and %(rd)s; a roll below the line's lowest agility "
                        "(%(ga)s and %(gd)s) succeeds.") % {"ra": ra, "rd": rd, "ga": ga,
                                                            "gd": gd}
    before, after = e.get("distance_before"), e.get("distance")
    if before != after:
        text += " " + _("The distance changes from %(before)s to %(after)s.") % {
            "before": _distance(before), "after": _distance(after)}
    else:
        text += " " + _("The distance stays %(distance)s.") % {"distance": _distance(after)}
    for side in e.get("retreating") or []:
        text += " " + capfirst(npgettext("naval side", "%(side)s tries to break off.",
                                         "%(side)s try to break off.", n.number(side)) % {
            "side": n.side(side)})
    return text


def _retreat(e: dict, n: Names) -> str:
    side = e.get("side")
    if e.get("success"):
        return capfirst(npgettext("naval side", "%(side)s retreats to %(area)s.",
                                  "%(side)s retreat to %(area)s.", n.number(side)) % {
            "side": n.side(side), "area": n.area(e.get("to"))})
    return capfirst(npgettext("naval side", "%(side)s finds no area to retreat to and stays.",
                              "%(side)s find no area to retreat to and stay.",
                              n.number(side)) % {"side": n.side(side)})


def _diagonal(e: dict, n: Names) -> str:
    return _("%(ship)s has no opposite number and stands diagonally against %(target)s.") % {
        "ship": n.ship(e.get("ship")), "target": n.ship(e.get("target"))}


def _near_choice(e: dict, n: Names) -> str:
    a, d = (e.get("ships") or [None, None])[:2]
    ra, rd = (e.get("dice") or [None, None])[:2]
    ga, gd = (e.get("agility") or [None, None])[:2]
    text = _("Close quarters, pairing %(p)s: %(a)s rolls %(ra)s against agility %(ga)s, "
             "%(d)s rolls %(rd)s against agility %(gd)s (lower succeeds).") % {
        "p": e.get("pairing"), "a": n.ship(a), "d": n.ship(d), "ra": ra, "rd": rd, "ga": ga,
        "gd": gd}
    chooser = e.get("chooser")
    who = n.ship(a if chooser == "attacker" else d) if chooser else None
    if e.get("choice") == "boarding":
        return text + " " + _("%(ship)s chooses to board.") % {"ship": who}
    if e.get("choice") == "gunfire":
        return text + " " + (_("%(ship)s chooses to fire.") % {"ship": who} if who else
                             _("Equal rolls: both fire."))
    return text + " " + _("Neither gets a chance: no exchange in this pairing.")


def _gunfire(e: dict, n: Names) -> str:
    values = {"shooter": n.ship(e.get("shooter")), "target": n.ship(e.get("target")),
              "roll": (e.get("dice") or ["?"])[0], "attack": e.get("attack"),
              "hits": e.get("hits")}
    if e.get("hit"):
        return _("%(shooter)s fires at %(target)s: rolls %(roll)s, needs at most %(attack)s "
                 "— %(hits)s hits.") % values
    return _("%(shooter)s fires at %(target)s: rolls %(roll)s, needs at most %(attack)s "
             "— a miss.") % values


def _damage(e: dict, n: Names) -> str:
    ship = n.ship(e.get("ship"))
    text = _("%(ship)s now has %(hits)s hits; it sinks at %(defence)s.") % {
        "ship": ship, "hits": e.get("hits"), "defence": e.get("defence")}
    diverted = e.get("diverted") or []
    if diverted:
        text += " " + ngettext("One hit falls on troops or crew aboard instead.",
                               "%(n)s hits fall on troops or crew aboard instead.",
                               len(diverted)) % {"n": len(diverted)}
    if e.get("sunk"):
        text += " " + _("%(ship)s sinks with all aboard.") % {"ship": ship}
    return text


def _boarding(e: dict, n: Names) -> str:
    return _("%(boarder)s boards %(target)s: a crew of %(bcp)s command points against "
             "%(dcp)s.") % {"boarder": n.ship(e.get("boarder")), "target": n.ship(e.get("target")),
                            "bcp": e.get("boarders_cp"), "dcp": e.get("defenders_cp")}


def _crew(cards) -> str:
    return ", ".join(f"{c.get('name')} ({c.get('cp')} CP)" for c in cards or []) or "—"


def _duel_start(e: dict, n: Names) -> str:
    return _("Boarders: %(boarders)s. Defenders: %(defenders)s. The bottom character of each "
             "stack fights first.") % {"boarders": _crew(e.get("boarders")),
                                       "defenders": _crew(e.get("defenders"))}


def _duel_attack(e: dict, n: Names) -> str:
    values = {"attacker": e.get("attacker"), "defender": e.get("defender"),
              "red": " ".join(map(str, e.get("red") or [])) or "—",
              "green": " ".join(map(str, e.get("green") or [])) or "—",
              "hits": e.get("hits"), "evades": e.get("evades"), "n": e.get("body_hits"),
              "dealt": e.get("dealt", 1)}
    text = _("%(attacker)s strikes at %(defender)s: red dice %(red)s make %(hits)s hits, green "
             "dice %(green)s evade %(evades)s.") % values
    if e.get("body_hit"):
        # R-BRD-3: as many body hits as hits exceed evades ("dealt"; logs before it: one)
        return text + " " + ngettext("%(dealt)s body hit (%(n)s so far).",
                                     "%(dealt)s body hits (%(n)s so far).",
                                     values["dealt"] or 1) % values
    return text + " " + _("No effect.")


def _overwhelmed(e: dict, n: Names) -> str:
    card = e.get("character") or {}
    return _("%(name)s is overwhelmed.") % {"name": card.get("name")}


def _duel_end(e: dict, n: Names) -> str:
    if e.get("reason") == "no_crew":
        return _("Nobody is left aboard to defend: the ship is taken.")
    if e.get("captured"):
        return _("The defenders are overwhelmed: the ship is captured.")
    if e.get("stalemate"):
        return _("Neither crew lands a blow for a while: the boarders give up.")
    return _("The boarders are thrown back.")


def _boarding_result(e: dict, n: Names) -> str:
    values = {"target": n.ship(e.get("target")), "boarder": n.ship(e.get("boarder"))}
    if e.get("captured"):
        return _("%(target)s is captured by the crew of %(boarder)s.") % values
    return _("%(target)s holds against %(boarder)s.") % values


def _reorganise(e: dict, n: Names) -> str:
    return _("The lines close their gaps from the back; the distance is %(distance)s.") % {
        "distance": _distance(e.get("distance"))}


def _end(e: dict, n: Names) -> str:
    winner = e.get("winner")
    if "rounds" in e:  # D6 space (R-SPC-8)
        text = ngettext("The battle ends after %(n)s round.", "The battle ends after %(n)s "
                        "rounds.", e["rounds"]) % {"n": e["rounds"]}
    else:
        text = {"retreat": _("The battle ends: a side retreated."),
                "round_cap": _("The battle ends: the last battle round is over; both stay."),
                }.get(e.get("reason"), _("The battle ends: one side has no ships left."))
    if winner:
        return text + " " + _("Winner: %(side)s.") % {"side": n.side(winner)}
    return text + " " + _("Nobody wins.")


def _prize(e: dict, n: Names) -> str:
    ship = n.ship(e.get("ship"))
    if e.get("destroyed"):
        return _("The captured %(ship)s is destroyed: nobody is left to take it.") % {
            "ship": ship}
    return _("The captured %(ship)s joins %(side)s.") % {"ship": ship,
                                                        "side": n.side(e.get("holder"))}


def _victory_points(e: dict, n: Names) -> str:
    a, d = _pair(e, "vp")
    return _("Victory points: %(attacker)s %(a)s, %(defender)s %(d)s.") % {
        "attacker": n.side("attacker"), "defender": n.side("defender"), "a": a or 0,
        "d": d or 0}


# --- D6 space (R-SPC) --------------------------------------------------------------------------

def _round(e: dict, n: Names) -> str:
    return _("A new round: every ship rolls its initiative.")


def _initiative(e: dict, n: Names) -> str:
    text = _("%(ship)s rolls %(code)s for initiative: %(total)s, plus speed %(speed)s makes "
             "%(initiative)s.") % {"ship": n.ship(e.get("ship")), "code": e.get("code"),
                                   "total": e.get("total"), "speed": e.get("speed"),
                                   "initiative": e.get("initiative")}
    return text + (" " + _("A fumble!") if e.get("fumble") else "")


def _fumble_damage(e: dict, n: Names) -> str:
    return _("The fumble costs %(ship)s: %(hit)s.") % {"ship": n.ship(e.get("ship")),
                                                      "hit": _system(e.get("hit"))}


def _order(e: dict, n: Names) -> str:
    return _("They act in this order: %(ships)s.") % {
        "ships": ", ".join(n.line(e.get("order")))}


def _move(e: dict, n: Names) -> str:
    text = _("%(ship)s moves %(cm)s cm towards %(target)s; %(distance)s cm apart now.") % {
        "ship": n.ship(e.get("ship")), "cm": e.get("moved_cm"),
        "target": n.ship(e.get("target")), "distance": e.get("distance")}
    if e.get("attacks") is None:
        return text + " " + _("Nobody is in range.")
    return text


def _attack(e: dict, n: Names) -> str:
    values = {"ship": n.ship(e.get("ship")), "target": n.ship(e.get("target")),
              "code": e.get("code"), "total": e.get("total"), "vs": e.get("vs")}
    if e.get("decision") == "no guns":
        return _("%(ship)s has no attack dice left and does not attack.") % values
    text = _("%(ship)s fires at %(target)s with %(code)s: %(total)s against its initiative "
             "%(vs)s.") % values
    return text + " " + {"hit": _("A hit."), "miss": _("A miss."),
                         "fumble": _("A fumble!")}.get(e.get("decision"), "")


def _defence(e: dict, n: Names) -> str:
    return _("%(ship)s defends with %(code)s: %(total)s against %(attack)s (%(band)s).") % {
        "ship": n.ship(e.get("ship")), "code": e.get("code"), "total": e.get("total"),
        "attack": e.get("attack"), "band": _band(e.get("decision"))}


def _hit_table(e: dict, n: Names) -> str:
    hits = e.get("hit") or []
    return _("Damage on %(ship)s: %(what)s.") % {
        "ship": n.ship(e.get("ship")),
        "what": ", ".join(_system(h) for h in (hits if isinstance(hits, list) else [hits]))
        or "—"}


def _destroyed(e: dict, n: Names) -> str:
    return _("%(ship)s is destroyed.") % {"ship": n.ship(e.get("ship"))}


def _repair(e: dict, n: Names) -> str:
    return _("%(ship)s repairs %(n)s damage.") % {"ship": n.ship(e.get("ship")),
                                                  "n": e.get("repaired")}


TELLERS = {
    "battle": _battle, "setup": _setup, "maneuver": _maneuver, "retreat": _retreat,
    "diagonal": _diagonal, "near_choice": _near_choice, "gunfire": _gunfire,
    "damage": _damage, "boarding": _boarding, "duel_start": _duel_start,
    "duel_attack": _duel_attack, "overwhelmed": _overwhelmed, "duel_end": _duel_end,
    "boarding_result": _boarding_result, "reorganise": _reorganise, "end": _end,
    "prize": _prize, "victory_points": _victory_points, "round": _round,
    "initiative": _initiative, "fumble_damage": _fumble_damage, "order": _order,
    "move": _move, "attack": _attack, "defence": _defence, "hit_table": _hit_table,
    "destroyed": _destroyed, "repair": _repair,
}


def _tone(e: dict) -> str:
    kind = e.get("step")
    if e.get("sunk") or kind == "destroyed" or (kind == "hit_table" and e.get("destroyed")):
        return "sunk"
    if e.get("captured") is True or kind == "prize":
        return "capture"
    if kind == "retreat":
        return "retreat"
    if kind in ("end", "victory_points"):
        return "end"
    if e.get("hit") is True or kind == "damage" or e.get("decision") == "hit":
        return "hit"
    return ""


def _unknown(e: dict, n: Names) -> str:
    shown = {k: v for k, v in e.items() if k not in ("rule", "step", "round")}
    return f"{e.get('step')}: {shown}"


def _step(e: dict, n: Names) -> dict:
    teller = TELLERS.get(e.get("step"), _unknown)
    try:
        text = teller(e, n)
    except (KeyError, TypeError, ValueError):  # a log written by an older engine version
        text = _unknown(e, n)
    lines = None
    if e.get("step") in ("setup", "reorganise") and isinstance(e.get("lines"), dict):
        lines = [{"side": n.side(key), "ships": n.line(e["lines"].get(key))}
                 for key in ("attacker", "defender")]
    dice = e.get("dice") if isinstance(e.get("dice"), list) else []
    return {"rule": e.get("rule", ""), "kind": e.get("step", ""), "text": text,
            "dice": dice, "tone": _tone(e), "lines": lines}


def replay(battle, names: Names) -> list[dict]:
    """The battle's rounds in order, each ``{"number", "steps"}``; round 0 holds what comes
    before the first battle round. An event without a round belongs to the one before."""
    rounds: list[dict] = []
    for event in battle.events or []:
        if not isinstance(event, dict):
            continue
        number = event.get("round")
        if not isinstance(number, int):
            number = rounds[-1]["number"] if rounds else 0
        if not rounds or rounds[-1]["number"] != number:
            rounds.append({"number": number, "steps": []})
        rounds[-1]["steps"].append(_step(event, names))
    return rounds
