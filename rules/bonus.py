"""Army point limits of one battle (R-BON-1..3, R-MRK-2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.board import Board
from rules.markers import marker_bonus
from rules.ruleset import Ruleset


@dataclass(frozen=True)
class BonusItem:
    """One line of a limit's breakdown; ``name`` is ``base``, ``tiles`` or ``markers``."""

    rule: str
    name: str
    value: int


@dataclass(frozen=True)
class ArmyLimit:
    """A participant's army limit with the reasons (R-BON-1).

    ``planet`` is the planet whose tiles and markers were counted (R-BON-3: the contested one,
    or the home planet of a participant without tiles there; None without any tile), ``tiles``
    its tile count there, ``compared`` the (player, tiles) pairs the tile bonus compared with."""

    player: int
    planet: int | None
    tiles: int
    base: int
    tile_bonus: int
    marker_bonus: int
    total: int
    compared: tuple[tuple[int, int], ...]

    @property
    def items(self) -> tuple[BonusItem, ...]:
        return (BonusItem("R-BON-1", "base", self.base),
                BonusItem("R-BON-2", "tiles", self.tile_bonus),
                BonusItem("R-MRK-2", "markers", self.marker_bonus))

    def as_dict(self) -> dict:
        return {"player": self.player, "planet": self.planet, "tiles": self.tiles,
                "total": self.total,
                "items": [{"rule": i.rule, "name": i.name, "value": i.value} for i in self.items]}


def counted_planet(board: Board, player: int, planet: int) -> int | None:
    """R-BON-3: the contested planet if the player owns a tile there, else its home planet."""
    if board.tile_count(player, planet) > 0:
        return planet
    return board.home_planet(player)


def tile_bonus(ruleset: Ruleset, own: int, others: Iterable[int]) -> int:
    """R-BON-2: ``bonus_per_tile`` x sum of max(0, tiles(q) - tiles(p)) over the others."""
    return ruleset.bonus_per_tile * sum(max(0, theirs - own) for theirs in others)


def army_limits(board: Board, ruleset: Ruleset, *, tile: int, attacker: int,
                defender: int | None, players: Iterable[int] | None = None
                ) -> dict[int, ArmyLimit]:
    """Army limits of both participants of a battle on ``tile`` (R-BON-1..3, R-MRK-2).

    ``defender`` None is a neutral garrison: only the attacker gets a limit. ``players`` are all
    players of the campaign (default: every tile owner on the board); they matter only with
    ``bonus_scope`` = ``campaign``, where a non-participant counts its tiles on the contested
    planet. Call it on the board as it stands when the limits are computed (R-BON-3)."""
    if attacker == defender:
        raise ValueError("attacker and defender must differ")
    planet = board.tile(tile).planet
    participants = [attacker] if defender is None else [attacker, defender]
    counted = {p: counted_planet(board, p, planet) for p in participants}
    tiles = {p: 0 if counted[p] is None else board.tile_count(p, counted[p])
             for p in participants}
    if ruleset.bonus_scope == "campaign":
        pool = set(board.players() if players is None else players) - set(participants)
        tiles.update({q: board.tile_count(q, planet) for q in pool})
    limits = {}
    for p in participants:
        compared = tuple((q, n) for q, n in sorted(tiles.items()) if q != p)
        tiles_pts = tile_bonus(ruleset, tiles[p], (n for _, n in compared))
        marker_pts = marker_bonus(board, p, counted[p])
        total = ruleset.base_army_points + tiles_pts + marker_pts
        limits[p] = ArmyLimit(p, counted[p], tiles[p], ruleset.base_army_points, tiles_pts,
                              marker_pts, total, compared)
    return limits
