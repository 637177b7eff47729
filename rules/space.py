"""D6 space combat, the alternative naval engine (R-SPC-1..8, source 002).

``resolve_space_battle`` fights two sides to the end (R-SPC-8). Every roll is one draw with a
purpose ``spc:r<round>:<kind>:ship=<id>``; D6-system rolls use the wild die (R-DICE-5).
With ``record_events=False`` no event dicts are built (odds previews, R-ODDS-1).
"""

from __future__ import annotations

from rules.dice import Dice, WildRoll, wild_roll
from rules.dicecode import (
    DiceCode,
    add_dice,
    add_pips,
    format_code,
    lose_dice,
    parse_code,
)
from rules.space_model import (
    CODE_SYSTEMS,
    SIDES,
    Captain,
    Datasheet,
    ShipResult,
    SpaceOutcome,
    SpaceShip,
    SpaceSide,
    combat_factor,
)
from rules.space_ship import ShipState, band_name

__all__ = [
    "CODE_SYSTEMS", "Captain", "Datasheet", "DiceCode", "ShipResult", "SpaceOutcome",
    "SpaceShip", "SpaceSide", "add_dice", "add_pips", "combat_factor", "format_code",
    "lose_dice", "parse_code", "resolve_space_battle",
]

RANGE_CM = 10  # R-SPC-2: attacks reach 10 cm


def resolve_space_battle(dice: Dice, attacker: SpaceSide, defender: SpaceSide, *,
                         max_rounds: int = 12, start_distance_cm: int = 30,
                         advantage: str | None = None,
                         record_events: bool = True) -> SpaceOutcome:
    """Fight rounds (R-SPC-3) until a side has no active ships or ``max_rounds`` (R-SPC-8).

    ``advantage``: the side holding the interception advantage (R-INT-4 a): +1 pip on its
    initiative and attack rolls in the first round."""
    _validate(attacker, defender, max_rounds, advantage)
    battle = _Battle(dice, attacker, defender, start_distance_cm, advantage,
                     [] if record_events else None)
    rounds = 0
    while rounds < max_rounds and not battle.over():
        rounds += 1
        battle.play_round(rounds)
    return battle.outcome(rounds)


def _validate(attacker: SpaceSide, defender: SpaceSide, max_rounds: int,
              advantage: str | None) -> None:
    if attacker.key != "attacker" or defender.key != "defender":
        raise ValueError("pass the attacker side first and the defender side second")
    if advantage not in (None, *SIDES):
        raise ValueError(f"advantage must be None or one of {SIDES}")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    ids = [s.id for s in attacker.ships + defender.ships]
    if len(ids) != len(set(ids)):
        raise ValueError("ship ids must be unique across both sides")


def _roll(dice: Dice, code: tuple[int, int], purpose: str, extra_pips: int = 0) -> WildRoll:
    """One D6-system roll of a (dice, pips) code with the wild die (R-DICE-5)."""
    return wild_roll(dice, code[0], code[1] + extra_pips, purpose)


def _roll_event(rule: str, step: str, rnd: int, ship: ShipState, code: tuple[int, int],
                roll: WildRoll, **extra) -> dict:
    return {"rule": rule, "step": step, "round": rnd, "ship": ship.id,
            "code": format_code(DiceCode(*code)), "dice": list(roll.faces),
            "total": roll.total, "fumble": roll.fumble, **extra}


def _plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Two codes rolled together (targeting + gun damage, shields + hull)."""
    return a[0] + b[0], a[1] + b[1]


class _Battle:
    def __init__(self, dice: Dice, attacker: SpaceSide, defender: SpaceSide, start: int,
                 advantage: str | None, ev: list | None) -> None:
        self.dice = dice
        self.start = start
        self.advantage = advantage
        self.ev = ev
        self.sides = {side.key: [ShipState(ship, side.key) for ship in side.ships]
                      for side in (attacker, defender)}
        self.ships = self.sides["attacker"] + self.sides["defender"]
        self._update_over()
        if ev is not None:
            ev.append({"rule": "R-SPC-2", "step": "setup", "start_distance_cm": start,
                       "advantage": advantage,
                       "ships": {s.id: {"side": s.side, "name": s.ship.name,
                                        "datasheet": s.ship.datasheet.as_dict(),
                                        "captain": _captain(s.ship)} for s in self.ships}})

    def over(self) -> bool:
        return self._over

    def _update_over(self) -> None:
        """Re-check R-SPC-8 after anything that may destroy a ship (a hit or a fumble)."""
        self._over = not all(any(not s.destroyed for s in ships)
                             for ships in self.sides.values())

    def _pip(self, ship: ShipState, rnd: int) -> int:
        """Interception advantage (R-INT-4 a): +1 pip in the first round."""
        return 1 if rnd == 1 and ship.side == self.advantage else 0

    # --- R-SPC-3 round -------------------------------------------------------------------

    def play_round(self, rnd: int) -> None:
        if self.ev is not None:
            self.ev.append({"rule": "R-SPC-3", "step": "round", "round": rnd})
        for ship in self.ships:
            if not ship.destroyed:
                self._initiative(ship, rnd)
        if not self.over():
            for ship in self._order(rnd):
                if self.over():
                    break
                if not ship.destroyed:
                    self._act(ship, rnd)
        if not self.over():
            self._repair(rnd)
        for ship in self.ships:
            ship.end_round()

    def _initiative(self, ship: ShipState, rnd: int) -> None:
        """(1) maneuver dice + speed, kept for the round; fumble: initiative = speed and a
        random system loses 1D ([reading] the advantage pip does not apply then)."""
        code = ship.live["maneuver"]
        roll = _roll(self.dice, code, f"spc:r{rnd}:init:ship={ship.id}", self._pip(ship, rnd))
        speed = ship.speed
        ship.initiative = speed if roll.fumble else roll.total + speed
        if self.ev is not None:
            self.ev.append(_roll_event("R-SPC-3", "initiative", rnd, ship, code, roll,
                                       speed=speed, initiative=ship.initiative,
                                       advantage_pip=self._pip(ship, rnd)))
        if roll.fumble:
            self._fumble(ship, rnd, "R-SPC-3")

    def _fumble(self, ship: ShipState, rnd: int, rule: str) -> None:
        face = self.dice.roll(1, 6, f"spc:r{rnd}:fumble:ship={ship.id}")[0]
        hit = ship.fumble_step(face)
        self._update_over()
        if self.ev is not None:
            self.ev.append({"rule": rule, "step": "fumble_damage", "round": rnd,
                            "ship": ship.id, "dice": [face], "hit": hit,
                            "destroyed": ship.destroyed})

    def _order(self, rnd: int) -> list[ShipState]:
        """Descending initiative; each group of tied ships is ordered by draws from the dice
        (a uniform shuffle: pick the next ship with a d<k> from the k still unordered)."""
        alive = sorted((s for s in self.ships if not s.destroyed), key=lambda s: -s.initiative)
        order: list[ShipState] = []
        draws: list[list[int]] = []
        i = 0
        while i < len(alive):
            group = [s for s in alive[i:] if s.initiative == alive[i].initiative]
            i += len(group)
            purpose = f"spc:r{rnd}:order:ships={','.join(str(s.id) for s in group)}"
            while len(group) > 1:
                face = self.dice.roll(1, len(group), purpose)[0]
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

    def _act(self, ship: ShipState, rnd: int) -> None:
        """(2)-(4): move toward the enemy with the lowest remaining hull, then attack.

        [reading] R-SPC-2/3: the ship attacks its target if within range, else the in-range
        enemy with the lowest remaining hull, if any (ties: datasheet order)."""
        enemies = [s for s in self.sides[_other(ship.side)] if not s.destroyed]
        target = min(enemies, key=_hull_key)
        distance = self._distance(ship, target)
        moved = min(max(0, ship.initiative), max(0, distance - RANGE_CM))
        ship.advance += moved
        in_range = [s for s in enemies if self._distance(ship, s) <= RANGE_CM]
        victim = min(in_range, key=_hull_key) if in_range else None
        if self.ev is not None:
            self.ev.append({"rule": "R-SPC-2", "step": "move", "round": rnd, "ship": ship.id,
                            "target": target.id, "moved_cm": moved, "advance": ship.advance,
                            "distance": self._distance(ship, target),
                            "attacks": victim.id if victim else None})
        if victim is not None:
            self._attack(ship, victim, rnd)

    def _attack(self, ship: ShipState, victim: ShipState, rnd: int) -> None:
        """R-SPC-4: targeting + gun damage vs the target's initiative; lower misses.

        [reading] R-SPC-6: a ship whose guns are at 0D has no guns left and does not attack."""
        if ship.live["gun_damage"][0] == 0:
            if self.ev is not None:
                self.ev.append({"rule": "R-SPC-4", "step": "attack", "round": rnd,
                                "ship": ship.id, "target": victim.id, "decision": "no guns"})
            return
        code = _plus(ship.live["targeting"], ship.live["gun_damage"])
        roll = _roll(self.dice, code, f"spc:r{rnd}:attack:ship={ship.id}",
                         self._pip(ship, rnd))
        decision = "fumble" if roll.fumble else (
            "miss" if roll.total < victim.initiative else "hit")
        if self.ev is not None:
            self.ev.append(_roll_event("R-SPC-4", "attack", rnd, ship, code, roll,
                                       target=victim.id, vs=victim.initiative,
                                       advantage_pip=self._pip(ship, rnd), decision=decision))
        if roll.fumble:
            self._fumble(ship, rnd, "R-SPC-4")
        elif decision == "hit":
            self._hit(victim, roll.total, rnd)

    def _hit(self, ship: ShipState, attack: int, rnd: int) -> None:
        """R-SPC-5: shields + hull (hull only while shields are down) vs the attack."""
        live = ship.live
        code = live["hull"] if ship.shields_down else _plus(live["shields"], live["hull"])
        roll = _roll(self.dice, code, f"spc:r{rnd}:defence:ship={ship.id}")
        difference = attack - roll.total
        if self.ev is not None:
            self.ev.append(_roll_event("R-SPC-5", "defence", rnd, ship, code, roll,
                                       shields_down=ship.shields_down, attack=attack,
                                       difference=difference,
                                       decision=band_name(difference)))
        if difference >= 0:
            ship.take_hit(self.dice, difference, f"spc:r{rnd}:hit:ship={ship.id}", self.ev)
            self._update_over()
        if roll.fumble:  # the 1 counted; the shields fail after this hit, until round end
            ship.shields_down = True
        if ship.destroyed and self.ev is not None:
            self.ev.append({"rule": "R-SPC-5", "step": "destroyed", "round": rnd,
                            "ship": ship.id})

    # --- R-SPC-7 repair, R-SPC-8 end ------------------------------------------------------

    def _repair(self, rnd: int) -> None:
        """1d6, no wild die: 1 nothing, 2-5 one damage, 6 two. [reading] Only ships with
        damage to repair roll (a roll for an undamaged ship could change nothing)."""
        for ship in self.ships:
            if ship.destroyed or not ship.damaged():
                continue
            face = self.dice.roll(1, 6, f"spc:r{rnd}:repair:ship={ship.id}")[0]
            repaired = ship.repair(0 if face == 1 else 2 if face == 6 else 1)
            if self.ev is not None:
                self.ev.append({"rule": "R-SPC-7", "step": "repair", "round": rnd,
                                "ship": ship.id, "dice": [face], "repaired": repaired})

    def outcome(self, rounds: int) -> SpaceOutcome:
        alive = {key: any(not s.destroyed for s in ships) for key, ships in self.sides.items()}
        winner = None
        if alive["attacker"] != alive["defender"]:
            winner = "attacker" if alive["attacker"] else "defender"
        reason = "annihilation" if self.over() else "max_rounds"
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


def _hull_key(ship: ShipState) -> tuple[int, int]:
    return ship.hull_key


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"
