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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, islice, repeat
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
    """Base class: subclasses implement ``_faces`` (an endless face iterator for one draw).

    ``named``: whether a draw's purpose matters (logged, or the faces derive from it); False
    for dice that ignore it, so hot loops may pass an empty purpose."""

    named = True

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

    # fast helpers of odds previews (see ``wild_total`` and its neighbours below)

    def wild_total(self, n: int, pips: int = 0, purpose: str = "d6") -> tuple[int, bool]:
        if n <= 0:
            return pips, False
        roll = wild_roll(self, n, pips, purpose)
        return roll.total, roll.fumble

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return list(self.roll(n, sides, purpose))

    def one_face(self, sides: int, purpose: str) -> int:
        return self.roll(1, sides, purpose)[0]

    def count_at_most(self, n: int, sides: int, limit: int, purpose: str) -> int:
        if n <= 0:
            return 0
        return sum([face <= limit for face in self.roll(n, sides, purpose)])


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
    """The first n faces of draw ``counter`` (public: what an outside verifier recomputes):
    those of ``_faces_from_bytes(_stream_bytes(...))``, taken a whole digest at a time."""
    message = draw_message(campaign_id, round_number, purpose, counter)
    bound = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while len(faces) < n:
        text = message if block == 0 else f"{message}:{block}"
        digest = hmac.digest(server_seed, text.encode("utf-8"), "sha256")
        faces += [byte % sides + 1 for byte in digest if byte < bound]
        block += 1
    del faces[n:]
    return faces


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

    def roll(self, n: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        """``Dice.roll`` without a face iterator (the fleet phase rolls thousands): the same
        draw, logged with the same faces."""
        if sides < 2:
            raise ValueError("a die needs at least two sides")
        counter = self.next_counter
        faces = stream_faces(self._seed, self.campaign_id, self.round_number, purpose, counter,
                             n, sides)
        self.log.append(DrawRecord(counter, purpose, sides, faces))
        return tuple(faces)


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

BLOCK_BYTES = 4096  # random bytes per refill of a SimulationDice face stream


@lru_cache(maxsize=256)
def _byte_faces(sides: int) -> tuple[bytes, bytes]:
    """``bytes.translate`` arguments turning random bytes into unbiased faces of a d<sides>:
    bytes at or above the largest multiple of ``sides`` are deleted, the others map to
    ``byte % sides + 1`` (as ``_faces_from_bytes``; a d8 uses every byte)."""
    bound = 256 - 256 % sides
    table = bytes(b % sides + 1 if b < bound else 0 for b in range(256))
    return table, bytes(range(bound, 256))


class SimulationDice(Dice):
    """Seeded PRNG for previews (R-DICE-4). Keeps no log, so long simulations stay lean.

    Faces come from one endless stream per die size, filled in blocks from the PRNG's random
    bytes (unbiased: out-of-range bytes are dropped) and read in order: every draw, roll and
    fast helper reads the next faces of its die size's stream. The same seed gives the same
    faces; uniform faces are all R-DICE-4 asks of the simulation RNG. Purposes are ignored."""

    named = False

    def __init__(self, seed: int | None = None):
        super().__init__()
        self._rng = random.Random(seed)
        self._streams: dict[int, Iterator[int]] = {}
        self._d6 = self.stream(6)
        self._d8 = self.stream(8)

    def _block(self, sides: int) -> bytes | list[int]:
        if sides > 255:  # a face of 256 does not fit the byte table; no rule rolls this big
            rand = self._rng.random
            return [floor(rand() * sides) + 1 for _ in range(BLOCK_BYTES)]
        return self._rng.randbytes(BLOCK_BYTES).translate(*_byte_faces(sides))

    def stream(self, sides: int) -> Iterator[int]:
        """The endless face stream of a d<sides>; ``next`` reads one face."""
        faces = self._streams.get(sides)
        if faces is None:
            if sides < 1:
                raise ValueError("a die needs at least one side")
            faces = self._streams[sides] = chain.from_iterable(map(self._block,
                                                                   repeat(sides)))
        return faces

    def draw(self, purpose: str, sides: int = 6) -> Iterator[int]:
        return self.stream(sides)

    def roll(self, n: int, sides: int = 6, purpose: str = "roll") -> tuple[int, ...]:
        return tuple(islice(self.stream(sides), n)) if n > 0 else ()

    # the fast helpers (R-ODDS-1): the faces the base class reads, without a draw per call

    def wild_total(self, n: int, pips: int = 0, purpose: str = "d6") -> tuple[int, bool]:
        if n <= 0:
            return pips, False
        d6 = self._d6
        wild = last = next(d6)
        total = wild + pips
        if n > 1:
            total += sum(islice(d6, n - 1))
        while last == 6:  # R-DICE-5: the wild die explodes
            last = next(d6)
            total += last
        return total, wild == 1

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return list(islice(self.stream(sides), n)) if n > 0 else []

    def one_face(self, sides: int, purpose: str) -> int:
        return next(self._d6 if sides == 6 else self.stream(sides))

    def count_at_most(self, n: int, sides: int, limit: int, purpose: str) -> int:
        if n <= 0:
            return 0
        stream = self._d8 if sides == 8 else self.stream(sides)
        if n == 1:
            return 1 if next(stream) <= limit else 0
        return sum(map(limit.__ge__, islice(stream, n)))


# The methods of ``SimulationDice`` that read its face streams: a subclass that overrides one
# reads its faces otherwise, and ``simulation_faces`` leaves such dice to their methods.
_STREAM_READERS = ("stream", "draw", "roll", "faces", "wild_total", "one_face", "count_at_most")
_PLAIN_STREAMS: dict[type, bool] = {}  # per class of dice: whether ``simulation_faces`` reads it


def simulation_faces(dice: Dice, sides: int = 6) -> Callable[[], int] | None:
    """The next face of the d<sides> stream of ``SimulationDice`` (R-DICE-4), which its
    ``roll``, ``faces``, ``wild_total``, ``one_face`` and ``count_at_most`` read in order: an
    odds preview's battle reads the same faces from it directly, without a Python-level call
    per roll (the stream's bound ``__next__``, which compiled engines call directly). None for
    any other dice (or a subclass that reads its faces otherwise): those are called as usual."""
    cls = type(dice)
    plain = _PLAIN_STREAMS.get(cls)
    if plain is None:  # once per class: a battle asks for each of its dice
        plain = _PLAIN_STREAMS[cls] = issubclass(cls, SimulationDice) and all(
            getattr(cls, name) is getattr(SimulationDice, name) for name in _STREAM_READERS)
    return dice.stream(sides).__next__ if plain else None


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
# The engines' no-events paths call these (or the Dice methods of the same names) instead of
# ``wild_roll`` and ``dice.roll``: the same draws with the same purposes read the same faces in
# the same order, for any Dice; only no WildRoll or face tuple is built. ``Dice`` implements
# them with ``draw`` and ``roll``; ``SimulationDice`` reads its face streams directly.


def wild_total(dice: Dice, n: int, pips: int = 0, purpose: str = "d6") -> tuple[int, bool]:
    """``(total, fumble)`` of ``wild_roll(dice, n, pips, purpose)``, reading the same faces."""
    return dice.wild_total(n, pips, purpose)


def faces(dice: Dice, n: int, sides: int, purpose: str) -> list[int]:
    """``list(dice.roll(n, sides, purpose))``: n dice as one draw."""
    return dice.faces(n, sides, purpose)


def one_face(dice: Dice, sides: int, purpose: str) -> int:
    """``dice.roll(1, sides, purpose)[0]``: one die as one draw."""
    return dice.one_face(sides, purpose)


def count_at_most(dice: Dice, n: int, sides: int, limit: int, purpose: str) -> int:
    """How many faces of ``dice.roll(n, sides, purpose)`` are at most ``limit``; no draw for
    n <= 0 (as ``red_dice`` and ``green_dice``)."""
    return dice.count_at_most(n, sides, limit, purpose)


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
