"""D6 space combat, the alternative naval engine (R-SPC-1..8, source 002): datasheets and dice
codes (R-SPC-1, R-DICE-1), the battle, the combat factor (R-FLT-3), and the adapter from the
API's fleet shape (``space_side``, for odds previews, R-ODDS-1).

The only import point of the package: code outside it imports ``from rules.space import X``.
Inside, ``model`` holds the inputs and outputs, ``battle`` the battle, ``ship`` a ship's state
during it and ``input`` the fleet-shape adapter. ``battle`` and ``ship`` are compiled with mypyc
in production (README "Compiled combat engines"); this module only re-exports and stays
interpreted. ``ShipState`` and ``band_name`` are the engine's internals, exported for tests.
"""

from rules.dicecode import (
    DiceCode,
    add_dice,
    add_pips,
    format_code,
    lose_dice,
    parse_code,
)
from rules.space.battle import resolve_space_battle, space_battle_winner
from rules.space.input import datasheet_of, space_side
from rules.space.model import (
    CODE_SYSTEMS,
    Captain,
    Datasheet,
    ShipResult,
    SpaceOutcome,
    SpaceShip,
    SpaceSide,
    combat_factor,
)
from rules.space.ship import ShipState, band_name

__all__ = [
    "CODE_SYSTEMS", "Captain", "Datasheet", "DiceCode", "ShipResult", "ShipState",
    "SpaceOutcome", "SpaceShip", "SpaceSide", "add_dice", "add_pips", "band_name",
    "combat_factor", "datasheet_of", "format_code", "lose_dice", "parse_code",
    "resolve_space_battle", "space_battle_winner", "space_side",
]
