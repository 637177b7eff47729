"""One Dark Force naval battle (R-NAV-1..13): the round loop, exchange and reorganisation;
``resolve_naval_battle`` and ``naval_battle_winner`` fight it.

Dice purposes: ``naval:r<round>:maneuver`` (attacker, defender), ``naval:r<round>:agility``,
``naval:r<round>:fire`` and ``naval:r<round>:p<pairing>:brd:...``
for boarding duels (pairing 1 is the flagships' pairing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rules.boarding import boarding_vp, duel
from rules.dice import Dice, faces, simulation_faces
from rules.naval.fire import ShipState, hits_of, take_volleys
from rules.naval.maneuver import maneuver, resolve_stance
from rules.naval.model import (
    AFLOAT,
    ATTACKER,
    AUTO,
    CAPTURED,
    DEFENDER,
    FAR,
    RETREATED,
    SIDES,
    SUNK,
    Capture,
    NavalOutcome,
    NavalSide,
    ShipResult,
    other,
)

GUNFIRE: Final = "gunfire"
BOARDING: Final = "boarding"


class Battle:
    """Mutable state of one battle; ``run`` plays it and ``outcome`` freezes the result.
    Hot path of odds previews: every event dict is built behind an ``events is not None``."""

    __slots__ = ("dice", "sides", "ships", "lines", "distance", "round", "events", "vp",
                 "captures", "advantage", "bonus", "retreated", "cf", "agility", "gaps",
                 "stances", "d6", "d8", "named")

    def __init__(self, dice: Dice, attacker: NavalSide, defender: NavalSide,
                 advantage: str | None, record_events: bool) -> None:
        self.dice = dice
        self.sides = {ATTACKER: attacker, DEFENDER: defender}
        self.ships = {s: [ShipState(ship, s) for ship in self.sides[s].ships] for s in SIDES}
        self.lines = {s: list(self.ships[s]) for s in SIDES}  # R-NAV-1: flagship first
        self.distance = FAR
        self.round = 0
        self.events: list[dict] | None = [] if record_events else None
        self.vp = {ATTACKER: 0, DEFENDER: 0}
        self.captures: list[tuple[ShipState, int, int]] = []
        self.advantage = advantage
        self.bonus = {ATTACKER: 0, DEFENDER: 0}  # R-NAV-9, set per round
        self.retreated: tuple[str, ...] = ()
        self.cf: tuple[int, int] = (0, 0)  # per line: CF (R-FLT-3) and lowest agility
        self.agility: tuple[int, int] = (0, 0)
        self.gaps = False
        self.stances = (attacker.stance, defender.stance)
        self.d6 = simulation_faces(dice)  # odds previews: read the faces directly
        self.d8: Callable[[], int] | None = None  # and the d8s of boarding (``board``)
        self.named = dice.named  # False: the dice ignore purposes, none need be built
        self.line_stats()

    # --- the round loop (R-NAV-2, R-NAV-11) ---------------------------------------------------

    def run(self, max_rounds: int) -> str:
        """Play rounds until an end condition (R-NAV-11); returns the end reason."""
        if self.events is not None:
            self.log("R-NAV-1", "setup", lines=self.line_ids(), distance=self.distance,
                     stances={s: self.sides[s].stance for s in SIDES},
                     advantage=self.advantage)
        lines = self.lines
        while lines[ATTACKER] and lines[DEFENDER]:
            if self.round >= max_rounds:
                return "round_cap"
            self.round += 1
            # R-NAV-9: the interception advantage counts in the first round only
            if self.round <= 2:
                for s in SIDES:
                    self.bonus[s] = 1 if self.round == 1 and s == self.advantage else 0
            if self.maneuver():
                return "retreat"
            self.exchange()
            self.reorganise()
        return "destroyed"

    def log(self, rule: str, step: str, **data) -> None:
        """Record an event (only called while events are recorded)."""
        assert self.events is not None
        self.events.append({"rule": rule, "step": step, "round": self.round, **data})

    def faces(self, n: int, kind: str) -> list[int]:
        """n d6 as one draw ``naval:r<round>:<kind>`` (``rules.dice.faces``)."""
        d6 = self.d6
        if d6 is not None:
            return [d6() for _ in range(n)]
        return faces(self.dice, n, 6, f"naval:r{self.round}:{kind}")

    def line_ids(self) -> dict[str, list[int]]:
        return {s: [st.id for st in self.lines[s]] for s in SIDES}

    # --- maneuver (R-NAV-3, R-NAV-12) ---------------------------------------------------------

    def maneuver(self) -> bool:
        """Maneuver step; True if a side retreated and the battle ends (R-NAV-11: it ends when
        a side retreated, so that round's exchange is not fought)."""
        stance_a, stance_d = self.stances
        cf = self.cf
        # R-FLT-5 compares combat factors (R-FLT-3); [reading] ``auto`` is decided afresh
        # every round from the ships still in the lines
        if stance_a == AUTO or stance_d == AUTO:
            stance_a = resolve_stance(stance_a, cf[0], cf[1])
            stance_d = resolve_stance(stance_d, cf[1], cf[0])
        agility = self.agility
        bonus = (self.bonus[ATTACKER], self.bonus[DEFENDER])
        before = self.distance
        result = maneuver(self.dice, self.round, before, (stance_a, stance_d), agility, bonus,
                          d6=self.d6)
        self.distance = result.distance
        if self.events is not None:
            self.log("R-NAV-3", "maneuver", stances=pair((stance_a, stance_d)), cf=pair(cf),
                     lowest_agility=pair(agility), dice=list(result.rolls),
                     rolls=pair(result.rolls), success=pair(result.success),
                     roll_bonus=pair(bonus), imposed_by=result.imposed_by,
                     distance_before=before, distance=result.distance,
                     retreating=list(result.retreating))
        if not result.retreating:
            return False
        gone = tuple(s for s in result.retreating if self.retreat(s))
        if not gone:
            return False
        self.retreated = gone
        for s in gone:
            for st in self.lines[s]:
                st.state = RETREATED
        return True

    def retreat(self, side: str) -> bool:
        """R-NAV-12: the area was chosen beforehand (``choose_retreat``); without one the
        retreat fails and the distance stays far."""
        area = self.sides[side].retreat_to
        if self.events is not None:
            self.log("R-NAV-12", "retreat", side=side, to=area, success=area is not None,
                     distance=self.distance)
        return area is not None

    # --- exchange (R-NAV-4..8) ----------------------------------------------------------------

    def exchange(self) -> None:
        """Pairings from the flagships on (R-NAV-4); the first unpaired ship of a longer line
        stands diagonally opposite the last ship of the shorter line (R-NAV-5).

        Pairings are independent (no ship is in two), so the dice rolled together are drawn
        together: at near distance one draw for every agility roll of the exchange, then one
        for every gunfire roll, then the boarding duels in pairing order."""
        att, dfn = self.lines[ATTACKER], self.lines[DEFENDER]
        n = min(len(att), len(dfn))
        diagonal = None
        if len(att) != len(dfn):
            diagonal = att[n] if len(att) > len(dfn) else dfn[n]
            if self.events is not None:
                target = (dfn if diagonal.side == ATTACKER else att)[n - 1]
                self.log("R-NAV-5", "diagonal", ship=diagonal.id, side=diagonal.side,
                         target=target.id)
        if self.distance == FAR:  # R-NAV-4: at far distance every pairing fires
            self.gunfire(list(range(n)), n, diagonal, True)
            return
        choices = self.near_choices(n, diagonal)
        firing = [i for i in range(n) if choices[i][0] == GUNFIRE]
        if firing:
            self.gunfire(firing, n, diagonal, False)
        for i, (mode, chooser) in enumerate(choices):
            if mode == BOARDING:
                a, d = att[i], dfn[i]
                self.board(i + 1, chooser, d if chooser is a else a)

    def near_choices(self, n: int, diagonal: ShipState | None) -> list[tuple]:
        """R-NAV-4 at near distance: both ships of every pairing roll (one draw, faces per
        pairing attacker then defender); a roll lower than the ship's agility succeeds and the
        successful ship chooses. Returns (mode, chooser) per pairing."""
        rolls = self.faces(2 * n, "agility")
        att, dfn = self.lines[ATTACKER], self.lines[DEFENDER]
        bonus_a, bonus_d = self.bonus[ATTACKER], self.bonus[DEFENDER]  # R-NAV-9
        choices = []
        choose = self.choose
        for i in range(n):
            a, d = att[i], dfn[i]
            roll_a, roll_d = rolls[2 * i], rolls[2 * i + 1]
            agility_a, agility_d = a.agility, d.agility
            if diagonal is not None and i == n - 1:  # R-NAV-5: facing an extra ship, -1,
                # never below 1; an agility already below 1 is not raised
                if diagonal.side == DEFENDER:
                    agility_a = agility_a - 1 if agility_a > 1 else agility_a
                else:
                    agility_d = agility_d - 1 if agility_d > 1 else agility_d
            ok_a, ok_d = roll_a - bonus_a < agility_a, roll_d - bonus_d < agility_d
            chooser = None
            if ok_a and ok_d:  # the higher (unmodified) roll chooses; equal rolls: gunfire
                chooser = a if roll_a > roll_d else d if roll_d > roll_a else None
            elif ok_a or ok_d:
                chooser = a if ok_a else d
            mode: str | None
            if chooser is not None:
                mode = choose(chooser, d if chooser is a else a)
            else:
                mode = GUNFIRE if ok_a and ok_d else None
            choices.append((mode, chooser))
            if self.events is not None:
                self.log("R-NAV-4", "near_choice", pairing=i + 1, ships=[a.id, d.id],
                         dice=[roll_a, roll_d], agility=[agility_a, agility_d],
                         success=[ok_a, ok_d], choice=mode,
                         chooser=None if chooser is None else chooser.side)
        return choices

    @staticmethod
    def choose(chooser: ShipState, enemy: ShipState) -> str:
        """R-NAV-4 [decision]: board if the own crew has more command points in total."""
        return BOARDING if chooser.cp > enemy.cp else GUNFIRE

    def gunfire(self, pairings: list[int], n: int, diagonal: ShipState | None,
                far: bool) -> None:
        """The ships of the firing pairings fire (R-NAV-6), and the diagonal ship at the last
        ship of the shorter line if that pairing fires (R-NAV-5). One draw: per pairing the
        attacker's face then the defender's, the diagonal ship's last. Within a pairing the hits
        land together after both (all three) have fired (simultaneous exchange)."""
        penalty = 1 if far else 0
        mod_a = self.bonus[ATTACKER] - penalty  # R-NAV-6 and R-NAV-9, as in ``hits_of``
        mod_d = self.bonus[DEFENDER] - penalty
        att, dfn = self.lines[ATTACKER], self.lines[DEFENDER]
        diagonal_fires = diagonal is not None and pairings[-1] == n - 1
        rolls = self.faces(2 * len(pairings) + (1 if diagonal_fires else 0), "fire")
        for j, i in enumerate(pairings):
            a, d = att[i], dfn[i]
            roll_a, roll_d = rolls[2 * j], rolls[2 * j + 1]
            to_d = roll_a if roll_a <= a.attack + mod_a else 0
            to_a = roll_d if roll_d <= d.attack + mod_d else 0
            volleys_a, volleys_d = [to_a], [to_d]
            extra = None
            if diagonal_fires and diagonal is not None and i == n - 1:
                extra = diagonal
                hits = hits_of(rolls[-1], diagonal.attack, far, self.bonus[diagonal.side])
                (volleys_d if diagonal.side == ATTACKER else volleys_a).append(hits)
            if self.events is not None:
                shots = tuple(rolls[2 * j:2 * j + (2 if extra is None else 3)])
                self.log_shots(i + 1, a, d, extra, shots, far)
            if to_a or len(volleys_a) > 1:
                self.damage(i + 1, a, volleys_a)
            if to_d or len(volleys_d) > 1:
                self.damage(i + 1, d, volleys_d)

    def log_shots(self, p: int, a: ShipState, d: ShipState, diagonal: ShipState | None,
                  faces: tuple[int, ...], far: bool) -> None:
        shots = [(a, d), (d, a)]
        if diagonal is not None:
            shots.append((diagonal, d if diagonal.side == ATTACKER else a))
        for (shooter, target), roll in zip(shots, faces, strict=True):
            bonus = self.bonus[shooter.side]
            hits = hits_of(roll, shooter.attack, far, bonus)
            self.log("R-NAV-6", "gunfire", pairing=p, shooter=shooter.id, side=shooter.side,
                     target=target.id, diagonal=shooter is diagonal, distance=self.distance,
                     dice=[roll], attack=shooter.attack + bonus - (1 if far else 0),
                     hit=hits > 0, hits=hits)

    def damage(self, p: int, target: ShipState, volleys: list[int]) -> None:
        if self.events is None:  # fast path: a ship that stays afloat needs no allocation
            incoming = sum(volleys)
            if target.hits + incoming < target.defence:
                target.hits += incoming
                return
        diverted, sunk = take_volleys(target, volleys)  # R-NAV-7
        self.gaps = self.gaps or sunk
        if self.events is not None:
            self.log("R-NAV-7", "damage", pairing=p, ship=target.id, side=target.side,
                     volleys=volleys, diverted=diverted, hits=target.hits,
                     defence=target.defence, sunk=sunk)

    def board(self, p: int, boarder: ShipState, target: ShipState) -> None:
        """R-NAV-8: the crews fight a boarding duel (R-BRD); a lost duel captures the ship."""
        events = self.events
        if events is not None:
            self.log("R-NAV-8", "boarding", pairing=p, boarder=boarder.id, side=boarder.side,
                     target=target.id, boarders_cp=boarder.cp,
                     defenders_cp=target.cp)
        if self.d8 is None and self.d6 is not None:
            self.d8 = simulation_faces(self.dice, 8)
        result = duel(self.dice, boarder.crew, target.crew,
                      purpose=f"naval:r{self.round}:p{p}:brd" if self.named else "",
                      record_events=events is not None, boarders_seats=boarder.seats,
                      defenders_seats=target.seats, d8=self.d8)
        boarder.set_crew(result.boarders_left)
        target.set_crew(result.defenders_left)
        boarder.overwhelmed += result.boarders_lost
        target.overwhelmed += result.defenders_lost
        vp_boarder, vp_target = boarding_vp(result, target.seats)  # R-VP-1
        self.vp[boarder.side] += vp_boarder
        self.vp[target.side] += vp_target
        if result.captured:
            self.gaps = True
            target.state = CAPTURED
            target.captured_by = boarder.side
            self.captures.append((target, self.round, vp_boarder))
        if events is not None:
            for event in result.events:
                events.append({**event, "round": self.round, "pairing": p})
            self.log("R-NAV-8", "boarding_result", pairing=p, boarder=boarder.id,
                     target=target.id, captured=result.captured, stalemate=result.stalemate,
                     vp={boarder.side: vp_boarder, target.side: vp_target})

    # --- reorganisation (R-NAV-10) ------------------------------------------------------------

    def reorganise(self) -> None:
        """Gaps close from the back; the new front ships are the flagships."""
        if self.gaps:  # a ship sank or was captured this round
            for s in SIDES:
                self.lines[s] = [st for st in self.lines[s] if st.state == AFLOAT]
            self.line_stats()
            self.gaps = False
        if self.events is not None:
            self.log("R-NAV-10", "reorganise", lines=self.line_ids(), distance=self.distance)

    def line_stats(self) -> None:
        """Cache each line's CF and lowest agility for the maneuver step."""
        cf_a, agility_a = _stats(self.lines[ATTACKER])
        cf_d, agility_d = _stats(self.lines[DEFENDER])
        self.cf = (cf_a, cf_d)
        self.agility = (agility_a, agility_d)

    # --- end of battle (R-NAV-8, R-NAV-11) ----------------------------------------------------

    def present(self) -> dict[str, bool]:
        """The sides still in the area: ships left, not retreated."""
        return {s: bool(self.lines[s]) and s not in self.retreated for s in SIDES}

    def winner(self, end: str) -> str | None:
        """R-NAV-11: the side that still has ships when the other has none."""
        if end != "destroyed":
            return None
        present = self.present()
        if present[ATTACKER] != present[DEFENDER]:
            return ATTACKER if present[ATTACKER] else DEFENDER
        return None

    def outcome(self, end: str) -> NavalOutcome:
        present = self.present()
        winner = self.winner(end)
        retreated = None
        if self.retreated:
            retreated = self.retreated[0] if len(self.retreated) == 1 else "both"
        captures = tuple(self.prize(st, rnd, vp, present) for st, rnd, vp in self.captures)
        holders = {c.ship_id: c.holder for c in captures}
        ships = tuple(_ship_result(st, holders) for s in SIDES for st in self.ships[s])
        if self.events is not None:
            self.log("R-NAV-11", "end", reason=end, winner=winner, retreated=retreated,
                     distance=self.distance)
            for c in captures:
                self.log("R-NAV-8", "prize", ship=c.ship_id, captured_by=c.captured_by,
                         holder=c.holder, destroyed=c.holder is None)
            self.log("R-VP-1", "victory_points", vp=dict(self.vp))
        return NavalOutcome(winner, retreated, self.round, self.distance, end, ships, captures,
                            dict(self.vp), self.events if self.events is not None else [])

    @staticmethod
    def prize(st: ShipState, rnd: int, vp: int, present: dict[str, bool]) -> Capture:
        """R-NAV-8: a captured ship joins the capturer if it still has ships in the area, else
        the other player, else it is destroyed. A side that retreated has no ships left in the
        area (R-NAV-12: it went to an adjacent area). The capture's victory points stay with
        the capturer wherever the ship ends up."""
        by = st.captured_by
        assert by is not None, "only captured ships are prizes"
        holder = by if present[by] else other(by) if present[other(by)] else None
        return Capture(st.id, st.side, by, holder, rnd, vp)


def _stats(line: list[ShipState]) -> tuple[int, int]:
    """A line's CF (R-FLT-3) and lowest agility (R-NAV-3); (0, 0) for an empty line."""
    if not line:
        return 0, 0
    cf, lowest = 0, line[0].agility
    for st in line:
        cf += st.attack
        if st.agility < lowest:
            lowest = st.agility
    return cf, lowest


def pair(values: tuple | None) -> dict | None:
    """(attacker, defender) as a dict for the event log."""
    if not values:
        return None
    attacker, defender = values
    return {ATTACKER: attacker, DEFENDER: defender}


def _ship_result(st: ShipState, holders: dict[int, str | None]) -> ShipResult:
    holder: str | None = st.side
    if st.state == SUNK:
        holder = None
    elif st.state == CAPTURED:
        holder = holders[st.id]
    aboard = holder is not None  # sunk, or a prize destroyed: everything aboard is lost
    return ShipResult(st.id, st.side, st.state, holder, st.captured_by, st.hits,
                      st.crew if aboard else (), st.cargo if aboard else (),
                      st.cargo_destroyed, st.crew_destroyed, st.overwhelmed)


def resolve_naval_battle(dice: Dice, attacker: NavalSide, defender: NavalSide, *,
                         max_rounds: int = 12, advantage: str | None = None,
                         record_events: bool = True) -> NavalOutcome:
    """Fight a naval battle (R-NAV-1..11) and return its outcome with the event log (R-NAV-13).

    ``advantage``: the side that won the interception advantage (R-NAV-9). With
    ``record_events=False`` (odds previews) no event dicts are built; the dice are the same."""
    _check_battle(attacker, defender, max_rounds, advantage)
    battle = Battle(dice, attacker, defender, advantage, record_events)
    return battle.outcome(battle.run(max_rounds))


def naval_battle_winner(dice: Dice, attacker: NavalSide, defender: NavalSide, *,
                        max_rounds: int = 12, advantage: str | None = None) -> str | None:
    """``resolve_naval_battle(..., record_events=False).winner``: the same battle and dice,
    without the per-ship results an odds preview (R-ODDS-1) does not read."""
    _check_battle(attacker, defender, max_rounds, advantage)
    battle = Battle(dice, attacker, defender, advantage, False)
    return battle.winner(battle.run(max_rounds))


def _check_battle(attacker: NavalSide, defender: NavalSide, max_rounds: int,
                  advantage: str | None) -> None:
    if attacker.key != ATTACKER or defender.key != DEFENDER:
        raise ValueError("attacker and defender sides need the keys 'attacker' and 'defender'")
    if advantage not in (None, ATTACKER, DEFENDER):
        raise ValueError(f"advantage must be 'attacker', 'defender' or None, not {advantage!r}")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    ids = [ship.id for ship in attacker.ships + defender.ships]
    if len(set(ids)) != len(ids):
        raise ValueError("ship ids must be unique within a battle")
