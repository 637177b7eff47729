"""Dice: the one interface every rolling rule receives (R-DICE).

Implementations:
- ``RoundStream``: the round's provably fair stream (R-DICE-2), logging every draw (R-DICE-3);
- ``SimulationDice``: a seeded PRNG for odds previews, never logged (R-DICE-4);
- ``ScriptedDice``: a queue of faces for tests; running out is an error.

A *draw* is one numbered read from the dice: ``dice.draw(purpose, sides)`` returns an iterator of
faces that reads as many faces as the rule needs (R-DICE-5 wild re-rolls read on in the same draw).
``dice.roll(n, ...)`` is the common case: one draw, n faces.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from math import floor

SEED_BYTES = 32


class DiceExhausted(Exception):
    """Scripted dice ran out of faces: the test scripted fewer rolls than the rule made."""


@dataclass
class DrawRecord:
    """One logged draw (R-DICE-3). ``faces`` grows while the rule reads the draw."""

    counter: int
    purpose: str
    sides: int
    faces: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"counter": self.counter, "purpose": self.purpose, "sides": self.sides,
                "faces": list(self.faces)}


class Dice:
    """Base class: subclasses implement ``_faces`` (an endless face iterator for one draw)."""

    def __init__(self, start: int = 0) -> None:
        self.log: list[DrawRecord] = []
        self._start = start

    def _faces(self, purpose: str, sides: int, counter: int) -> Iterator[int]:
        raise NotImplementedError

    @property
    def next_counter(self) -> int:
        return self._start + len(self.log)

    def draw(self, purpose: str, sides: int = 6) -> Iterator[int]:
        """Start draw number ``next_counter``; every face read is recorded in the log."""
        if sides < 2:
            raise ValueError("a die needs at least two sides")
        record = DrawRecord(self.next_counter, purpose, sides)
        self.log.append(record)
        source = self._faces(purpose, sides, record.counter)

        def reader() -> Iterator[int]:
            for face in source:
                record.faces.append(face)
                yield face

        return reader()

    def roll(self, n: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        """Roll n dice of ``sides`` as one draw."""
        faces = self.draw(purpose, sides)
        return tuple(next(faces) for _ in range(n))


# --- R-DICE-2: the provably fair stream -------------------------------------------------------


def new_seed() -> bytes:
    """A fresh secret round seed from the OS CSPRNG (R-DICE-2)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """sha256 of the 32 raw seed bytes, lowercase hex (R-DICE-2)."""
    return hashlib.sha256(server_seed).hexdigest()


def draw_message(campaign_id: int, round_number: int, purpose: str, counter: int) -> str:
    return f"{campaign_id}:{round_number}:{purpose}:{counter}"


def _stream_bytes(server_seed: bytes, message: str) -> Iterator[int]:
    """HMAC-SHA256 of the message, then of ``message:1``, ``message:2``, ... (R-DICE-2)."""
    block = 0
    while True:
        text = message if block == 0 else f"{message}:{block}"
        yield from hmac.new(server_seed, text.encode("utf-8"), hashlib.sha256).digest()
        block += 1


def _faces_from_bytes(data: Iterable[int], sides: int) -> Iterator[int]:
    """Unbiased faces: bytes at or above the largest multiple of ``sides`` are discarded
    (252 for a d6; a d8 uses every byte)."""
    bound = 256 - 256 % sides
    for byte in data:
        if byte < bound:
            yield byte % sides + 1


def stream_faces(server_seed: bytes, campaign_id: int, round_number: int, purpose: str,
                 counter: int, n: int, sides: int = 6) -> list[int]:
    """The first n faces of draw ``counter`` (public: what an outside verifier recomputes)."""
    message = draw_message(campaign_id, round_number, purpose, counter)
    faces = _faces_from_bytes(_stream_bytes(server_seed, message), sides)
    return [next(faces) for _ in range(n)]


class RoundStream(Dice):
    """The round's provably fair stream; ``start`` continues the round's counter across jobs."""

    def __init__(self, server_seed: bytes, campaign_id: int, round_number: int, start: int = 0):
        super().__init__(start)
        if len(server_seed) != SEED_BYTES:
            raise ValueError("server_seed must be 32 bytes")
        self._seed = server_seed
        self.campaign_id = campaign_id
        self.round_number = round_number

    def _faces(self, purpose: str, sides: int, counter: int) -> Iterator[int]:
        message = draw_message(self.campaign_id, self.round_number, purpose, counter)
        return _faces_from_bytes(_stream_bytes(self._seed, message), sides)


@dataclass(frozen=True)
class VerifyReport:
    verified: bool
    checked: int
    mismatches: tuple[dict, ...]


def verify(server_seed: bytes, log: Iterable[dict], campaign_id: int,
           round_number: int) -> VerifyReport:
    """Recompute every logged draw from the revealed seed (R-DICE-3).

    ``log`` holds dicts with counter, purpose, sides and faces (as ``DrawRecord.as_dict``)."""
    checked, mismatches = 0, []
    for entry in log:
        faces = list(entry["faces"])
        expected = stream_faces(server_seed, campaign_id, round_number, entry["purpose"],
                                entry["counter"], len(faces), entry["sides"])
        checked += 1
        if faces != expected:
            mismatches.append({"counter": entry["counter"], "purpose": entry["purpose"],
                               "logged": faces, "expected": expected})
    return VerifyReport(not mismatches, checked, tuple(mismatches))


# --- R-DICE-4 and tests ------------------------------------------------------------------------


class SimulationDice(Dice):
    """Seeded PRNG for previews (R-DICE-4). Keeps no log, so long simulations stay lean."""

    def __init__(self, seed: int | None = None):
        super().__init__()
        self._rng = random.Random(seed)

    def draw(self, purpose: str, sides: int = 6) -> Iterator[int]:
        rand = self._rng.random
        return iter(lambda: int(rand() * sides) + 1, None)

    def roll(self, n: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        # random() is several times faster than randint(); 53-bit floats keep faces uniform
        rand = self._rng.random
        return tuple(int(rand() * sides) + 1 for _ in range(n))


class ScriptedDice(Dice):
    """Faces from a queue, for tests; a face outside 1..sides or an empty queue raises."""

    def __init__(self, faces: Iterable[int]):
        super().__init__()
        self._queue = deque(faces)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def _faces(self, purpose: str, sides: int, counter: int) -> Iterator[int]:
        while True:
            if not self._queue:
                raise DiceExhausted(f"no scripted face left for {purpose!r} (d{sides})")
            face = self._queue.popleft()
            if not 1 <= face <= sides:
                raise ValueError(f"scripted face {face} is not on a d{sides} ({purpose!r})")
            yield face


# --- R-DICE-5: the wild die --------------------------------------------------------------------


@dataclass(frozen=True)
class WildRoll:
    """A D6-system roll: ``faces`` in draw order (wild die, other dice, wild re-rolls)."""

    total: int
    faces: tuple[int, ...]
    fumble: bool
    dice: int
    pips: int

    def as_dict(self) -> dict:
        return {"total": self.total, "faces": list(self.faces), "fumble": self.fumble}


def wild_roll(dice: Dice, n: int, pips: int = 0, purpose: str = "d6") -> WildRoll:
    """Roll nD+pips with one wild die (R-DICE-5): a 6 on the wild die is added and rolled again
    while it shows 6; a 1 on its first throw is a fumble and still counts ([decision])."""
    if n <= 0:
        return WildRoll(pips, (), False, 0, pips)
    faces = dice.draw(purpose, 6)
    wild = next(faces)
    read = [wild]
    others = [next(faces) for _ in range(n - 1)]
    read += others
    total = wild + sum(others) + pips
    last = wild
    while last == 6:
        last = next(faces)
        read.append(last)
        total += last
    return WildRoll(total, tuple(read), wild == 1, n, pips)


# --- fast paths of odds previews (R-ODDS-1, R-DICE-4, R-DICE-5) -------------------------------
# The engines' no-events paths call these instead of ``wild_roll`` and ``dice.roll``: the same
# draws with the same purposes read the same faces in the same order, for any Dice; only no
# WildRoll or face tuple is built. A plain SimulationDice is read straight from its PRNG with the
# face formula of ``SimulationDice.roll`` (``floor`` equals ``int`` on these non-negative floats).


def wild_total(dice: Dice, n: int, pips: int = 0, purpose: str = "d6") -> tuple[int, bool]:
    """``(total, fumble)`` of ``wild_roll(dice, n, pips, purpose)``, reading the same faces."""
    if n <= 0:
        return pips, False
    if type(dice) is not SimulationDice:
        roll = wild_roll(dice, n, pips, purpose)
        return roll.total, roll.fumble
    rand = dice._rng.random
    wild = floor(rand() * 6) + 1
    total = wild + pips + n - 1  # the other dice's "+ 1"s
    others = n - 1
    while others:
        total += floor(rand() * 6)
        others -= 1
    last = wild
    while last == 6:  # R-DICE-5: the wild die explodes
        last = floor(rand() * 6) + 1
        total += last
    return total, wild == 1


def faces(dice: Dice, n: int, sides: int, purpose: str) -> list[int]:
    """``list(dice.roll(n, sides, purpose))``: n dice as one draw."""
    if type(dice) is not SimulationDice:
        return list(dice.roll(n, sides, purpose))
    rand = dice._rng.random
    return [floor(rand() * sides) + 1 for _ in range(n)]


def one_face(dice: Dice, sides: int, purpose: str) -> int:
    """``dice.roll(1, sides, purpose)[0]``: one die as one draw."""
    if type(dice) is SimulationDice:
        return floor(dice._rng.random() * sides) + 1
    return dice.roll(1, sides, purpose)[0]


def count_at_most(dice: Dice, n: int, sides: int, limit: int, purpose: str) -> int:
    """How many faces of ``dice.roll(n, sides, purpose)`` are at most ``limit``; no draw for
    n <= 0 (as ``red_dice`` and ``green_dice``). For a SimulationDice face <= limit is exactly
    ``random() * sides < limit``."""
    if n <= 0:
        return 0
    if type(dice) is not SimulationDice:
        return sum([face <= limit for face in dice.roll(n, sides, purpose)])
    rand = dice._rng.random
    count = 0
    while n:
        if rand() * sides < limit:
            count += 1
        n -= 1
    return count


# --- R-BRD-2: X-Wing dice ----------------------------------------------------------------------

RED_FACES = {1: "hit", 2: "hit", 3: "hit", 4: "crit", 5: "focus", 6: "focus", 7: "blank",
             8: "blank"}
GREEN_FACES = {1: "evade", 2: "evade", 3: "evade", 4: "focus", 5: "focus", 6: "blank",
               7: "blank", 8: "blank"}


def red_dice(dice: Dice, n: int, purpose: str = "xwing:red") -> tuple[tuple[int, ...], int]:
    """Roll n red attack dice (d8): returns faces and hits (hit and crit count alike, R-BRD-2)."""
    faces = dice.roll(n, 8, purpose) if n > 0 else ()
    return faces, sum(1 for f in faces if RED_FACES[f] in ("hit", "crit"))


def green_dice(dice: Dice, n: int, purpose: str = "xwing:green") -> tuple[tuple[int, ...], int]:
    """Roll n green defence dice (d8): returns faces and evades (R-BRD-2)."""
    faces = dice.roll(n, 8, purpose) if n > 0 else ()
    return faces, sum(1 for f in faces if GREEN_FACES[f] == "evade")
