"""The ``fleets`` phase as one pure function (R-FLT-4..6, R-INT-1..6, R-SEA-1..2, R-NAV-8,
R-NAV-12, R-SPC, R-VP-1): ``resolve_fleet_phase(dice, phase)`` moves every fleet with orders
step by step, runs interceptions on leaving and entering, triggers sea hazards (on every
hostile entry: moves, withdrawals and retreats), fights the end-of-phase battles with the
campaign's engine, applies retreats and captures, and hands islands to their conquerors.
It returns the new state and a complete event log; the caller stores both. Engines are
called, never re-implemented: ``resolve_interception``, ``hazard_exchange``,
``choose_retreat``, ``resolve_naval_battle``, ``resolve_space_battle``.

Dice are drawn in this order: the players' order (``fleets:order``); then per move, in order,
the INT DRs of each interception and the hazard exchanges (a withdrawal's right after the
interception that caused it); then the battles, area by area in ascending id, each battle's
draws in one block, a retreat's hazard exchanges right after its battle. ``label(text)`` is
called before each block (the Django side stores it as the draws' object, R-DICE-3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rules.dice import Dice
from rules.fleet_phase.decisions import (
    ForceStanding,
    cargo_after,
    hazard_hostile,
    island_conqueror,
    move_goes_on,
    next_battle,
    player_order,
    prize_fleet,
    retreat_area,
)
from rules.fleet_phase.model import (
    D6_SPACE,
    BattleRecord,
    FleetAfter,
    Force,
    HazardAfter,
    Marker,
    PhaseFleet,
    PhaseHazard,
    PhaseInput,
    PhaseResult,
    PhaseShip,
    ShipAfter,
)
from rules.interception import InterceptFleet, InterceptionResult, resolve_interception
from rules.naval import (
    ATTACKER,
    DEFENDER,
    NavalSide,
    hazard_exchange,
    resolve_naval_battle,
)
from rules.naval import combat_factor as naval_cf
from rules.space import SpaceSide, resolve_space_battle
from rules.space import combat_factor as space_cf

__all__ = ["resolve_fleet_phase"]


def resolve_fleet_phase(dice: Dice, phase: PhaseInput, *,
                        label: Callable[[str], None] | None = None) -> PhaseResult:
    """Resolve the whole phase; see the module docstring."""
    run = _Phase(dice, phase, label or (lambda text: None))
    run.move_all()
    run.fight_all()
    run.conquer_islands()
    return run.result()


class _Fleet:
    """A fleet's mutable state during the phase."""

    __slots__ = ("src", "id", "force", "area", "ships", "arrival", "lost_all")

    def __init__(self, src: PhaseFleet) -> None:
        self.src = src
        self.id = src.id
        self.force = src.force
        self.area = src.area
        self.ships: list[PhaseShip] = list(src.ships)
        self.arrival = src.arrival
        self.lost_all = False

    @property
    def key(self) -> tuple[int, int, int]:
        """Arrival order (R-INT-6): (round, step) of the last arrival, then fleet id."""
        return (*self.arrival, self.id)

    @property
    def player(self) -> int | None:
        return self.force.player


class _Hazard:
    """A hazard's state: its hits add up over the whole campaign (R-SEA-2); one whose hits
    already reach its defence (e.g. the admin lowered it) is removed without firing."""

    __slots__ = ("src", "owner", "triggered", "hits", "active")

    def __init__(self, src: PhaseHazard) -> None:
        self.src = src
        self.owner = src.owner
        self.triggered = False
        self.hits = max(0, src.hits)
        self.active = self.hits < src.toughness


class _Phase:
    def __init__(self, dice: Dice, phase: PhaseInput, label: Callable[[str], None]) -> None:
        self.dice = dice
        self.phase = phase
        self.settings = phase.settings
        self.label = label
        self.areas = {a.id: a for a in phase.areas}
        self.fleets = {f.id: _Fleet(f) for f in phase.fleets}
        self.hazards = {h.id: _Hazard(h) for h in sorted(phase.hazards, key=lambda h: h.id)}
        self.island_owner = {a.id: a.owner for a in phase.areas if a.kind == "island"}
        self.lost: set[int] = set()
        self.markers: dict[int, Marker] = {}
        self.avoided: set[int] = set()  # R-INT-4 c): no further action this round
        # R-SEA-2: (ship, area) -> hits a flagship took from sea hazards in that area; they
        # count in the battle there and are cleared with the battle's hits (R-NAV-7)
        self.hazard_hits: dict[tuple[int, int], int] = {}
        self.advantages: list[tuple[int, int, int]] = []  # (area, winner, loser) of a)
        self.battles: list[BattleRecord] = []
        self.events: list[dict] = []
        self.order: tuple[int, ...] = ()
        self.step = 0

    # --- helpers ------------------------------------------------------------------------------

    def log(self, rule: str, step: str, players, **data) -> None:
        """A phase event; ``players`` the players it concerns (for the record)."""
        self.events.append({"rule": rule, "step": step,
                            "players": sorted({p for p in players if p is not None}), **data})

    def fleets_in(self, area: int) -> list[_Fleet]:
        """Fleets with ships in ``area``, in arrival order."""
        return sorted((f for f in self.fleets.values() if f.area == area and f.ships),
                      key=lambda f: f.key)

    def forces_in(self) -> dict[int, set[Force]]:
        forces: dict[int, set[Force]] = {}
        for fleet in self.fleets.values():
            if fleet.ships:
                here = forces.get(fleet.area)
                if here is None:  # (no empty set built per fleet: asked for every battle)
                    forces[fleet.area] = {fleet.force}
                else:
                    here.add(fleet.force)
        return forces

    def cf(self, ships) -> int:
        """R-FLT-3 with the campaign's engine."""
        if self.settings.engine == D6_SPACE:
            return space_cf(s.space() for s in ships)
        return naval_cf(s.naval() for s in ships)

    def arrive(self, fleet: _Fleet, area: int) -> None:
        """[reading] R-INT-6 arrival order: every entry (a move, a withdrawal, a retreat) is a
        new arrival; fleets that did not move since they were placed count by fleet id."""
        self.step += 1
        fleet.area = area
        fleet.arrival = (self.settings.round_number, self.step)

    def lose(self, fleet: _Fleet, ship_id: int) -> None:
        """A ship sinks or is destroyed with everything aboard (R-NAV-7, R-SPC-5)."""
        fleet.ships = [s for s in fleet.ships if s.id != ship_id]
        self.lost.add(ship_id)
        if not fleet.ships:
            fleet.lost_all = True
            self.log("R-FLT-1", "fleet_destroyed", [fleet.player], fleet=fleet.id,
                     area=fleet.area)

    # --- R-FLT-6 / R-FLT-4: movement ----------------------------------------------------------

    def move_all(self) -> None:
        """R-FLT-6. [reading] Pirate fleets have no owner to give orders and do not move."""
        orders = [o for o in self.phase.orders if o.fleet in self.fleets
                  and self.fleets[o.fleet].player is not None]
        players = {self.fleets[o.fleet].player for o in orders}
        if not players:
            return
        self.label("fleets:order")
        self.order, faces = player_order(self.dice, players)
        self.log("R-FLT-6", "player_order", self.order, order=list(self.order), dice=faces)
        for player in self.order:
            for order in orders:
                fleet = self.fleets[order.fleet]
                if fleet.player == player:
                    self.move(fleet, order.path)

    def move(self, fleet: _Fleet, path: tuple[int, ...]) -> None:
        players = [fleet.player]
        if not fleet.ships:
            return self.log("R-FLT-4", "no_move", players, fleet=fleet.id, reason="no ships")
        # R-INT-4 c): a fleet that avoided combat takes no further action this round
        if fleet.id in self.avoided:
            return self.log("R-INT-4", "no_move", players, fleet=fleet.id,
                            reason="avoided combat (c): the fleet takes no further action this "
                                   "round; its order lapses")
        # R-INT-4 d): a fleet that withdrew before its turn still carries out its order, from
        # the area it now stands in (void if the path's first area is not adjacent to it); its
        # NO INTERCEPTION marker keeps it out of interceptions (R-INT-2)
        withdrawn = fleet.id in self.markers and self.markers[fleet.id].kind == "withdraw"
        limit = self.settings.max_fleet_moves
        path = tuple(path[:limit]) if limit is not None else tuple(path)
        self.log("R-FLT-4", "order", players, fleet=fleet.id, start=fleet.area, path=list(path),
                 withdrawn=withdrawn)
        resumed_in = None
        for index, target in enumerate(path):
            here = fleet.area
            if target not in self.areas[here].adjacent:
                if withdrawn and index == 0:
                    return self.log("R-INT-4", "order_lapsed", players, fleet=fleet.id,
                                    area=here, to=target,
                                    reason="the first area of its path is not adjacent to the "
                                           "area it withdrew to: the order is void")
                # the map changed since the order
                return self.log("R-FLT-4", "order_lapsed", players, fleet=fleet.id, area=here,
                                to=target, reason="not adjacent")
            if resumed_in != here:
                result = self.intercept(fleet, here, entering=False)
                if result is not None and result.move_ends:
                    return self.log("R-INT-3", "move_ends", players, fleet=fleet.id,
                                    area=here, reason=result.effect)
            self.arrive(fleet, target)
            self.log("R-FLT-4", "move", players, fleet=fleet.id, **{"from": here}, to=target)
            self.trigger_hazards(fleet, target)
            if not fleet.ships:
                return None
            result = self.intercept(fleet, target, entering=True)
            effect = result.effect if result is not None else None
            hostile = any(f.force != fleet.force for f in self.fleets_in(target))
            if not move_goes_on(effect, hostile):
                return self.log("R-FLT-4", "move_ends", players, fleet=fleet.id, area=target,
                                reason=effect or "hostile fleet in the area")
            resumed_in = target if effect == "resume" else None
        return None

    # --- R-INT-1..5 ---------------------------------------------------------------------------

    def intercept_view(self, fleet: _Fleet) -> InterceptFleet:
        src = fleet.src
        return InterceptFleet(fleet.id, src.owner, src.kind, src.af, self.cf(fleet.ships),
                              src.interception, src.benefits, fleet.id in self.markers)

    def intercept(self, fleet: _Fleet, area: int, *, entering: bool
                  ) -> InterceptionResult | None:
        """R-INT-1: the active fleet enters or tries to leave ``area``; None when no hostile
        fleet is there (nobody could try)."""
        others = [f for f in self.fleets_in(area) if f.id != fleet.id]
        if not any(f.force != fleet.force for f in others):
            return None
        self.label(f"fleet={fleet.id}")
        result = resolve_interception(self.dice, self.intercept_view(fleet),
                                      [self.intercept_view(f) for f in others],
                                      entering=entering)
        players = [fleet.player, *(f.player for f in others)]
        for event in result.events:
            self.events.append({**event, "area": area, "active_fleet": fleet.id,
                                "players": sorted({p for p in players if p is not None})})
        self.apply_interception(result, area)
        return result

    def apply_interception(self, result: InterceptionResult, area: int) -> None:
        final = result.attempts[-1] if result.effect in ("combat", "resume", "avoid") else None
        for fleet_id in result.no_interception:
            if fleet_id in self.markers:
                continue
            if fleet_id in result.withdrawn:
                self.markers[fleet_id] = Marker(fleet_id, "withdraw", None)
            else:
                partner = final.loser if final.winner == fleet_id else final.winner
                self.markers[fleet_id] = Marker(fleet_id, "avoid", partner)
        if result.effect == "avoid":
            self.avoided |= {final.winner, final.loser}
        if result.effect == "combat":
            self.advantages.append((area, final.winner, final.loser))
        for fleet_id in result.withdrawn:
            self.withdraw(self.fleets[fleet_id])

    def withdraw(self, fleet: _Fleet) -> None:
        """R-INT-4 d): to an adjacent area by the retreat rules (R-NAV-12); the hostile sea
        hazards there trigger (R-SEA-2), in its own area too. [reading] With no area to go to
        the fleet stays, keeping its NO INTERCEPTION marker."""
        here = fleet.area
        to, own = retreat_area(fleet.force, self.areas[here], self.areas, self.forces_in())
        self.log("R-INT-4", "withdraw", [fleet.player], fleet=fleet.id, **{"from": here}, to=to,
                 own=own, success=to is not None)
        if to is not None:
            self.arrive(fleet, to)
            self.trigger_hazards(fleet, to)

    # --- R-SEA-2 ------------------------------------------------------------------------------

    def trigger_hazards(self, fleet: _Fleet, area: int) -> None:
        """R-SEA-2: the fleet entered ``area`` (a move, a withdrawal or a retreat): every active
        hazard there hostile to it fires once at its flagship, which fires back
        (``hazard_exchange``), in hazard id order; the next hazard fires at the new flagship if
        the first sank. The hazard's hits add up for the whole campaign; the flagship's count in
        the battle in this area (``hazard_hits``). [reading] They count in a further hazard
        exchange in this area in this phase too, as they would in the battle."""
        for hazard in self.hazards.values():
            if not (hazard.active and hazard.src.area == area and fleet.ships):
                continue
            if not hazard_hostile(hazard.owner, fleet.force):
                continue
            self.label(f"hazard={hazard.src.id}")
            flagship = fleet.ships[0]
            key = (flagship.id, area)
            out = hazard_exchange(self.dice, hazard.src.naval(hazard.hits),
                                  flagship.naval(self.hazard_hits.get(key, 0)))
            hazard.triggered, hazard.hits = True, out.hazard_hits
            hazard.active = not out.hazard_removed
            players = [fleet.player, hazard.owner]
            for event in out.events:
                self.events.append({**event, "area": area, "fleet": fleet.id,
                                    "players": sorted({p for p in players if p is not None})})
            self.log("R-SEA-2", "hazard_triggered", players, hazard=hazard.src.id, area=area,
                     fleet=fleet.id, ship=flagship.id, hazard_hits=out.hazard_hits,
                     ship_hits=out.ship_hits, removed=out.hazard_removed,
                     ship_sunk=out.ship_sunk)
            if out.ship_sunk:
                self.hazard_hits.pop(key, None)
                self.lose(fleet, flagship.id)
            else:
                if out.ship_hits:
                    self.hazard_hits[key] = out.ship_hits
                fleet.ships[0] = replace(flagship, crew=out.ship.crew,
                                         cargo=cargo_after(flagship.cargo, out.cargo_destroyed))

    # --- R-INT-6: end-of-phase battles --------------------------------------------------------

    def fight_all(self) -> None:
        """R-INT-6, area by area in ascending id. Fleets that avoided combat (R-INT-4 c: "no
        further action this round") fight no battle at all, not even against a third player; a
        withdrawn fleet (d: "ends nothing else") fights where it ends."""
        for area in sorted(self.areas):
            fought: set[frozenset] = set()
            sequence = 0
            while True:
                groups: dict[Force, list[_Fleet]] = {}
                for fleet in self.fleets_in(area):
                    if fleet.id not in self.avoided:
                        groups.setdefault(fleet.force, []).append(fleet)
                standing = {force: ForceStanding(
                    self.cf(s for f in fleets for s in f.ships), fleets[0].key, fleets[-1].key)
                    for force, fleets in groups.items()}
                pair = next_battle(standing, fought)
                if pair is None:
                    break
                fought.add(frozenset(pair))
                sequence += 1
                self.fight(area, sequence, groups[pair[0]], groups[pair[1]], standing)

    def advantage(self, area: int, attacker: Force, defender: Force) -> str | None:
        """R-INT-4 a) / R-NAV-9: the side whose fleet won an interception with benefit a) in
        this area against a fleet of the other force. [reading] The latest such win counts."""
        for where, winner, loser in reversed(self.advantages):
            forces = (self.fleets[winner].force, self.fleets[loser].force)
            if where == area and set(forces) == {attacker, defender}:
                return ATTACKER if forces[0] == attacker else DEFENDER
        return None

    def fight(self, area: int, sequence: int, attackers: list[_Fleet], defenders: list[_Fleet],
              standing: dict[Force, ForceStanding]) -> None:
        """One battle (R-INT-6): each force's fleets in the area form one line, fleets in
        arrival order, ships in fleet order. [reading] A line fights with the stance of its
        first fleet (R-FLT-5)."""
        att, dfn = attackers[0].force, defenders[0].force
        engine = self.settings.engine
        advantage = self.advantage(area, att, dfn)
        sides = {ATTACKER: attackers, DEFENDER: defenders}
        lines = {key: [s for f in fleets for s in f.ships] for key, fleets in sides.items()}
        shown = {key: [{**s.public(engine), "fleet": f.id} for f in fleets for s in f.ships]
                 for key, fleets in sides.items()}
        fighting = [s.id for line in lines.values() for s in line]
        # R-SEA-2: the hazard hits the flagships took in this area count in the battle.
        # [reading] Not with d6_space: its damage model (R-SPC-5/6) has no hits to carry.
        carried = ({} if engine == D6_SPACE else
                   {s: self.hazard_hits[(s, area)] for s in fighting
                    if (s, area) in self.hazard_hits})
        header = {"rule": "R-INT-6", "step": "battle", "area": area, "sequence": sequence,
                  "attacker": att.label(), "defender": dfn.label(),
                  "cf": {ATTACKER: standing[att].cf, DEFENDER: standing[dfn].cf},
                  "advantage": advantage,
                  "hazard_hits": [{"rule": "R-SEA-2", "ship": s, "hits": h}
                                  for s, h in carried.items()],
                  "decision": "the force whose fleet arrived last attacks"}
        self.label(f"naval-battle:area={area}:seq={sequence}")
        first = self.dice.next_counter
        if engine == D6_SPACE:
            out = resolve_space_battle(
                self.dice, *(SpaceSide(key, sides[key][0].player, [s.space() for s in lines[key]])
                             for key in (ATTACKER, DEFENDER)),
                max_rounds=self.settings.max_battle_rounds,
                start_distance_cm=self.settings.start_distance_cm, advantage=advantage)
            outcome, retreats = _space_outcome(out), {}
            self.after_space(sides, out)
        else:
            forces_in = self.forces_in()
            retreats = {key: retreat_area(sides[key][0].force, self.areas[area], self.areas,
                                          forces_in) for key in (ATTACKER, DEFENDER)}
            out = resolve_naval_battle(
                self.dice, *(NavalSide(key, sides[key][0].player,
                                       [s.naval(carried.get(s.id, 0)) for s in lines[key]],
                                       sides[key][0].src.stance, retreats[key][0])
                             for key in (ATTACKER, DEFENDER)),
                max_rounds=self.settings.max_battle_rounds, advantage=advantage)
            outcome = _naval_outcome(out)
        for ship_id in fighting:  # cleared with the battle's hits (R-SEA-2, R-NAV-7)
            self.hazard_hits.pop((ship_id, area), None)
        side_dicts = [{"key": key, "player": fleets[0].player, "force": fleets[0].force.label(),
                       "fleets": [f.id for f in fleets], "stance": fleets[0].src.stance,
                       "advantage": advantage == key,
                       "retreat_to": retreats[key][0] if key in retreats else None,
                       "ships": shown[key]}
                      for key, fleets in sides.items()]
        self.battles.append(BattleRecord(
            area, sequence, engine, att, dfn, side_dicts, outcome, [header, *out.events], first,
            self.dice.next_counter - first, dict(outcome["vp"])))
        self.log("R-INT-6", "battle", [att.player, dfn.player], area=area, sequence=sequence,
                 attacker=att.label(), defender=dfn.label(), winner=outcome["winner"])
        if engine != D6_SPACE:
            self.after_naval(area, sides, out, retreats)

    def after_space(self, sides: dict[str, list[_Fleet]], out) -> None:
        """R-SPC-8: destroyed ships are gone. [reading] Damage is repaired after the battle; a
        captain lost to a bridge hit (R-SPC-6 "for good") stays lost."""
        fleet_of = {s.id: f for fleets in sides.values() for f in fleets for s in f.ships}
        for result in out.ships:
            fleet = fleet_of[result.id]
            if result.status == "destroyed":
                self.lose(fleet, result.id)
                continue
            index = next(i for i, s in enumerate(fleet.ships) if s.id == result.id)
            if fleet.ships[index].captain is not None and not result.captain_alive:
                fleet.ships[index] = replace(fleet.ships[index], captain=None)

    def after_naval(self, area: int, sides: dict[str, list[_Fleet]], out,
                    retreats: dict[str, tuple[int | None, bool]]) -> None:
        """R-NAV-7 losses, R-NAV-8 prizes, R-NAV-12 retreats."""
        fleet_of = {s.id: f for fleets in sides.values() for f in fleets for s in f.ships}
        ship_of = {s.id: s for fleets in sides.values() for f in fleets for s in f.ships}
        prizes = []
        for result in out.ships:
            fleet, ship = fleet_of[result.ship_id], ship_of[result.ship_id]
            if result.holder is None:  # sunk, or a prize destroyed (R-NAV-8)
                self.lose(fleet, ship.id)
                continue
            after = replace(ship, crew=result.crew,
                            cargo=cargo_after(ship.cargo, result.cargo_destroyed))
            index = next(i for i, s in enumerate(fleet.ships) if s.id == ship.id)
            fleet.ships[index] = after
            if result.state == "captured":
                prizes.append((result, fleet, after))
        captured = {r.ship_id for r, _, _ in prizes}
        survivors = {f.id for fleets in sides.values() for f in fleets
                     if any(s.id not in captured for s in f.ships)}
        for result, fleet, ship in prizes:
            holder_fleets = [f.id for f in sides[result.holder]]
            target = prize_fleet(fleet.id, result.holder == result.side, holder_fleets,
                                 survivors)
            if target is None:  # defensive: the engine names only a holder with ships
                self.lose(fleet, ship.id)
                continue
            if target != fleet.id:
                fleet.ships = [s for s in fleet.ships if s.id != ship.id]
                self.fleets[target].ships.append(ship)
                self.log("R-NAV-8", "prize_joins", [fleet.player, self.fleets[target].player],
                         ship=ship.id, from_fleet=fleet.id, to_fleet=target, area=area)
        for fleet in (f for fleets in sides.values() for f in fleets):
            if not fleet.ships and not fleet.lost_all:
                fleet.lost_all = True
                self.log("R-FLT-1", "fleet_destroyed", [fleet.player], fleet=fleet.id,
                         area=area)
        for key in (ATTACKER, DEFENDER):
            to, own = retreats[key]
            if out.retreated in (key, "both") and to is not None:
                self.retreat(sides[key], to, own)

    def retreat(self, fleets: list[_Fleet], to: int, own: bool) -> None:
        """R-NAV-12: the side's fleets move to the chosen area; the hostile sea hazards there
        trigger (R-SEA-2), in the player's own area too. No interception during a retreat
        (R-INT-1)."""
        for fleet in fleets:
            if not fleet.ships:
                continue
            here = fleet.area
            self.arrive(fleet, to)
            self.log("R-NAV-12", "retreat", [fleet.player], fleet=fleet.id,
                     **{"from": here}, to=to, own=own)
            self.trigger_hazards(fleet, to)

    # --- R-SEA-1 ------------------------------------------------------------------------------

    def conquer_islands(self) -> None:
        forces = self.forces_in()
        for area_id in sorted(self.island_owner):
            area = replace(self.areas[area_id], owner=self.island_owner[area_id])
            conqueror = island_conqueror(area, forces.get(area_id, ()))
            if conqueror is None:
                continue
            self.island_owner[area_id] = conqueror
            moved = []
            for hazard in self.hazards.values():
                if hazard.src.area == area_id and hazard.owner != conqueror:
                    hazard.owner = conqueror
                    moved.append(hazard.src.id)
            self.log("R-SEA-1", "island_conquered", [conqueror, area.owner], area=area_id,
                     owner=conqueror, previous=area.owner, hazards=moved)

    # --- result -------------------------------------------------------------------------------

    def result(self) -> PhaseResult:
        fleets, ships = {}, {}
        for fleet in self.fleets.values():
            fleets[fleet.id] = FleetAfter(fleet.id, fleet.area, fleet.arrival,
                                          tuple(s.id for s in fleet.ships), fleet.lost_all)
            for position, ship in enumerate(fleet.ships, start=1):
                ships[ship.id] = ShipAfter(ship.id, fleet.id, position, ship.crew, ship.cargo,
                                           ship.captain)
        for ship_id in self.lost:
            ships[ship_id] = ShipAfter(ship_id, None, 0, (), (), None)
        hazards = {h.src.id: HazardAfter(h.src.id, h.owner, h.triggered, h.hits, h.active)
                   for h in self.hazards.values()}
        islands = {a: owner for a, owner in self.island_owner.items()
                   if owner != self.areas[a].owner}
        return PhaseResult(self.order, fleets, ships, hazards, islands,
                           tuple(self.markers.values()), tuple(self.battles), self.events)


def _naval_outcome(out) -> dict:
    """A Dark Force outcome as JSON-ready data (R-NAV-8, R-NAV-11, R-VP-1)."""
    return {"winner": out.winner, "retreated": out.retreated, "end": out.end,
            "rounds": out.rounds, "distance": out.distance,
            "ships": [{"id": r.ship_id, "side": r.side, "state": r.state, "holder": r.holder,
                       "captured_by": r.captured_by} for r in out.ships],
            "captures": [c._asdict() for c in out.captures], "vp": dict(out.vp)}


def _space_outcome(out) -> dict:
    """A D6 outcome as JSON-ready data (R-SPC-8); no boarding, so no victory points."""
    return {"winner": out.winner, "retreated": None, "end": out.reason, "rounds": out.rounds,
            "ships": [{"id": r.id, "side": r.side, "state": r.status,
                       "captain_alive": r.captain_alive} for r in out.ships],
            "captures": [], "vp": {ATTACKER: 0, DEFENDER: 0}}
