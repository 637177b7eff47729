"""Attack declarations (R-ATK-1..6): legality, orbital re-check, chains on one tile."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from rules.board import Board
from rules.ruleset import Ruleset

SOURCES = ("adjacent", "structure", "orbit")  # R-ATK-2


@dataclass(frozen=True)
class OrbitInfo:
    """The declarer in the orbit area of the target's planet (R-ATK-3): army points embarked on
    its fleets there, whether it has any fleet there, and how many orbital declarations on that
    planet it already made this round (not counting the one being checked)."""

    embarked_points: int = 0
    has_fleet: bool = False
    declarations: int = 0


NO_ORBIT = OrbitInfo()


@dataclass(frozen=True)
class AttackCheck:
    """Outcome of ``check_attack``: legal with its ``source``, or illegal with ``rule`` and a
    human ``message`` (R-ATK-6) in English; ``key`` and ``params`` name the same reason for a
    caller that translates it (battles.messages)."""

    legal: bool
    source: str | None = None
    rule: str | None = None
    message: str = ""
    key: str | None = field(default=None, compare=False)
    params: dict = field(default_factory=dict, compare=False, hash=False)

    def as_dict(self) -> dict:
        return {"legal": self.legal, "source": self.source, "rule": self.rule,
                "message": self.message}


def _illegal(rule: str, message: str, key: str, **params) -> AttackCheck:
    return AttackCheck(False, None, rule, message, key, params)


def orbit_points_needed(ruleset: Ruleset, declarations: int) -> int:
    """R-ATK-3: n x ``orbital_assault_points`` for n orbital declarations on one planet."""
    return declarations * ruleset.orbital_assault_points


def _has_fleet(orbit: OrbitInfo) -> bool:
    return orbit.has_fleet or orbit.embarked_points > 0


def check_attack(board: Board, ruleset: Ruleset, player: int, tile: int, armies_bought: int,
                 declared_tiles: Collection[int] = (), orbit: OrbitInfo | None = None, *,
                 withdrawn: int = 0) -> AttackCheck:
    """Is ``player``'s declaration on ``tile`` legal? (R-ATK-1..3, messages per R-ATK-6)

    ``declared_tiles``: targets of the player's standing declarations this round;
    ``withdrawn``: how many of its declarations it withdrew this round (their armies are spent,
    R-ATK-5); ``orbit``: its fleets in the orbit of the target's planet (R-ATK-3).
    Sources are tried in the order of R-ATK-2: adjacent, structure, orbit."""
    target = board.tile(tile)
    planet = board.planet(target.planet)
    used = len(declared_tiles) + withdrawn
    if used >= armies_bought:
        return _illegal("R-ATK-1", f"no attack army left: {armies_bought} bought this round, "
                                   f"{used} already used", "no_army_left",
                        bought=armies_bought, used=used)
    if target.owner == player:
        return _illegal("R-ATK-1", f"tile {tile} is your own tile", "own_tile", tile=tile)
    if tile in declared_tiles:
        return _illegal("R-ATK-1", f"you already declared an attack on tile {tile} this round",
                        "declared_already", tile=tile)
    if board.adjacent_to_territory(tile, player):
        return AttackCheck(True, "adjacent")
    if board.owns_structure_on(player, target.planet):
        return AttackCheck(True, "structure")
    if board.tile_count(player, target.planet) > 0:
        return _illegal("R-ATK-2", f"tile {tile} is not adjacent to your territory and you own "
                                   f"no spaceport or macropole on {_name(planet)}", "not_adjacent",
                        tile=tile, planet=planet.name or planet.id)
    return _check_orbit(ruleset, planet, orbit or NO_ORBIT)


def orbit_matters(board: Board, player: int, tile: int) -> bool:
    """R-ATK-2 (c): only a declarer owning no tile on the target's planet can attack it from
    orbit, so only then does ``check_attack`` read its ``orbit`` (callers may skip loading
    it otherwise)."""
    return board.tile_count(player, board.tile(tile).planet) == 0


def _name(planet) -> str:
    return f"planet {planet.name or planet.id}"


def _check_orbit(ruleset: Ruleset, planet, orbit: OrbitInfo) -> AttackCheck:
    """R-ATK-3 at declaration. [reading] An orbital attack needs at least one fleet of the
    declarer in that orbit, even when ``orbital_assault_points`` is 0."""
    n = orbit.declarations + 1
    need = orbit_points_needed(ruleset, n)
    if _has_fleet(orbit) and orbit.embarked_points >= need:
        return AttackCheck(True, "orbit")
    if _has_fleet(orbit):
        return _illegal("R-ATK-3", f"{n} orbital attack(s) on {_name(planet)} need {need} "
                                   f"embarked army points in its orbit; your fleets there "
                                   f"carry {orbit.embarked_points}", "orbit_points", count=n,
                        planet=planet.name or planet.id, need=need, carried=orbit.embarked_points)
    return _illegal("R-ATK-2", f"you own no tile on {_name(planet)} and have no fleet in its "
                               f"orbit for an orbital attack", "no_orbit",
                    planet=planet.name or planet.id)


def orbital_cancellations(declarations: Sequence[int], embarked_points: int, ruleset: Ruleset,
                          *, has_fleet: bool | None = None) -> tuple[int, ...]:
    """R-ATK-3 re-check at the end of ``fleets``: the player's orbital declarations on one planet
    (ids in declaration order) that the embarked points no longer cover, latest first. Their
    armies are lost. ``has_fleet`` defaults to "any points embarked"."""
    if has_fleet is None:
        has_fleet = embarked_points > 0
    per_attack = ruleset.orbital_assault_points
    if not has_fleet:
        covered = 0
    elif per_attack == 0:
        covered = len(declarations)
    else:
        covered = embarked_points // per_attack
    return tuple(reversed(tuple(declarations)[covered:]))


def needs_battle(board: Board, ruleset: Ruleset, tile: int) -> bool:
    """R-ATK-4 for a tile of the board (``holder_needs_battle`` with its owner)."""
    return holder_needs_battle(board.tile(tile).owner, ruleset)


def holder_needs_battle(holder: int | None, ruleset: Ruleset) -> bool:
    """R-ATK-4: a held tile always needs a battle; a neutral one (no holder) only with
    ``neutral_needs_battle`` (else the declaration counts as a won attack)."""
    return holder is not None or ruleset.neutral_needs_battle


def tile_chains(declarations: Iterable[tuple[int, int]]) -> dict[int, tuple[int, ...]]:
    """R-ATK-5: (declaration id, tile) pairs -> per tile the declaration ids in declaration
    order (ascending id). A tile with two or more is a chain; its last id is the last link."""
    chains: dict[int, list[int]] = defaultdict(list)
    for attack, tile in declarations:
        chains[tile].append(attack)
    return {tile: tuple(sorted(ids)) for tile, ids in chains.items()}
