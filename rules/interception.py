"""Fleet interception (R-INT-1..5, source 004): who tries, INT DRs, benefits a-d.

The caller invokes ``resolve_interception`` each time the active fleet enters or tries to leave an
area, not during a retreat (R-INT-1), with the other fleets in that area. The engine only decides;
the caller moves fleets, places NO INTERCEPTION markers, picks a withdrawal area (R-NAV-12) and
runs the battle at the end of the phase (R-INT-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import Dice

KINDS = ("regular", "pirate", "buccaneer", "treasure")
AF_RANGE = (0, 3)  # R-FLT-1: the admiral rating (AF) a fleet may have
POLICIES = ("always", "if_stronger", "never")
BENEFITS = ("a", "b", "c", "d")
EFFECTS = {"a": "combat", "b": "resume", "c": "avoid", "d": "withdraw"}


@dataclass(frozen=True)
class InterceptFleet:
    """A fleet as interception sees it (R-FLT-1, R-FLT-3, R-FLT-5)."""

    id: int
    owner: int | None
    kind: str = "regular"
    af: int = 0
    cf: int = 0
    policy: str = "always"
    benefits: tuple[str, ...] = BENEFITS
    no_interception: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"fleet kind must be one of {KINDS}, not {self.kind!r}")
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, not {self.policy!r}")
        if not AF_RANGE[0] <= self.af <= AF_RANGE[1]:
            raise ValueError(f"AF must be {AF_RANGE[0]}-{AF_RANGE[1]}, not {self.af}")
        if any(b not in BENEFITS for b in self.benefits):
            raise ValueError(f"benefits must be taken from {BENEFITS}")


@dataclass(frozen=True)
class IntRoll:
    """One pair of INT DRs (R-INT-3): the initiator's active and the target's passive DR."""

    active_face: int
    passive_face: int
    active_total: int
    passive_total: int


@dataclass(frozen=True)
class Attempt:
    """One interception attempt; ``step`` is the R-INT-2 step (1 pirates ... 4 inactive)."""

    step: int
    initiator: int
    target: int
    rolls: tuple[IntRoll, ...]
    winner: int
    loser: int
    benefit: str


@dataclass(frozen=True)
class InterceptionResult:
    """What happened at one entry or leave.

    ``effect``: None (the move goes on as without interception), ``"combat"`` (a: a battle follows
    with ``advantage_fleet`` holding the interception advantage against ``opponent``),
    ``"resume"`` (b: the active fleet moves on and cannot be intercepted again in this area),
    ``"avoid"`` (c), or ``"withdraw"`` (d, when only withdrawals happened). ``withdrawn`` lists
    every fleet that withdraws (d lets later attempts go on, so there may be several, also
    before an a/b/c); ``no_interception`` every fleet that gets a NO INTERCEPTION marker.
    """

    entering: bool
    attempts: tuple[Attempt, ...]
    effect: str | None
    advantage_fleet: int | None
    advantage_side: str | None
    opponent: int | None
    withdrawn: tuple[int, ...]
    no_interception: tuple[int, ...]
    events: tuple[dict, ...]

    @property
    def move_ends(self) -> bool:
        """After a) or c) the active fleet's move ends in this area (R-INT-3); when leaving it
        stays in the area it tried to leave."""
        return self.effect in ("combat", "avoid")


def hostile(x: InterceptFleet, y: InterceptFleet) -> bool:
    """R-INT-1: of another player, or a pirate fleet.

    [reading] Two pirate fleets of the same owner (normally None) are not hostile to each other:
    pirates are one non-player force, not a war of all against all."""
    if x.id == y.id:
        return False
    return x.owner != y.owner or (x.kind == "pirate") != (y.kind == "pirate")


def resolve_interception(dice: Dice, active: InterceptFleet, present: Sequence[InterceptFleet],
                         *, entering: bool) -> InterceptionResult:
    """Run the attempts of R-INT-2 in order until one ends in a), b) or c) (R-INT-3).

    R-INT-3, R-INT-4 d): a withdrawal ends nothing else - the withdrawn fleet leaves the area
    and the remaining eligible fleets still try; only a), b) and c) end the sequence."""
    run = _Run(dice, active, [f for f in present if f.id != active.id])
    run.events.append({"rule": "R-INT-1", "step": "start", "active": active.id,
                       "entering": entering, "present": [f.id for f in run.others]})
    for step, fleet in _initiators(active, run.others):
        if run.final is not None:
            break
        run.consider(step, fleet)
    return run.result(entering)


def _initiators(active: InterceptFleet, others: list[InterceptFleet]):
    """R-INT-2 order. [reading] Pirates with equal AF, and buccaneers, keep the given order
    (active fleet first, then ``present`` as passed, i.e. arrival order)."""
    fleets = [active, *others]
    pirates = sorted((f for f in fleets if f.kind == "pirate"), key=lambda f: -f.af)
    yield from ((1, f) for f in pirates)
    yield from ((2, f) for f in fleets if f.kind == "buccaneer")
    if active.kind not in ("pirate", "buccaneer"):
        yield 3, active
    yield from ((4, f) for f in others if f.kind not in ("pirate", "buccaneer"))


class _Run:
    """Mutable bookkeeping of one resolution."""

    def __init__(self, dice: Dice, active: InterceptFleet, others: list[InterceptFleet]):
        self.dice = dice
        self.active = active
        self.others = others
        self.blocked = {f.id for f in [active, *others] if f.no_interception}
        self.attempts: list[Attempt] = []
        self.withdrawn: list[int] = []
        self.markers: list[int] = []
        self.final: Attempt | None = None
        self.events: list[dict] = []

    def skip(self, step: int, fleet: InterceptFleet, reason: str, **extra) -> None:
        self.events.append({"rule": "R-INT-2", "step": "skip", "order": step,
                            "fleet": fleet.id, "reason": reason, **extra})

    def consider(self, step: int, fleet: InterceptFleet) -> None:
        if fleet.kind == "treasure":
            return self.skip(step, fleet, "treasure fleets never start an attempt")
        if fleet.id in self.blocked:
            return self.skip(step, fleet, "NO INTERCEPTION marker")
        target = self._target(fleet)
        if target is None:
            return self.skip(step, fleet, "no eligible hostile target")
        if not _willing(fleet, target):
            return self.skip(step, fleet, f"policy {fleet.policy}", target=target.id,
                             cf=fleet.cf, target_cf=target.cf)
        self._attempt(step, fleet, target)

    def _target(self, fleet: InterceptFleet) -> InterceptFleet | None:
        """The active fleet picks the weakest hostile by CF (first in order on a tie); every
        other fleet may only target the active fleet (R-INT-2)."""
        if fleet.id == self.active.id:
            pool = [f for f in self.others if hostile(fleet, f) and f.id not in self.blocked]
            return min(pool, key=lambda f: f.cf, default=None)
        if hostile(fleet, self.active) and self.active.id not in self.blocked:
            return self.active
        return None

    def _attempt(self, step: int, initiator: InterceptFleet, target: InterceptFleet) -> None:
        self.events.append({"rule": "R-INT-2", "step": "attempt", "order": step,
                            "initiator": initiator.id, "target": target.id})
        rolls = self._roll(initiator, target)
        last = rolls[-1]
        winner, loser = ((initiator, target) if last.active_total > last.passive_total
                         else (target, initiator))
        benefit = self._benefit(winner, loser)
        attempt = Attempt(step, initiator.id, target.id, tuple(rolls), winner.id, loser.id,
                          benefit)
        self.attempts.append(attempt)
        if benefit == "d":
            self.withdrawn.append(winner.id)
            self.markers.append(winner.id)
            self.blocked.add(winner.id)
            return
        if benefit == "c":
            self.markers += [winner.id, loser.id]
        self.final = attempt

    def _roll(self, initiator: InterceptFleet, target: InterceptFleet) -> list[IntRoll]:
        """R-INT-3: 1d6 + AF each; a tie is rolled again, each DR a new draw (R-DICE-2)."""
        rolls: list[IntRoll] = []
        while True:
            a = self.dice.roll(1, 6, f"int:fleet={initiator.id}:active")[0]
            p = self.dice.roll(1, 6, f"int:fleet={target.id}:passive")[0]
            roll = IntRoll(a, p, a + initiator.af, p + target.af)
            rolls.append(roll)
            tie = roll.active_total == roll.passive_total
            self.events.append({"rule": "R-INT-3", "step": "int_dr", "dice": [a, p],
                                "initiator": initiator.id, "target": target.id,
                                "active_total": roll.active_total,
                                "passive_total": roll.passive_total,
                                "decision": "tie: roll again" if tie else "higher wins"})
            if not tie:
                return rolls

    def _benefit(self, winner: InterceptFleet, loser: InterceptFleet) -> str:
        is_active = winner.id == self.active.id
        if winner.kind == "pirate":
            return self._pirate_benefit(winner, loser, is_active)
        allowed = {"a"} | ({"b"} if is_active else {"d"})
        if loser.kind != "pirate":  # R-INT-4 c): not in an attempt with a pirate fleet
            allowed.add("c")
        skipped, choice = [], "a"  # [reading] R-INT-4: nothing allowed named -> a)
        for wish in winner.benefits:
            if wish in allowed:
                choice = wish
                break
            skipped.append(wish)
        self.events.append({"rule": "R-INT-4", "step": "benefit", "winner": winner.id,
                            "loser": loser.id, "benefit": choice, "skipped": skipped,
                            "decision": EFFECTS[choice]})
        return choice

    def _pirate_benefit(self, winner: InterceptFleet, loser: InterceptFleet,
                        is_active: bool) -> str:
        """R-INT-5: a) with more CF than the enemy, else b) when active, d) when inactive; never
        c) (R-INT-4: pirates can not be avoided)."""
        choice = "a" if winner.cf > loser.cf else ("b" if is_active else "d")
        self.events.append({"rule": "R-INT-5", "step": "benefit", "winner": winner.id,
                            "loser": loser.id, "benefit": choice, "cf": winner.cf,
                            "enemy_cf": loser.cf, "decision": EFFECTS[choice]})
        return choice

    def result(self, entering: bool) -> InterceptionResult:
        final = self.final
        effect = EFFECTS[final.benefit] if final else ("withdraw" if self.withdrawn else None)
        advantage = opponent = side = None
        if final is not None and final.benefit == "a":
            advantage, opponent = final.winner, final.loser
            side = "active" if advantage == self.active.id else "inactive"
        self.events.append({"rule": "R-INT-3", "step": "end", "effect": effect,
                            "advantage": advantage, "withdrawn": list(self.withdrawn),
                            "no_interception": list(self.markers),
                            "decision": "move ends here" if effect in ("combat", "avoid")
                            else "interception does not end the move"})
        return InterceptionResult(entering, tuple(self.attempts), effect, advantage, side,
                                  opponent, tuple(self.withdrawn), tuple(self.markers),
                                  tuple(self.events))


def _willing(fleet: InterceptFleet, target: InterceptFleet) -> bool:
    """Pirates always try (R-INT-2); others by policy (R-FLT-5); if_stronger: own CF > target's."""
    if fleet.kind == "pirate" or fleet.policy == "always":
        return True
    return fleet.policy == "if_stronger" and fleet.cf > target.cf
