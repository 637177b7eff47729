"""The sea hazard exchange (R-SEA-2): a hazard fires once at an entering fleet's flagship by
R-NAV-6 and the ship fires back."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import Dice
from rules.naval.fire import ShipState, hits_of, take_volleys
from rules.naval.model import HazardOutcome, NavalShip


def hazard_exchange(dice: Dice, hazard: NavalShip, flagship: NavalShip, *,
                    record_events: bool = True) -> HazardOutcome:
    """R-SEA-2: the hazard fires once at the entering fleet's flagship by R-NAV-6 and the ship
    fires back; hits land together. Both start from the hits they carry (``NavalShip.hits``):
    the hazard's add up over all its triggers for the whole campaign, the flagship's are those
    it took from hazards in this area in this ``fleets`` phase (the caller keeps them for the
    battle there, R-NAV-7). The hazard is removed when its hits reach its defence, the ship
    sinks when its own is reached (R-NAV-7, with the hit allocation policy). The outcome's
    ``hazard_hits`` and ``ship_hits`` are the totals after the exchange.

    [reading] The exchange has no distance, so neither shot takes the far-distance -1.
    Dice: one draw ``sea:hazard=<id>:fire``, the hazard's face first."""
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
             "ship": flagship.id, "hazard_hits_before": hazard.hits,
             "ship_hits_before": flagship.hits, "hazard_hits": monster.hits,
             "ship_hits": ship.hits,
             "diverted": diverted, "hazard_removed": removed, "ship_sunk": sunk}]
    after = None if sunk else replace(flagship, crew=ship.crew, cargo=ship.cargo,
                                      hits=ship.hits)
    return HazardOutcome(monster.hits, ship.hits, removed, sunk, after, ship.cargo_destroyed,
                         ship.crew_destroyed, events)
