"""The campaign core (source 003): one import point for the round engine and the API.

The rules live in modules named for what they hold; this module re-exports their public API:
- ``rules.board``: map data, adjacency, distance, territory, home planet (R-MAP, R-MRK-1/4);
- ``rules.economy``: requisition, income, purchases (R-ECO-1);
- ``rules.attacks``: declaration legality, orbital re-check, chains (R-ATK);
- ``rules.bonus`` and ``rules.markers``: army limits, marker effects (R-BON, R-MRK-2/3);
- ``rules.conquest``: thresholds, modifiers, rolls, odds, the conquest phase (R-CON);
- ``rules.ruleset``: the per-campaign settings.
"""

from rules.attacks import (
    NO_ORBIT,
    SOURCES,
    AttackCheck,
    OrbitInfo,
    check_attack,
    needs_battle,
    orbit_points_needed,
    orbital_cancellations,
    tile_chains,
)
from rules.board import (
    AREA_KINDS,
    DEFAULT_MARKER_TYPES,
    FEATURES,
    MANUFACTORUM,
    SHIELD_GENERATOR,
    Board,
    BoardError,
    Marker,
    MarkerType,
    Planet,
    Tile,
    area_borders,
    hex_distance,
)
from rules.bonus import ArmyLimit, BonusItem, army_limits, counted_planet, tile_bonus
from rules.conquest import (
    OUTCOMES,
    WON_OUTCOMES,
    Assessment,
    ChainCapture,
    ChainRollResult,
    ConquestPhaseResult,
    ConquestRoll,
    Modifier,
    Threshold,
    WonAttack,
    assess,
    attack_purpose,
    chain_roll,
    chosen_attacks,
    conquest_modifiers,
    conquest_order,
    conquest_preview,
    conquest_threshold,
    default_chain_roll,
    is_won,
    multi_conquest_k,
    resolve_conquest_phase,
    settle_outcome,
    success_probability,
)
from rules.economy import (
    Purchase,
    affordable_armies,
    buy_armies,
    income,
    round_income,
    starting_requisition,
)
from rules.markers import Protection, marker_bonus, protection
from rules.ruleset import DEFAULT_RULESET, DEFAULTS, Ruleset, RulesetError, validate_ruleset
from rules.violation import RuleViolation

__all__ = [
    "AREA_KINDS", "ArmyLimit", "Assessment", "AttackCheck", "Board", "BoardError", "BonusItem",
    "ChainCapture", "ChainRollResult", "ConquestPhaseResult", "ConquestRoll", "DEFAULTS",
    "DEFAULT_MARKER_TYPES", "DEFAULT_RULESET", "FEATURES", "MANUFACTORUM", "Marker", "MarkerType",
    "Modifier", "NO_ORBIT", "OUTCOMES", "OrbitInfo", "Planet", "Protection", "Purchase",
    "RuleViolation", "Ruleset", "RulesetError", "SHIELD_GENERATOR", "SOURCES", "Threshold", "Tile",
    "WON_OUTCOMES", "WonAttack", "affordable_armies", "area_borders", "army_limits", "assess",
    "attack_purpose", "buy_armies", "chain_roll", "check_attack", "chosen_attacks",
    "conquest_modifiers", "conquest_order", "conquest_preview", "conquest_threshold",
    "counted_planet", "default_chain_roll", "hex_distance", "income", "is_won", "marker_bonus",
    "multi_conquest_k", "needs_battle", "orbit_points_needed", "orbital_cancellations",
    "protection", "resolve_conquest_phase", "round_income", "settle_outcome",
    "starting_requisition", "success_probability", "tile_bonus", "tile_chains", "validate_ruleset",
]
