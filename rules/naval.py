"""Dark Force naval combat, the default engine (R-NAV-1..13, source 001 "Seekampf"), plus the
sea hazard exchange (R-SEA-2), the retreat choice (R-NAV-12) and the combat factor (R-FLT-3).

The battle itself lives in ``naval_battle``; inputs and outputs in ``naval_model``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from rules.dice import Dice
from rules.naval_battle import Battle
from rules.naval_fire import ShipState, hits_of, take_volleys
from rules.naval_maneuver import ManeuverResult, maneuver, move, resolve_stance
from rules.naval_model import (
    AFLOAT,
    APPROACH,
    ATTACKER,
    AUTO,
    CAPTURED,
    DEFENDER,
    FAR,
    HOLD,
    NEAR,
    RETREATED,
    SIDES,
    STANCES,
    SUNK,
    WITHDRAW,
    Capture,
    HazardOutcome,
    NavalOutcome,
    NavalShip,
    NavalSide,
    RetreatOption,
    ShipResult,
)

__all__ = [
    "AFLOAT", "APPROACH", "ATTACKER", "AUTO", "CAPTURED", "DEFENDER", "FAR", "HOLD", "NEAR",
    "RETREATED", "SIDES", "STANCES", "SUNK", "WITHDRAW", "Capture", "HazardOutcome",
    "ManeuverResult", "NavalOutcome", "NavalShip", "NavalSide", "RetreatOption", "ShipResult",
    "choose_retreat", "combat_factor", "hazard_exchange", "maneuver", "move",
    "naval_battle_winner", "resolve_naval_battle", "resolve_stance",
]


def combat_factor(ships: Iterable[NavalShip]) -> int:
    """R-FLT-3: a fleet's CF is the sum of its ships' attack values."""
    return sum(ship.attack for ship in ships)


def resolve_naval_battle(dice: Dice, attacker: NavalSide, defender: NavalSide, *,
                         max_rounds: int = 12, advantage: str | None = None,
                         record_events: bool = True) -> NavalOutcome:
    """Fight a naval battle (R-NAV-1..11) and return its outcome with the event log (R-NAV-13).

    ``advantage``: the side that won the interception advantage (R-NAV-9). With
    ``record_events=False`` (odds previews) no event dicts are built; the dice are the same."""
    _check_battle(attacker, defender, max_rounds, advantage)
    battle = Battle(dice, attacker, defender, advantage, record_events)
    return battle.outcome(battle.run(max_rounds))


def naval_battle_winner(dice: Dice, attacker: NavalSide, defender: NavalSide, *,
                        max_rounds: int = 12, advantage: str | None = None) -> str | None:
    """``resolve_naval_battle(..., record_events=False).winner``: the same battle and dice,
    without the per-ship results an odds preview (R-ODDS-1) does not read."""
    _check_battle(attacker, defender, max_rounds, advantage)
    battle = Battle(dice, attacker, defender, advantage, False)
    return battle.winner(battle.run(max_rounds))


def _check_battle(attacker: NavalSide, defender: NavalSide, max_rounds: int,
                  advantage: str | None) -> None:
    if attacker.key != ATTACKER or defender.key != DEFENDER:
        raise ValueError("attacker and defender sides need the keys 'attacker' and 'defender'")
    if advantage not in (None, ATTACKER, DEFENDER):
        raise ValueError(f"advantage must be 'attacker', 'defender' or None, not {advantage!r}")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    ids = [ship.id for ship in attacker.ships + defender.ships]
    if len(set(ids)) != len(ids):
        raise ValueError("ship ids must be unique within a battle")


def choose_retreat(neighbours: Sequence[RetreatOption]) -> int | None:
    """R-NAV-12: an own, uncontested adjacent area first, else any uncontested one; among
    several the lowest area id; None if there is none (the retreat fails). The caller passes
    the result as ``NavalSide.retreat_to`` and, after a retreat into an area that is not the
    player's own, triggers that area's sea hazards (``hazard_exchange``, R-SEA-2)."""
    own = [n.area_id for n in neighbours if n.own and not n.contested]
    if own:
        return min(own)
    free = [n.area_id for n in neighbours if not n.contested]
    return min(free) if free else None


def hazard_exchange(dice: Dice, hazard: NavalShip, flagship: NavalShip, *,
                    record_events: bool = True) -> HazardOutcome:
    """R-SEA-2: the hazard fires once at the entering fleet's flagship by R-NAV-6 and the ship
    fires back; hits land together. The hazard is removed when its defence is reached, the ship
    sinks when its own is (R-NAV-7, with the hit allocation policy).

    [reading] The exchange has no distance, so neither shot takes the far-distance -1, and
    its hits are cleared afterwards like a battle's (R-NAV-7): they do not carry into a battle
    that follows. Dice: one draw ``sea:hazard=<id>:fire``, the hazard's face first."""
    monster, ship = ShipState(hazard, "hazard"), ShipState(flagship, "fleet")
    # both fire at once: one draw, the hazard's face first
    roll_hazard, roll_ship = dice.roll(2, 6, f"sea:hazard={hazard.id}:fire")
    to_ship = hits_of(roll_hazard, hazard.attack, False, 0)
    to_hazard = hits_of(roll_ship, flagship.attack, False, 0)
    diverted, sunk = take_volleys(ship, [to_ship])
    _, removed = take_volleys(monster, [to_hazard])
    events: list[dict] = []
    if record_events:
        events = [
            {"rule": "R-SEA-2", "step": "hazard_fire", "shooter": "hazard", "target": flagship.id,
             "dice": [roll_hazard], "attack": hazard.attack, "hit": to_ship > 0,
             "hits": to_ship},
            {"rule": "R-SEA-2", "step": "hazard_fire", "shooter": "ship", "target": hazard.id,
             "dice": [roll_ship], "attack": flagship.attack, "hit": to_hazard > 0,
             "hits": to_hazard},
            {"rule": "R-SEA-2", "step": "hazard_result", "hazard": hazard.id,
             "ship": flagship.id, "hazard_hits": monster.hits, "ship_hits": ship.hits,
             "diverted": diverted, "hazard_removed": removed, "ship_sunk": sunk}]
    after = None if sunk else replace(flagship, crew=ship.crew, cargo=ship.cargo)
    return HazardOutcome(monster.hits, ship.hits, removed, sunk, after, ship.cargo_destroyed,
                         ship.crew_destroyed, events)
