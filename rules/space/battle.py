"""One D6 space battle (R-SPC-1..8, source 002).

``resolve_space_battle`` fights two sides to the end (R-SPC-8). Every roll is one draw with a
purpose ``spc:r<round>:<kind>:<a|d><place>`` (the side and the ship's place in its line when
the battle began; ``spc:r<round>:order`` for the picks among tied ships), which names the step
and never the ship (R-DICE-3); D6-system rolls use the wild die (R-DICE-5).
With ``record_events=False`` no event dicts are built (odds previews, R-ODDS-1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rules.dice import Dice, WildRoll, simulation_faces, wild_roll
from rules.dicecode import DiceCode, format_code
from rules.space.model import SIDES, SpaceOutcome, SpaceShip, SpaceSide
from rules.space.ship import ShipState, band_name

RANGE_CM: Final = 10  # R-SPC-2: attacks reach 10 cm


def resolve_space_battle(dice: Dice, attacker: SpaceSide, defender: SpaceSide, *,
                         max_rounds: int = 12, start_distance_cm: int = 30,
                         advantage: str | None = None,
                         record_events: bool = True) -> SpaceOutcome:
    """Fight rounds (R-SPC-3) until a side has no active ships or ``max_rounds`` (R-SPC-8).

    ``advantage``: the side holding the interception advantage (R-INT-4 a): +1 pip on its
    initiative and attack rolls in the first round."""
    battle, rounds = _fight(dice, attacker, defender, max_rounds, start_distance_cm, advantage,
                            [] if record_events else None)
    return battle.outcome(rounds)


def space_battle_winner(dice: Dice, attacker: SpaceSide, defender: SpaceSide, *,
                        max_rounds: int = 12, start_distance_cm: int = 30,
                        advantage: str | None = None) -> str | None:
    """``resolve_space_battle(..., record_events=False).winner``, the same battle and dice,
    without the per-ship results an odds preview (R-ODDS-1) does not read."""
    battle, _ = _fight(dice, attacker, defender, max_rounds, start_distance_cm, advantage, None)
    return battle.winner()


def _fight(dice: Dice, attacker: SpaceSide, defender: SpaceSide, max_rounds: int,
           start_distance_cm: int, advantage: str | None,
           ev: list | None) -> tuple[_Battle, int]:
    """Rounds (R-SPC-3) until a side has no active ships or ``max_rounds`` (R-SPC-8)."""
    _validate(attacker, defender, max_rounds, advantage)
    battle = _Battle(dice, attacker, defender, start_distance_cm, advantage, ev)
    rounds = 0
    while rounds < max_rounds and not battle._over:
        rounds += 1
        battle.play_round(rounds)
    return battle, rounds


def _validate(attacker: SpaceSide, defender: SpaceSide, max_rounds: int,
              advantage: str | None) -> None:
    if attacker.key != "attacker" or defender.key != "defender":
        raise ValueError("pass the attacker side first and the defender side second")
    if advantage is not None and advantage not in SIDES:
        raise ValueError(f"advantage must be None or one of {SIDES}")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    ids = [s.id for s in attacker.ships + defender.ships]
    if len(ids) != len(set(ids)):
        raise ValueError("ship ids must be unique across both sides")


def _roll_event(rule: str, step: str, rnd: int, ship: ShipState, code: tuple[int, int],
                roll: WildRoll, **extra) -> dict:
    return {"rule": rule, "step": step, "round": rnd, "ship": ship.id,
            "code": format_code(DiceCode(*code)), "dice": list(roll.faces),
            "total": roll.total, "fumble": roll.fumble, **extra}


def wild6(d6: Callable[[], int], n: int, pips: int) -> tuple[int, bool]:
    """``SimulationDice.wild_total(n, pips)`` read from its d6 stream: the wild die first,
    then the other dice, then the wild die's re-rolls while it shows 6 (R-DICE-5)."""
    if n <= 0:
        return pips, False
    wild = last = d6()
    total = wild + pips
    for _ in range(n - 1):
        total += d6()
    while last == 6:
        last = d6()
        total += last
    return total, wild == 1


def _sort_stable(ships: list[ShipState], by_initiative: bool) -> None:
    """Sort in place, stably: by descending initiative, or by ascending id (R-DICE-2). An
    insertion sort: a dozen ships sort faster so, compiled, than by ``list.sort`` with a key."""
    for i in range(1, len(ships)):
        ship = ships[i]
        j = i - 1
        if by_initiative:
            while j >= 0 and ships[j].initiative < ship.initiative:
                ships[j + 1] = ships[j]
                j -= 1
        else:
            while j >= 0 and ships[j].id > ship.id:
                ships[j + 1] = ships[j]
                j -= 1
        ships[j + 1] = ship


class _Battle:
    """Mutable battle state. Hot path of odds previews (R-ODDS-1): with ``ev`` None no event
    dict and no roll object is built (``wild_total``, ``one_face`` read the same faces), the
    active ships are kept per side (``alive``) and each ship's rolled sets are cached."""

    def __init__(self, dice: Dice, attacker: SpaceSide, defender: SpaceSide, start: int,
                 advantage: str | None, ev: list | None) -> None:
        self.dice = dice
        self.start = start
        self.advantage = advantage
        self.ev = ev
        self.sides = {side.key: [ShipState(ship, side.key, slot=slot)
                                 for slot, ship in enumerate(side.ships, start=1)]
                      for side in (attacker, defender)}
        self.ships = self.sides["attacker"] + self.sides["defender"]
        # active ships per side, in datasheet order; the enemies of a side's ships
        self.alive = {key: list(ships) for key, ships in self.sides.items()}
        self.enemies = {"attacker": self.alive["defender"], "defender": self.alive["attacker"]}
        # per side: its active ship with the lowest remaining hull (R-SPC-3), None: look again
        self.weakest: dict[str, ShipState | None] = {"attacker": None, "defender": None}
        self.wild = dice.wild_total  # the fast helpers of ``Dice``: the same faces, no objects
        self.face = dice.one_face
        self.d6 = simulation_faces(dice)  # odds previews: read the faces directly
        self.readers: dict[int, Callable[[], int]] = {}  # and so the other dice (``_face``)
        self.named = dice.named  # False: the dice ignore purposes, none need be built
        self._over = not (self.alive["attacker"] and self.alive["defender"])
        if ev is not None:
            ev.append({"rule": "R-SPC-2", "step": "setup", "start_distance_cm": start,
                       "advantage": advantage,
                       "ships": {s.id: {"side": s.side, "name": s.ship.name,
                                        "datasheet": s.ship.datasheet.as_dict(),
                                        "captain": _captain(s.ship)} for s in self.ships}})

    def over(self) -> bool:
        return self._over

    def _wild(self, n: int, pips: int, purpose: str) -> tuple[int, bool]:
        """``(total, fumble)`` of a wild-die roll (``Dice.wild_total``)."""
        d6 = self.d6
        return self.wild(n, pips, purpose) if d6 is None else wild6(d6, n, pips)

    def _face(self, sides: int, purpose: str) -> int:
        """One die as one draw (``Dice.one_face``)."""
        d6 = self.d6
        if d6 is None:
            return self.face(sides, purpose)
        if sides == 6:
            return d6()
        read = self.readers.get(sides)  # a tie's d<k> (``_order``)
        if read is None:
            read = simulation_faces(self.dice, sides)
            assert read is not None, "the dice that gave d6"
            self.readers[sides] = read
        return read()

    def _check(self, ship: ShipState, hull_before: tuple[int, int]) -> None:
        """After anything that may have changed ``ship``'s hull or destroyed it (a hit, a
        fumble, a repair): forget its side's weakest ship and re-check R-SPC-8."""
        if ship.hull_key != hull_before or ship.destroyed:
            self.weakest[ship.side] = None
        if ship.destroyed:
            alive = self.alive[ship.side]
            if ship in alive:
                alive.remove(ship)
            self._over = not (self.alive["attacker"] and self.alive["defender"])

    # --- R-SPC-3 round -------------------------------------------------------------------

    def play_round(self, rnd: int) -> None:
        """One round (R-SPC-3): (1) every ship rolls initiative, (2)-(4) in initiative order
        each moves and attacks, then damage is repaired (R-SPC-7). The per-ship steps are
        inlined: this loop is the hot path of odds previews."""
        ev = self.ev
        if ev is not None:
            ev.append({"rule": "R-SPC-3", "step": "round", "round": rnd})
        prefix = f"spc:r{rnd}:"
        # Interception advantage (R-INT-4 a): +1 pip in the first round
        favoured = self.advantage if rnd == 1 else None
        named = self.named
        for ship in self.ships:
            if ship.destroyed:
                continue
            # (1) maneuver dice + speed, kept for the round; fumble: initiative = speed and a
            # random system loses 1D (R-SPC-3: speed alone, so the advantage pip is not added)
            pip = 1 if ship.side == favoured else 0
            dice, pips = ship.init_code
            if ev is None:
                total, fumble = self._wild(dice, pips + pip,
                                           prefix + ship.purposes["init"] if named else "")
            else:
                roll = wild_roll(self.dice, dice, pips + pip, prefix + ship.purposes["init"])
                total, fumble = roll.total, roll.fumble
            speed = ship.speed
            ship.initiative = speed if fumble else total + speed
            if ev is not None:
                ev.append(_roll_event("R-SPC-3", "initiative", rnd, ship, ship.init_code,
                                      roll, speed=speed, initiative=ship.initiative,
                                      advantage_pip=pip))
            if fumble:
                self._fumble(ship, rnd, prefix, "R-SPC-3")
        if not self._over:
            alive, weakest, start = self.alive, self.weakest, self.start
            for ship in self._order(rnd):
                if self._over:
                    break
                if ship.destroyed:
                    continue
                # (2)-(3) R-SPC-2/3: move toward the enemy with the lowest remaining hull, then
                # [reading] attack it if within range, else the in-range enemy with the lowest
                # remaining hull, if any (ties: datasheet order)
                foe = ship.foe
                enemies = alive[foe]
                target = weakest[foe]
                if target is None:  # the first of the lowest (a loop: cheaper compiled)
                    target = enemies[0]
                    for enemy in enemies:
                        if enemy.hull_key < target.hull_key:
                            target = enemy
                    weakest[foe] = target
                # up to its initiative, stopping at range: min(max(0, initiative), max(0, room))
                advance = ship.advance
                room = start - advance - target.advance - RANGE_CM
                moved = ship.initiative
                if moved <= 0 or room <= 0:
                    moved = 0
                elif room < moved:
                    moved = room
                ship.advance = advance = advance + moved
                # an enemy e is in range when start - advance - e.advance <= RANGE_CM
                reach = start - RANGE_CM - advance
                if target.advance >= reach:
                    victim = target  # the lowest hull of all is the lowest of those in range
                else:
                    victim = None
                    for enemy in enemies:
                        if enemy.advance >= reach and (victim is None
                                                       or enemy.hull_key < victim.hull_key):
                            victim = enemy
                if ev is not None:
                    ev.append({"rule": "R-SPC-2", "step": "move", "round": rnd,
                               "ship": ship.id, "target": target.id, "moved_cm": moved,
                               "advance": ship.advance,
                               "distance": self._distance(ship, target),
                               "attacks": victim.id if victim else None})
                if victim is None:
                    continue
                # (4) R-SPC-4: targeting + gun damage vs the target's initiative; lower misses.
                # A system at 0D adds no dice (guns at 0D: the targeting dice alone); only a ship
                # with no attack dice at all does not attack.
                if ship.attack_code[0] == 0:
                    if ev is not None:
                        ev.append({"rule": "R-SPC-4", "step": "attack", "round": rnd,
                                   "ship": ship.id, "target": victim.id,
                                   "decision": "no guns"})
                    continue
                pip = 1 if ship.side == favoured else 0
                dice, pips = ship.attack_code
                if ev is None:
                    total, fumble = self._wild(dice, pips + pip,
                                               prefix + ship.purposes["attack"] if named else "")
                else:
                    roll = wild_roll(self.dice, dice, pips + pip,
                                     prefix + ship.purposes["attack"])
                    total, fumble = roll.total, roll.fumble
                    decision = "fumble" if fumble else (
                        "miss" if total < victim.initiative else "hit")
                    ev.append(_roll_event("R-SPC-4", "attack", rnd, ship, ship.attack_code,
                                          roll, target=victim.id, vs=victim.initiative,
                                          advantage_pip=pip, decision=decision))
                if fumble:
                    self._fumble(ship, rnd, prefix, "R-SPC-4")
                elif total >= victim.initiative:
                    self._hit(victim, total, rnd, prefix)
        if not self._over:
            self._repair(rnd, prefix)
        for ship in self.ships:
            if ship.shields_down or ship.bonus_off:
                ship.end_round()

    def _fumble(self, ship: ShipState, rnd: int, prefix: str, rule: str) -> None:
        face = self._face(6, prefix + ship.purposes["fumble"] if self.named else "")
        hull_before = ship.hull_key
        hit = ship.fumble_step(face)
        self._check(ship, hull_before)
        if self.ev is not None:
            self.ev.append({"rule": rule, "step": "fumble_damage", "round": rnd,
                            "ship": ship.id, "dice": [face], "hit": hit,
                            "destroyed": ship.destroyed})

    def _order(self, rnd: int) -> list[ShipState]:
        """Descending initiative; each group of tied ships is ordered by draws from the dice
        (R-DICE-2: a shuffle - the tied ships in ascending id, the next one picked with a d<k>
        from the k still unordered, one draw per pick, none for the last)."""
        alive = [s for s in self.ships if not s.destroyed]
        _sort_stable(alive, True)
        order: list[ShipState] = []
        draws: list[list[int]] = []
        ev = self.ev
        start, count = 0, len(alive)
        while start < count:  # each run of equal initiative (a stable sort keeps their order)
            initiative, end = alive[start].initiative, start + 1
            while end < count and alive[end].initiative == initiative:
                end += 1
            if end == start + 1:
                order.append(alive[start])
                start = end
                continue
            group = alive[start:end]
            start = end
            _sort_stable(group, False)
            # R-DICE-3: the purpose names the step, not the ships tied (the replay does)
            purpose = f"spc:r{rnd}:order" if self.named else ""
            while len(group) > 1:
                face = self._face(len(group), purpose)
                if ev is not None:
                    draws.append([s.id for s in group] + [face])
                order.append(group.pop(face - 1))
            order += group
        if self.ev is not None:
            self.ev.append({"rule": "R-SPC-3", "step": "order", "round": rnd,
                            "order": [s.id for s in order],
                            "initiative": {s.id: s.initiative for s in order},
                            "dice": [d[-1] for d in draws],
                            "ties": [{"ships": d[:-1], "face": d[-1]} for d in draws]})
        return order

    # --- R-SPC-2 movement, R-SPC-4 attack, R-SPC-5 hit -------------------------------------

    def _distance(self, a: ShipState, b: ShipState) -> int:
        return max(0, self.start - a.advance - b.advance)

    def _hit(self, ship: ShipState, attack: int, rnd: int, prefix: str) -> None:
        """R-SPC-5: shields + hull (hull only while shields are down) vs the attack."""
        code = ship.hull_code if ship.shields_down else ship.defence_code
        named = self.named
        purpose = prefix + ship.purposes["defence"] if named else ""
        ev = self.ev
        if ev is None:
            total, fumble = self._wild(code[0], code[1], purpose)
        else:
            roll = wild_roll(self.dice, code[0], code[1], purpose)
            total, fumble = roll.total, roll.fumble
        difference = attack - total
        if ev is not None:
            ev.append(_roll_event("R-SPC-5", "defence", rnd, ship, code, roll,
                                  shields_down=ship.shields_down, attack=attack,
                                  difference=difference, decision=band_name(difference)))
        if difference >= 0:
            hull_before = ship.hull_key
            ship.take_hit(self.dice, difference, prefix + ship.purposes["hit"] if named else "",
                          ev, self.d6)
            self._check(ship, hull_before)
        if fumble:  # the 1 counted; the shields fail after this hit, until round end
            ship.shields_down = True
        if ship.destroyed and ev is not None:
            ev.append({"rule": "R-SPC-5", "step": "destroyed", "round": rnd, "ship": ship.id})

    # --- R-SPC-7 repair, R-SPC-8 end ------------------------------------------------------

    def _repair(self, rnd: int, prefix: str) -> None:
        """1d6, no wild die: 1 nothing, 2-5 one damage, 6 two. Every active ship rolls,
        damaged or not (R-SPC-7: the draw sequence does not depend on damage)."""
        for ship in self.ships:
            if ship.destroyed:
                continue
            face = self._face(6, prefix + ship.purposes["repair"] if self.named else "")
            if not ship.hurt and self.ev is None:  # nothing to give back, nothing to log
                continue
            hull_before = ship.hull_key
            repaired = ship.repair(0 if face == 1 else 2 if face == 6 else 1)
            self._check(ship, hull_before)
            if self.ev is not None:
                self.ev.append({"rule": "R-SPC-7", "step": "repair", "round": rnd,
                                "ship": ship.id, "dice": [face], "repaired": repaired})

    def winner(self) -> str | None:
        """R-SPC-8: the side with active ships when the other has none."""
        attacker, defender = bool(self.alive["attacker"]), bool(self.alive["defender"])
        if attacker != defender:
            return "attacker" if attacker else "defender"
        return None

    def outcome(self, rounds: int) -> SpaceOutcome:
        winner = self.winner()
        reason = "annihilation" if self._over else "max_rounds"
        if self.ev is not None:
            self.ev.append({"rule": "R-SPC-8", "step": "end", "rounds": rounds,
                            "winner": winner, "reason": reason,
                            "active": [s.id for s in self.ships if not s.destroyed]})
        return SpaceOutcome(winner, rounds, reason, tuple(s.result() for s in self.ships),
                            tuple(self.ev or ()))


def _captain(ship: SpaceShip) -> dict | None:
    cap = ship.captain
    return None if cap is None else {"name": cap.name, "dice_system": cap.dice_system,
                                     "pip_system": cap.pip_system}


