"""Dark Force naval combat, the default engine (R-NAV-1..13, source 001 "Seekampf"), plus the
sea hazard exchange (R-SEA-2), the retreat choice (R-NAV-12), the combat factor (R-FLT-3) and
the adapter from the API's fleet shape (``naval_side``, for odds previews, R-ODDS-1).

The only import point of the package: code outside it imports ``from rules.naval import X``.
Inside, ``model`` holds the inputs and outputs, ``battle`` the battle (``maneuver``, ``fire``
its steps), ``hazard`` the sea hazard exchange and ``input`` the fleet-shape adapter.
``battle``, ``fire``, ``maneuver`` and ``hazard`` are compiled with mypyc in production (README
"Compiled combat engines"); this module only re-exports and stays interpreted.
"""

from rules.naval.battle import naval_battle_winner, resolve_naval_battle
from rules.naval.hazard import hazard_exchange
from rules.naval.input import fleet_ships, fleet_stance, naval_side
from rules.naval.maneuver import ManeuverResult, choose_retreat, maneuver, move, resolve_stance
from rules.naval.model import (
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
    combat_factor,
)

__all__ = [
    "AFLOAT", "APPROACH", "ATTACKER", "AUTO", "CAPTURED", "DEFENDER", "FAR", "HOLD", "NEAR",
    "RETREATED", "SIDES", "STANCES", "SUNK", "WITHDRAW", "Capture", "HazardOutcome",
    "ManeuverResult", "NavalOutcome", "NavalShip", "NavalSide", "RetreatOption", "ShipResult",
    "choose_retreat", "combat_factor", "fleet_ships", "fleet_stance", "hazard_exchange",
    "maneuver", "move", "naval_battle_winner", "naval_side", "resolve_naval_battle",
    "resolve_stance",
]
