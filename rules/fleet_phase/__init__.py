"""The ``fleets`` phase (R-FLT-4..8, R-INT, R-SEA, R-NAV-12, R-SPC, R-VP-1) as pure functions:
``resolve_fleet_phase`` resolves the whole phase; the orders a player may give in ``declare``
are checked by ``path_error``, ``standing_orders_error``, ``embark_error`` and
``disembark_error``.

The only import point of the package: code outside it imports ``from rules.fleet_phase import
X``. Inside, ``model`` holds the inputs and outputs (frozen dataclasses the Django side builds
and stores), ``resolve`` the phase itself, ``decisions`` its small pure choices and ``orders``
the checks of the orders.
"""

from rules.fleet_phase.decisions import (
    ForceStanding,
    cargo_after,
    hazard_hostile,
    island_conqueror,
    move_goes_on,
    next_battle,
    own_area,
    player_order,
    prize_fleet,
    retreat_area,
)
from rules.fleet_phase.model import (
    D6_SPACE,
    DARK_FORCE,
    DEFAULT_DATASHEET,
    ENGINES,
    PIRATE,
    BattleRecord,
    Detachment,
    FleetAfter,
    Force,
    HazardAfter,
    Marker,
    PhaseArea,
    PhaseFleet,
    PhaseHazard,
    PhaseInput,
    PhaseOrder,
    PhaseResult,
    PhaseSettings,
    PhaseShip,
    ShipAfter,
    datasheet_from_json,
)
from rules.fleet_phase.orders import (
    DEFAULT_STANDING_ORDERS,
    EMBARK_AREA_KINDS,
    OrderError,
    disembark_error,
    embark_error,
    path_error,
    standing_orders,
    standing_orders_error,
    transport_area_error,
)
from rules.fleet_phase.resolve import resolve_fleet_phase

__all__ = [
    "D6_SPACE", "DARK_FORCE", "DEFAULT_DATASHEET", "DEFAULT_STANDING_ORDERS",
    "EMBARK_AREA_KINDS", "ENGINES", "PIRATE", "BattleRecord", "Detachment", "FleetAfter",
    "Force", "ForceStanding", "HazardAfter", "Marker", "OrderError", "PhaseArea", "PhaseFleet",
    "PhaseHazard", "PhaseInput", "PhaseOrder", "PhaseResult", "PhaseSettings", "PhaseShip",
    "ShipAfter", "cargo_after", "datasheet_from_json", "disembark_error", "embark_error",
    "hazard_hostile", "island_conqueror", "move_goes_on", "next_battle", "own_area",
    "path_error", "player_order", "prize_fleet", "resolve_fleet_phase", "retreat_area",
    "standing_orders", "standing_orders_error", "transport_area_error",
]
