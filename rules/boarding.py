"""Boarding duel (R-BRD-1..5) and the victory points of boarding (R-VP-1), source 000.

A crew is a stack of characters listed bottom first: ``crew[0]`` fights first (R-BRD-1).

[reading] R-BRD-1: a crew card is not marked as pilot or combat card. On a single-seat ship
(``seats`` 1, R-VP-1) with more than one card, the bottom card (``crew[0]``) is taken as the
combat card and the cards above it (the pilot card) as cards that do not fight: the stack is
the boarding stack and its bottom card fights (R-BRD-1; source 000 section 3 lays the pilot card
first and the combat cards below it, and "die zuunterst liegt" fights). With ``seats`` unknown a
crew of several cards is multi-seat (R-VP-1), and every card fights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from rules.dice import Dice, green_dice, red_dice

BODY_HITS_TO_OVERWHELM: Final = 2  # R-BRD-3
STALEMATE_EXCHANGES: Final = 20  # R-BRD-4 [decision]
BOARDERS: Final = "boarders"
DEFENDERS: Final = "defenders"
RED_SUCCESS_MAX: Final = 4  # R-BRD-2: red faces 1-3 hit, 4 crit
GREEN_EVADE_MAX: Final = 3  # R-BRD-2: green faces 1-3 evade
_PURPOSES: Final = ((f"{BOARDERS}:red", f"{BOARDERS}:green"),
                    (f"{DEFENDERS}:red", f"{DEFENDERS}:green"))
_NO_PURPOSES: Final = ("", "")  # dice that ignore purposes
_STRIKE_ORDER: Final = ((0, 1), (1, 0))  # by "the defenders have more cp" (R-BRD-2; ties: boarders)


@dataclass(frozen=True)
class Character:
    """A character card: name and command points (cp)."""

    name: str
    cp: int

    def __post_init__(self) -> None:
        if self.cp < 0:
            raise ValueError(f"{self.name}: command points can not be negative")

    @property
    def dice(self) -> int:
        """R-BRD-1: attack dice and defence dice, floor(cp / 6) each."""
        return self.cp // 6


class DuelResult(NamedTuple):
    """Outcome of one boarding (R-BRD-4). ``*_lost`` are the overwhelmed characters in the
    order they fell; on a capture the boarded crew's cards that did not fight (a single-seat
    ship's pilot card, R-BRD-1) follow them: they are taken with the ship (R-VP-1 scores it
    once). ``*_left`` the stacks that remain, cards that did not fight included ([reading]
    body hits do not outlast the duel). A named tuple rather than a dataclass: odds previews
    build many of them."""

    captured: bool
    stalemate: bool
    exchanges: int
    boarders_lost: tuple[Character, ...]
    defenders_lost: tuple[Character, ...]
    boarders_left: tuple[Character, ...]
    defenders_left: tuple[Character, ...]
    events: list[dict]


def duel(dice: Dice, boarders: Sequence[Character], defenders: Sequence[Character], *,
         purpose: str = "brd", record_events: bool = True, boarders_seats: int | None = None,
         defenders_seats: int | None = None, d8: Callable[[], int] | None = None) -> DuelResult:
    """Fight a boarding duel (R-BRD-1..5): the boarders started it, so they win cp ties.
    ``*_seats``: the seats of each ship's class (R-VP-1); on a single-seat ship only the
    combat card fights (R-BRD-1, ``fighting_cards``). ``d8``: the next face of the d8 stream
    of ``SimulationDice`` (odds previews, ``rules.dice.simulation_faces``), read instead of
    ``dice.count_at_most`` when no events are recorded."""
    events: list[dict] | None = [] if record_events else None
    crews = (tuple(boarders), tuple(defenders))
    if not crews[1]:  # R-BRD-5, checked first: a ship with no crew is simply taken
        if events is not None:
            events.append({"rule": "R-BRD-5", "step": "duel_end", "captured": True,
                           "stalemate": False, "reason": "no_crew"})
        return DuelResult(True, False, 0, (), (), crews[0], (), events or [])
    stacks = (fighting_cards(crews[0], boarders_seats),
              fighting_cards(crews[1], defenders_seats))
    if events is not None:
        start = {"rule": "R-BRD-1", "step": "duel_start",
                 "boarders": [_card(c) for c in stacks[0]],
                 "defenders": [_card(c) for c in stacks[1]]}
        for side, name in ((0, BOARDERS), (1, DEFENDERS)):
            if len(stacks[side]) < len(crews[side]):  # cards that do not fight (R-BRD-1)
                start[f"{name}_aside"] = [_card(c) for c in crews[side][len(stacks[side]):]]
        events.append(start)
    state = _Duel(dice, stacks, purpose, events, d8)
    state.run()
    return state.result(crews)


def fighting_cards(crew: Sequence[Character], seats: int | None) -> tuple[Character, ...]:
    """R-BRD-1: the cards of a crew that fight a boarding duel, bottom first. On a single-seat
    ship with more than one card only the combat card fights, [reading] the bottom one (module
    docstring); when it is overwhelmed that side has no characters left."""
    crew = tuple(crew)
    if len(crew) > 1 and is_single_seat(crew, seats):
        return crew[:1]
    return crew


class _Duel:
    """Mutable duel state; side 0 = boarders, side 1 = defenders."""

    __slots__ = ("dice", "stacks", "purpose", "events", "front", "wounds", "lost", "exchanges",
                 "stalemate", "count", "named", "d8")

    def __init__(self, dice: Dice, stacks: tuple[tuple[Character, ...], ...], purpose: str,
                 events: list[dict] | None, d8: Callable[[], int] | None = None) -> None:
        self.dice = dice
        self.stacks = stacks
        self.purpose = purpose
        self.events = events
        self.front = [0, 0]  # index of the fighting (bottom) character per side
        self.wounds = [0, 0]  # body hits on the fighting character
        self.lost: tuple[list[Character], list[Character]] = ([], [])
        self.exchanges = 0
        self.stalemate = False
        self.count = dice.count_at_most  # the fast helper of ``Dice``: counts, the same faces
        self.named = dice.named  # False: the dice ignore purposes, none need be built
        self.d8 = d8 if events is None else None

    def run(self) -> None:
        """Exchanges until a side has no characters or a stalemate (R-BRD-3, R-BRD-4). In an
        exchange the character with more cp strikes first, the boarders on a tie.

        R-BRD-2/3 attack: red dice against green dice; hits must exceed evades, and with no
        hit the attack fails whatever the defence rolls (no green draw). A successful attack
        deals hits - evades body hits; two overwhelm the character, more are lost (they do not
        pass to the next character). Without events (odds previews) the dice only count
        successes (``Dice.count_at_most``): the same draws."""
        quiet = 0
        front, wounds, events, dice = self.front, self.wounds, self.events, self.dice
        boarders, defenders = self.stacks
        count, named, purpose, d8 = self.count, self.named, self.purpose, self.d8
        while front[0] < len(boarders) and front[1] < len(defenders):
            self.exchanges += 1
            fighters = (boarders[front[0]], defenders[front[1]])
            prefix = f"{purpose}:exchange:{self.exchanges}:" if named else ""
            landed = False
            for side in _STRIKE_ORDER[fighters[0].cp < fighters[1].cp]:
                attacker, target = fighters[side], fighters[1 - side]
                red, green = _PURPOSES[side] if named else _NO_PURPOSES
                evades = 0
                if d8 is not None:  # odds previews: the faces ``count`` would read
                    hits = _at_most(d8, attacker.cp // 6, RED_SUCCESS_MAX)
                    if hits:
                        evades = _at_most(d8, target.cp // 6, GREEN_EVADE_MAX)
                elif events is None:
                    hits = count(attacker.cp // 6, 8, RED_SUCCESS_MAX, prefix + red)
                    if hits:
                        evades = count(target.cp // 6, 8, GREEN_EVADE_MAX, prefix + green)
                else:
                    red_faces, hits = red_dice(dice, attacker.cp // 6, prefix + red)
                    green_faces: tuple[int, ...] = ()
                    if hits:
                        green_faces, evades = green_dice(dice, target.cp // 6, prefix + green)
                dealt = hits - evades if hits > evades else 0  # R-BRD-3: body hits
                success = dealt > 0
                if success:  # beyond two they are lost (BODY_HITS_TO_OVERWHELM)
                    body = wounds[1 - side] + dealt
                    wounds[1 - side] = body if body < BODY_HITS_TO_OVERWHELM \
                        else BODY_HITS_TO_OVERWHELM
                if events is not None:
                    events.append({
                        "rule": "R-BRD-3", "step": "duel_attack", "exchange": self.exchanges,
                        "side": BOARDERS if side == 0 else DEFENDERS, "attacker": attacker.name,
                        "defender": target.name, "dice": list(red_faces + green_faces),
                        "red": list(red_faces), "green": list(green_faces), "hits": hits,
                        "evades": evades, "body_hit": success, "dealt": dealt,
                        "body_hits": wounds[1 - side]})
                if success:
                    landed = True
                    if wounds[1 - side] >= BODY_HITS_TO_OVERWHELM:
                        self.overwhelm(1 - side, side)
                        break  # the overwhelmed character does not strike back
            if landed:
                quiet = 0
                continue
            quiet += 1
            if quiet >= STALEMATE_EXCHANGES:  # R-BRD-4 [decision]
                self.stalemate = True
                return

    def overwhelm(self, loser: int, winner: int) -> None:
        fallen = self.stacks[loser][self.front[loser]]
        self.lost[loser].append(fallen)
        self.front[loser] += 1
        self.wounds[loser] = 0
        if self.events is not None:
            self.events.append({"rule": "R-BRD-3", "step": "overwhelmed",
                                "exchange": self.exchanges, "character": _card(fallen),
                                "side": BOARDERS if loser == 0 else DEFENDERS,
                                "by": BOARDERS if winner == 0 else DEFENDERS})

    def result(self, crews: tuple[tuple[Character, ...], ...]) -> DuelResult:
        """``crews``: the whole stacks; the cards beyond ``stacks`` did not fight (R-BRD-1):
        they stay aboard, or, on a capture, are taken with the ship."""
        stacks, front = self.stacks, self.front
        captured = front[1] >= len(stacks[1])
        aside = [crews[s][len(stacks[s]):] for s in (0, 1)]
        left = [stacks[s][front[s]:] + aside[s] for s in (0, 1)]
        lost = [tuple(self.lost[0]), tuple(self.lost[1])]
        if captured:
            lost[1] += aside[1]
            left[1] = ()
        if self.events is not None:
            end: dict = {"rule": "R-BRD-4", "step": "duel_end", "captured": captured,
                         "stalemate": self.stalemate, "exchanges": self.exchanges}
            if captured and aside[1]:
                end["taken"] = [_card(c) for c in aside[1]]
            self.events.append(end)
        return DuelResult(captured, self.stalemate, self.exchanges, lost[0], lost[1], left[0],
                          left[1], self.events or [])


def _at_most(d8: Callable[[], int], n: int, limit: int) -> int:
    """How many of the next n faces are at most ``limit`` (``Dice.count_at_most``)."""
    count = 0
    for _ in range(n):
        if d8() <= limit:
            count += 1
    return count


def _card(character: Character) -> dict:
    return {"name": character.name, "cp": character.cp}


# --- R-VP-1 ------------------------------------------------------------------------------------


def is_single_seat(crew: Sequence[Character], seats: int | None) -> bool:
    """R-VP-1: the class's seats decide; without them a one-character crew is single-seat."""
    return len(crew) == 1 if seats is None else seats == 1


def captured_ship_vp(crew: Sequence[Character], seats: int | None = None) -> int:
    """Victory points of a captured ship, scored once (R-VP-1, source 000 section 2).

    Single-seat with one card: its cp. Single-seat with pilot and combat card: the pilot's cp
    if the combat card has fewer, else the combat card's - that is the larger of the two.
    Multi-seat: the sum of all cards."""
    if not crew:
        return 0
    if is_single_seat(crew, seats):
        # [reading] R-VP-1: a single-seat ship with more than two cards (the source allows at
        # most one combat card) still scores one card: the largest, as for two cards.
        return max(c.cp for c in crew)
    return sum(c.cp for c in crew)


def boarding_vp(result: DuelResult, seats: int | None = None) -> tuple[int, int]:
    """Victory points a boarding scores: (boarding side, boarded side), R-VP-1.

    The boarded side scores the boarders it overwhelmed (R-VP-1 for a repelled boarding;
    R-BRD-3 "the winner takes it (its cp count as victory points)" for boarders who fell before
    a capture too). The boarding side scores the captured ship once (its crew as it stood when
    the duel began: every card was overwhelmed or, on a single-seat ship, taken with it); after
    a repelled boarding, by R-BRD-3, the defenders it overwhelmed before it was repelled."""
    boarded = sum(c.cp for c in result.boarders_lost)
    if result.captured:
        return captured_ship_vp(result.defenders_lost, seats), boarded
    return sum(c.cp for c in result.defenders_lost), boarded
