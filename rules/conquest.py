"""Conquest rolls (R-CON-1..7, source 003 "Eroberungstabelle").

Two entry points for the round engine:
- ``chain_roll``: the immediate roll after a chain link that is not the last (R-CON-6), on the
  board as it stands at that moment;
- ``resolve_conquest_phase``: every roll of the ``conquest`` phase at once, on the board as it
  stood when the phase began (R-CON-1), in the order of R-CON-6.
``conquest_preview`` gives the exact odds for a choice before a player commits, and
``chain_roll_preview`` those of an immediate chain roll before its attacker decides (R-CON-7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from rules.attacks import SOURCES
from rules.board import Board
from rules.dice import Dice
from rules.markers import protection
from rules.results import MORAL_VICTORY, OUTCOMES, WON_OUTCOMES  # noqa: F401 (R-BAT-3)
from rules.ruleset import Ruleset
from rules.violation import RuleViolation

ADJACENT_THRESHOLD = 3
DISTANT_THRESHOLD = 7
TERRAIN = frozenset({"mountain", "spaceport", "macropole"})


@dataclass(frozen=True)
class Modifier:
    """One conquest modifier: ``name`` is the API name (``moral_victory``, ``defence``,
    ``terrain``, ``shield``, ``multi_conquest``), ``rule`` the rule that gives it."""

    rule: str
    name: str
    value: int

    def as_dict(self) -> dict:
        return {"rule": self.rule, "name": self.name, "value": self.value}


@dataclass(frozen=True)
class Threshold:
    """The number 2d6 + modifiers must reach (R-CON-1/2), with the rule and why."""

    value: int
    rule: str
    reason: str


@dataclass(frozen=True)
class WonAttack:
    """A won attack that may roll (R-BAT-3, R-ATK-4): declaration ``id``, the roller, target,
    the declaration's ``source`` (R-ATK-2), battle ``outcome`` (``victory`` or
    ``moral_victory``; a neutral tile without battle counts as ``victory``) and whether it is the
    last link of a chain of two or more attacks on that tile (R-CON-6)."""

    id: int
    player: int
    tile: int
    source: str
    outcome: str = "victory"
    last_link: bool = False

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"attack {self.id}: unknown source {self.source!r}")
        if self.outcome not in WON_OUTCOMES:
            raise ValueError(f"attack {self.id}: {self.outcome!r} is not a won attack")


@dataclass(frozen=True)
class ChainCapture:
    """A tile ``player`` took with an immediate chain roll this round (R-CON-6). While it keeps
    the tile it counts toward k for its other rolls on that planet."""

    tile: int
    player: int
    attack: int | None = None


@dataclass(frozen=True)
class Assessment:
    """Threshold, modifiers and exact odds of one conquest roll before it is made (R-CON-7).
    ``k`` is the multi-conquest count used (None for an immediate chain roll)."""

    attack: int
    player: int
    tile: int
    threshold: Threshold
    modifiers: tuple[Modifier, ...]
    k: int | None

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def chance(self) -> Fraction:
        return success_probability(self.threshold.value, self.modifier_total)

    def as_dict(self) -> dict:
        return {"attack": self.attack, "tile": self.tile, "threshold": self.threshold.value,
                "threshold_rule": self.threshold.rule,
                "modifiers": [m.as_dict() for m in self.modifiers], "k": self.k,
                "chance": float(self.chance)}


@dataclass(frozen=True)
class ConquestRoll:
    """A conquest roll made: 2d6 ``dice``, ``total`` = dice + modifiers, success if
    ``total >= threshold`` (R-CON-1). ``purpose`` is the draw's purpose string (R-DICE-3)."""

    attack: int
    player: int
    tile: int
    purpose: str
    dice: tuple[int, int]
    modifiers: tuple[Modifier, ...]
    total: int
    threshold: int
    threshold_rule: str
    success: bool
    k: int | None
    last_link: bool = False

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def chance(self) -> Fraction:
        """The exact odds this roll had when it was made (R-CON-7)."""
        return success_probability(self.threshold, self.modifier_total)

    def as_dict(self) -> dict:
        return {"attack": self.attack, "tile": self.tile, "dice": list(self.dice),
                "modifiers": [m.as_dict() for m in self.modifiers], "total": self.total,
                "threshold": self.threshold, "threshold_rule": self.threshold_rule,
                "k": self.k, "chance": float(self.chance), "success": self.success}


@dataclass(frozen=True)
class ChainRollResult:
    """An immediate chain roll (R-CON-6): the roll, the board after it, and the capture to pass
    to ``resolve_conquest_phase`` if it succeeded."""

    roll: ConquestRoll
    board: Board
    capture: ChainCapture | None


@dataclass(frozen=True)
class ConquestPhaseResult:
    """All rolls of a conquest phase in the order made, the waived attack ids (R-CON-5), the
    tiles that changed hands (tile -> new owner) and the board after the phase."""

    rolls: tuple[ConquestRoll, ...]
    waived: tuple[int, ...]
    transfers: Mapping[int, int]
    board: Board = field(repr=False)

    def owners(self) -> dict[int, int | None]:
        return self.board.owners()


def settle_outcome(ruleset: Ruleset, reported: str | None) -> str:
    """The outcome that counts for a battle: the reported one, or for an unplayed battle
    (None or ``"unplayed"``) ``unplayed_outcome`` (R-RND-3): ``defender_holds`` counts as the
    attacker's ``defeat``, ``attacker_wins`` as its ``victory``."""
    if reported is None or reported == "unplayed":
        return "victory" if ruleset.unplayed_outcome == "attacker_wins" else "defeat"
    if reported not in OUTCOMES:
        raise ValueError(f"unknown battle outcome {reported!r}")
    return reported


def is_won(outcome: str) -> bool:
    """R-BAT-3: ``victory`` and ``moral_victory`` are won attacks."""
    return outcome in WON_OUTCOMES


def default_chain_roll(ruleset: Ruleset) -> bool:
    """R-CON-6 / R-RND-3: a chain link winner who does not decide in time rolls iff
    ``conquest_default`` is ``roll_all``."""
    return ruleset.conquest_default == "roll_all"


# --- R-CON-1/2/3/7: one roll ---------------------------------------------------------------


def conquest_threshold(board: Board, tile: int, player: int, source: str) -> Threshold:
    """R-CON-1: 3 if the tile is adjacent to the roller's territory on ``board``, else 7;
    R-CON-2: 3 for a spaceport/macropole attacked from a structure or from orbit.

    "Territory" is the roller's territory on the tile's planet (R-MAP-4): links between tiles of
    different planets do not make them adjacent here either (R-CON-1, as in R-ATK-2 a)."""
    target = board.tile(tile)
    if board.adjacent_to_territory(tile, player):
        return Threshold(ADJACENT_THRESHOLD, "R-CON-1", "adjacent to the roller's territory")
    if target.is_structure and source in ("structure", "orbit"):
        return Threshold(ADJACENT_THRESHOLD, "R-CON-2",
                         f"spaceport/macropole attacked from {source}: counts as adjacent")
    if source == "orbit":
        return Threshold(DISTANT_THRESHOLD, "R-CON-2",
                         "orbital attack rolls as from a spaceport/macropole: not adjacent")
    return Threshold(DISTANT_THRESHOLD, "R-CON-1", "not adjacent to the roller's territory")


def conquest_modifiers(board: Board, tile: int, outcome: str, k: int | None = None
                       ) -> tuple[Modifier, ...]:
    """R-CON-3: every modifier that applies, in the order of the rule (zero ones left out).
    Marker protection (R-MRK-3) is read from ``board``; ``k`` None means no multi-conquest
    modifier (an immediate chain roll, R-CON-6)."""
    target = board.tile(tile)
    mods = []
    if outcome == MORAL_VICTORY:
        mods.append(Modifier("R-CON-3", MORAL_VICTORY, -2))
    if "defence" in target.features:
        mods.append(Modifier("R-CON-3", "defence", -1))
    if target.features & TERRAIN:
        mods.append(Modifier("R-CON-3", "terrain", -2))  # once, however many apply
    shield = protection(board, tile)
    if shield is not None:
        mods.append(Modifier("R-MRK-3", "shield", shield.modifier))
    if k is not None and k > 1:
        mods.append(Modifier("R-CON-4", "multi_conquest", -(k - 1)))
    return tuple(mods)


def success_probability(threshold: int, modifier_total: int) -> Fraction:
    """R-CON-7: exact P(2d6 + modifiers >= threshold)."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + modifier_total >= threshold)
    return Fraction(hits, 36)


def assess(board: Board, attack: WonAttack, k: int | None) -> Assessment:
    """Threshold and modifiers of ``attack``'s roll on ``board`` with multi-conquest count k."""
    return Assessment(attack.id, attack.player, attack.tile,
                      conquest_threshold(board, attack.tile, attack.player, attack.source),
                      conquest_modifiers(board, attack.tile, attack.outcome, k), k)


def roll(dice: Dice, purpose: str, assessment: Assessment, last_link: bool = False
         ) -> ConquestRoll:
    """Make the roll: one draw of two d6 for ``purpose`` (R-CON-1, R-DICE-2)."""
    faces = dice.roll(2, 6, purpose)
    total = sum(faces) + assessment.modifier_total
    threshold = assessment.threshold
    return ConquestRoll(assessment.attack, assessment.player, assessment.tile, purpose,
                        (faces[0], faces[1]), assessment.modifiers, total, threshold.value,
                        threshold.rule, total >= threshold.value, assessment.k, last_link)


def attack_purpose(attack: WonAttack) -> str:
    """Default draw purpose of a conquest roll (R-DICE-3)."""
    return f"conquest:attack={attack.id}"


# --- R-CON-6: immediate chain roll -----------------------------------------------------------


def chain_roll_preview(board: Board, attack: WonAttack) -> Assessment:
    """R-CON-7 for an immediate chain roll (R-CON-6): threshold, every modifier and the exact
    odds on the board as it stands now, no multi-conquest modifier (k None). ``chain_roll``
    on the same board makes exactly this roll."""
    if attack.last_link:
        raise ValueError("the last link of a chain rolls in the conquest phase (R-CON-6)")
    return assess(board, attack, None)


def chain_roll(board: Board, attack: WonAttack, dice: Dice, purpose: str | None = None
               ) -> ChainRollResult:
    """R-CON-6: the immediate roll of a winning chain link that is not the last. It uses the
    board at this moment (R-CON-1) and has no multi-conquest modifier; a success moves the tile
    with its markers to the roller (R-MRK-4)."""
    made = roll(dice, purpose or attack_purpose(attack), chain_roll_preview(board, attack))
    if not made.success:
        return ChainRollResult(made, board, None)
    after = board.with_owners({attack.tile: attack.player})
    return ChainRollResult(made, after, ChainCapture(attack.tile, attack.player, attack.id))


# --- R-CON-4..6: the conquest phase ------------------------------------------------------------


def chosen_attacks(ruleset: Ruleset, won: Sequence[WonAttack],
                   choices: Mapping[int, Collection[int] | None]) -> frozenset[int]:
    """R-CON-4/5: the attack ids that roll. A player missing from ``choices`` or with None gets
    ``conquest_default`` (R-RND-3); a chosen id that is not its own won attack is refused."""
    by_player: dict[int, set[int]] = {}
    for a in won:
        by_player.setdefault(a.player, set()).add(a.id)
    rolled: set[int] = set()
    for player, ids in by_player.items():
        choice = choices.get(player)
        if choice is None:
            choice = ids if ruleset.conquest_default == "roll_all" else ()
        stray = set(choice) - ids
        if stray:
            raise RuleViolation("R-CON-4", f"player {player} chose attacks {sorted(stray)} "
                                           f"that are not its won attacks this round",
                                key="not_won_attacks",
                                params={"attacks": ", ".join(map(str, sorted(stray)))})
        rolled |= set(choice)
    unknown = set(choices) - set(by_player)
    for player in unknown:
        if choices[player]:
            raise RuleViolation("R-CON-4", f"player {player} has no won attack to roll",
                                key="no_won_attack")
    return frozenset(rolled)


def conquest_order(attacks: Iterable[WonAttack]) -> tuple[WonAttack, ...]:
    """R-CON-6: last chain links first in declaration order, then all others by ascending
    declaration id (R-DICE-2)."""
    return tuple(sorted(attacks, key=lambda a: (not a.last_link, a.id)))


def _kept_captures(board: Board, captures: Iterable[ChainCapture], player: int, planet: int,
                   transfers: Mapping[int, int]) -> int:
    """R-CON-6: chain captures of ``player`` on ``planet`` it still holds."""
    def holder(tile: int) -> int | None:
        return transfers.get(tile, board.tile(tile).owner)

    return sum(1 for c in captures if c.player == player
               and board.tile(c.tile).planet == planet and holder(c.tile) == player)


def multi_conquest_k(board: Board, player: int, planet: int, rolls_on_planet: int,
                     captures: Iterable[ChainCapture] = (),
                     transfers: Mapping[int, int] | None = None) -> int:
    """R-CON-3/4/6: k = the player's conquest-phase rolls on the planet (from the sealed
    choices) + its chain captures there that it still holds when this roll is made.

    R-CON-6 judges the capture at each roll (``transfers``: the tiles that changed hands by the
    rolls made so far in the phase): a last-link roll made before another chain's last link on
    that planet counts the capture as held; a roll made after the capture was taken back does
    not count it, so the result never depends on rolls not yet made."""
    return rolls_on_planet + _kept_captures(board, captures, player, planet, transfers or {})


def _check_phase_input(board: Board, won: Sequence[WonAttack]) -> None:
    ids, tiles = set(), set()
    for a in won:
        if a.id in ids:
            raise ValueError(f"attack {a.id} is listed twice")
        if a.tile in tiles:
            raise ValueError(f"tile {a.tile} has two conquest-phase attacks; earlier chain "
                             f"links roll at once (R-CON-6)")
        if board.tile(a.tile).owner == a.player:
            raise ValueError(f"attack {a.id}: player {a.player} already holds tile {a.tile}")
        ids.add(a.id)
        tiles.add(a.tile)


def resolve_conquest_phase(board: Board, ruleset: Ruleset, won: Sequence[WonAttack],
                           choices: Mapping[int, Collection[int] | None], dice: Dice, *,
                           captures: Iterable[ChainCapture] = (),
                           purpose: Callable[[WonAttack], str] = attack_purpose
                           ) -> ConquestPhaseResult:
    """Make every roll of the ``conquest`` phase (R-CON-1..6).

    ``board``: the map when the phase began (after this round's chain rolls); thresholds and
    marker protection are read from it for every roll (R-CON-1). ``won``: the won attacks that
    roll in this phase (not the earlier chain links); ``choices``: player -> attack ids to roll
    (None or missing: ``conquest_default``); ``captures``: this round's chain captures
    (``ChainRollResult.capture``). Rolls: last chain links first, then by declaration id."""
    _check_phase_input(board, won)
    captures = tuple(captures)
    rolled = chosen_attacks(ruleset, won, choices)
    planet_of = {a.id: board.tile(a.tile).planet for a in won}
    planned = Counter((a.player, planet_of[a.id]) for a in won if a.id in rolled)
    transfers: dict[int, int] = {}
    rolls = []
    for a in conquest_order(a for a in won if a.id in rolled):
        planet = planet_of[a.id]
        k = multi_conquest_k(board, a.player, planet, planned[(a.player, planet)], captures,
                             transfers)
        made = roll(dice, purpose(a), assess(board, a, k), a.last_link)
        rolls.append(made)
        if made.success:
            transfers[a.tile] = a.player
    waived = tuple(sorted(a.id for a in won if a.id not in rolled))
    return ConquestPhaseResult(tuple(rolls), waived, dict(transfers),
                               board.with_owners(transfers))


def conquest_preview(board: Board, won: Sequence[WonAttack], choice: Collection[int] | None,
                     captures: Iterable[ChainCapture] = ()) -> tuple[Assessment, ...]:
    """R-CON-7: threshold, modifiers and exact chance of each of one player's won attacks for
    ``choice`` (attack ids to roll; None = all). An attack not in the choice is assessed as if
    it were added to it. Chain captures the player holds now count as kept: another player's
    last-link roll on such a tile, made before one of these rolls (R-CON-6), could still take
    it back; that depends on choices sealed from this player and dice not yet rolled, so the
    stored roll (k judged when it is made) may differ from this preview."""
    captures = tuple(captures)
    chosen = {a.id for a in won} if choice is None else set(choice)
    planned = Counter((a.player, board.tile(a.tile).planet) for a in won if a.id in chosen)
    result = []
    for a in sorted(won, key=lambda a: a.id):
        planet = board.tile(a.tile).planet
        n = planned[(a.player, planet)] + (0 if a.id in chosen else 1)
        result.append(assess(board, a, multi_conquest_k(board, a.player, planet, n, captures)))
    return tuple(result)
