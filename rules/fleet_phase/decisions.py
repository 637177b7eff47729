"""The small decisions of the fleet phase that no engine makes: the players' resolution order
(R-FLT-6), whether a move goes on (R-FLT-4, R-INT-3), which hazards trigger (R-SEA-2), where a
fleet retreats or withdraws to (R-NAV-12), who fights whom at the end of the phase and who
attacks (R-INT-6), where a prize goes (R-NAV-8), who conquers an island (R-SEA-1), and what
stays aboard after hit allocation (R-NAV-7). Pure functions; ``rules.fleet_phase`` calls them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from rules.dice import Dice
from rules.fleet_phase.model import Detachment, Force, PhaseArea
from rules.naval import RetreatOption, choose_retreat

ISLAND = "island"


# --- R-FLT-6 ----------------------------------------------------------------------------------


def player_order(dice: Dice, players: Iterable[int]) -> tuple[tuple[int, ...], list[int]]:
    """R-FLT-6: the players' order, drawn from the dice: starting from the players in
    ascending id, each next player is picked with a d<k> from the k not yet placed (a uniform
    shuffle; one draw per pick, none for the last). Returns (order, faces)."""
    rest = sorted(set(players))
    order, faces = [], []
    while len(rest) > 1:
        face = dice.roll(1, len(rest), "fleets:order")[0]
        faces.append(face)
        order.append(rest.pop(face - 1))
    return tuple(order + rest), faces


# --- R-FLT-4 / R-INT-3 ------------------------------------------------------------------------


def move_goes_on(effect: str | None, hostile_present: bool) -> bool:
    """After entering an area: the move ends after an interception that ended in a) or c)
    (R-INT-3), and when the area holds a hostile fleet (R-FLT-4) unless b) let it go on."""
    if effect in ("combat", "avoid"):
        return False
    if effect == "resume":
        return True
    return not hostile_present


# --- R-SEA-2 ----------------------------------------------------------------------------------


def hazard_hostile(hazard_owner: int | None, force: Force) -> bool:
    """R-SEA-2: a hazard triggers for hostile fleets: one the admin placed (no owner) is
    hostile to every player, one an island owner placed to everyone else (pirate fleets
    included). [reading] The admin's hazards are hostile to pirate fleets too (the text says
    "every player"; pirates are no player, but a sea monster or storm spares nobody)."""
    return hazard_owner is None or force != Force(False, hazard_owner)


# --- R-NAV-12 ---------------------------------------------------------------------------------


def own_area(area: PhaseArea, force: Force, forces_there: Collection[Force]) -> bool:
    """R-NAV-12 [decision]: own = borders a tile of the player, is an island it owns, or holds
    another of its fleets. Pirates own no tile and no island (they are no player, R-FLT-1;
    owners of tiles and islands are players, R-MAP-2, R-SEA-1)."""
    if force in forces_there:
        return True
    player = force.player
    if player is None:
        return False
    return player in area.bordering_players or (area.kind == ISLAND and area.owner == player)


def retreat_area(force: Force, area: PhaseArea, areas: Mapping[int, PhaseArea],
                 forces_in: Mapping[int, Collection[Force]]) -> tuple[int | None, bool]:
    """R-NAV-12 for ``force`` leaving ``area``: (the area chosen by ``choose_retreat``, whether
    it is the force's own). ``forces_in`` gives the forces with fleets in each area;
    uncontested = no hostile (other) force there."""
    options = []
    for neighbour in sorted(area.adjacent):
        if neighbour not in areas:
            continue
        there = forces_in.get(neighbour, ())
        options.append(RetreatOption(neighbour, own_area(areas[neighbour], force, there),
                                     any(f != force for f in there)))
    chosen = choose_retreat(options)
    own = any(o.own for o in options if o.area_id == chosen)
    return chosen, own


# --- R-INT-6 ----------------------------------------------------------------------------------


class ForceStanding(NamedTuple):
    """A force in an area at the end of the phase: its total CF (R-FLT-3) and the arrival keys
    (round, step, fleet id) of its earliest and its latest fleet there."""

    cf: int
    first_arrival: tuple[int, int, int]
    last_arrival: tuple[int, int, int]


def next_battle(forces: Mapping[Force, ForceStanding],
                fought: Collection[frozenset]) -> tuple[Force, Force] | None:
    """R-INT-6: the two hostile forces with the largest total CF fight first, then again among
    those left, until no hostile pair remains. Returns (attacker, defender): the attacker is
    the force whose fleet arrived last. [reading] A pair fights at most once per phase (a
    battle that ends by the round cap would otherwise repeat forever); equal CF ranks the force
    that was there first higher. Every two forces are hostile (different forces)."""
    ranked = sorted(forces, key=lambda f: (-forces[f].cf, forces[f].first_arrival))
    for i, first in enumerate(ranked):
        for second in ranked[i + 1:]:
            if frozenset((first, second)) in fought:
                continue
            if forces[first].last_arrival > forces[second].last_arrival:
                return first, second
            return second, first
    return None


def prize_fleet(own_fleet: int, holder_is_owner: bool, holder_fleets: Sequence[int],
                survivors: Collection[int]) -> int | None:
    """R-NAV-8: the fleet a captured ship joins after the battle. ``holder_fleets`` are the
    holding side's fleets in the area in arrival order, ``survivors`` those that still have
    ships. [reading] It joins the first of them that still has ships (at the end of its line);
    a ship that falls back to its owner stays in its own fleet if that still has ships.
    None: no such fleet (the engine only names a holder that has ships there)."""
    if holder_is_owner and own_fleet in survivors:
        return own_fleet
    return next((f for f in holder_fleets if f in survivors), None)


# --- R-SEA-1 ----------------------------------------------------------------------------------


def island_conqueror(island: PhaseArea, forces_there: Collection[Force]) -> int | None:
    """R-SEA-1 [decision]: a fleet ending the phase in a hostile island area holding no
    hostile fleet conquers it: exactly one force is there and it is a player that does not own
    the island. [reading] An island without an owner is hostile to everyone; pirates conquer
    nothing (they are no player)."""
    if island.kind != ISLAND or len(set(forces_there)) != 1:
        return None
    (force,) = set(forces_there)
    player = force.player
    if player is None or island.owner == player:
        return None
    return player


# --- R-NAV-7 ----------------------------------------------------------------------------------


def cargo_after(cargo: Sequence[Detachment], destroyed: Iterable[int]) -> tuple[Detachment, ...]:
    """The named detachments left after hit allocation destroyed detachments of the given
    points (the engines see only points). Each destroyed value removes the first detachment
    of that many points, as the engine takes the first smallest
    (``rules.naval.fire._divert_one``)."""
    left = list(cargo)
    for points in destroyed:
        index = next((i for i, d in enumerate(left) if d.points == points), None)
        if index is not None:
            del left[index]
    return tuple(left)
