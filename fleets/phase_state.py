"""Load what the fleet phase reads (``rules.fleet_phase.PhaseInput``) from the database in
a constant number of queries, whatever the number of fleets, ships and areas."""

from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from campaigns.models import Round, Tile
from campaigns.selectors.campaigns import ruleset_of
from fleets.models import Area, Fleet, FleetOrder, SeaHazard, Ship
from fleets.values import cargo_of, crew_of, datasheet_of
from rules.fleet_phase import (
    PhaseArea,
    PhaseFleet,
    PhaseHazard,
    PhaseInput,
    PhaseOrder,
    PhaseSettings,
    PhaseShip,
    standing_orders,
)
from rules.interception import AF_RANGE, KINDS


class ShipRow(NamedTuple):
    """What the writer keeps of a ship's row (values, not a model instance)."""

    fleet_id: int
    position: int
    crew: object
    cargo: object
    datasheet: object


class FleetRow(NamedTuple):
    """What the writer keeps of a fleet's row."""

    area_id: int
    arrived_round: int | None
    arrived_step: int


@dataclass
class LoadedPhase:
    """The rules' input plus the rows it came from (the writer compares and updates them)."""

    phase: PhaseInput
    fleets: dict[int, FleetRow]
    ships: dict[int, ShipRow]
    hazards: dict[int, SeaHazard]
    areas: dict[int, Area]
    before: dict[int, PhaseShip]


def area_graph(campaign_id: int, areas=None) -> dict[int, set[int]]:
    """Area id -> adjacent area ids (R-MAP-3), every area of the campaign a key; two queries
    (one if the caller passes the campaign's area ids)."""
    if areas is None:
        areas = Area.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True)
    graph: dict[int, set[int]] = {pk: set() for pk in areas}
    for a, b in Area.adjacent.through.objects.filter(from_area__campaign_id=campaign_id
                                                     ).values_list("from_area_id", "to_area_id"):
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    return graph


def _bordering_players(campaign_id: int, areas: dict[int, Area]) -> dict[int, set[int]]:
    """Area id -> players owning a tile it borders (R-MAP-3: an orbit borders every tile of its
    planet); two queries."""
    players: dict[int, set[int]] = defaultdict(set)
    rows = (Area.borders_tiles.through.objects
            .filter(area__campaign_id=campaign_id, tile__owner__isnull=False)
            .values_list("area_id", "tile__owner_id"))
    for area, owner in rows:
        players[area].add(owner)
    by_planet: dict[int, set[int]] = defaultdict(set)
    for planet, owner in (Tile.objects.filter(campaign_id=campaign_id, owner__isnull=False)
                          .values_list("planet_id", "owner_id").distinct()):
        by_planet[planet].add(owner)
    for area in areas.values():
        if area.kind == Area.Kind.ORBIT and area.planet_id:
            players[area.pk] |= by_planet[area.planet_id]
    return players


SHIP_COLUMNS = ("id", "fleet_id", "position", "name", "ship_class", "attack", "defence",
                "agility", "crew", "cargo", "seats", "datasheet")
FLEET_COLUMNS = ("id", "owner_id", "area_id", "kind", "admiral_rating", "standing_orders",
                 "arrived_round", "arrived_step")


def _phase_ship(pk, name, ship_class, attack, defence, agility, crew, cargo, seats,
                datasheet) -> PhaseShip:
    sheet, captain = datasheet_of(datasheet)
    return PhaseShip(pk, name, ship_class, attack, defence, agility, crew_of(crew),
                     cargo_of(cargo), seats, sheet, captain)


def _phase_fleet(pk, owner, area, kind, admiral_rating, standing, arrived_round, arrived_step,
                 ships: list[PhaseShip]) -> PhaseFleet:
    orders = standing_orders(standing)
    return PhaseFleet(
        pk, owner, area, kind=kind if kind in KINDS else "regular",
        af=min(AF_RANGE[1], admiral_rating), ships=ships, interception=orders["interception"],
        benefits=tuple(orders["benefits"]), stance=orders["stance"],
        arrival=(arrived_round or 0, arrived_step))


def load_phase(rnd: Round) -> LoadedPhase:
    """The campaign's areas, fleets with their ships, active hazards and the round's orders
    (R-FLT-6: in the order given), with the ruleset's settings. Ships and fleets are read as
    values (thousands of rows at league size)."""
    campaign = rnd.campaign
    ruleset = ruleset_of(campaign)
    areas = {a.pk: a for a in Area.objects.filter(campaign=campaign)}
    graph = area_graph(campaign.pk, areas)
    bordering = _bordering_players(campaign.pk, areas)
    phase_areas = tuple(
        PhaseArea(a.pk, a.kind, frozenset(graph.get(a.pk, ())), a.owner_id,
                  frozenset(bordering.get(a.pk, ())))
        for a in areas.values())
    ships, before = {}, {}
    lines: dict[int, list[PhaseShip]] = defaultdict(list)
    for pk, fleet, position, *values in (Ship.objects.filter(fleet__campaign=campaign)
                                         .order_by("fleet_id", "position", "id")
                                         .values_list(*SHIP_COLUMNS)):
        ships[pk] = ShipRow(fleet, position, values[5], values[6], values[8])
        before[pk] = _phase_ship(pk, *values)
        lines[fleet].append(before[pk])
    fleets = {}
    phase_fleets = []
    for pk, *values in Fleet.objects.filter(campaign=campaign).values_list(*FLEET_COLUMNS):
        fleets[pk] = FleetRow(values[1], values[5], values[6])
        phase_fleets.append(_phase_fleet(pk, *values, lines[pk]))
    hazards = {h.pk: h for h in SeaHazard.objects.filter(campaign=campaign, active=True)}
    orders = tuple(PhaseOrder(fleet_id, tuple(p for p in path if isinstance(p, int)))
                   for fleet_id, path in FleetOrder.objects.filter(round=rnd).order_by("id")
                   .values_list("fleet_id", "path") if isinstance(path, list))
    phase = PhaseInput(
        areas=phase_areas,
        fleets=tuple(phase_fleets),
        hazards=tuple(PhaseHazard(h.pk, h.area_id, h.owner_id, h.name, h.attack, h.defence,
                                  h.agility, h.hits) for h in hazards.values()),
        orders=orders,
        settings=PhaseSettings(round_number=rnd.number, engine=ruleset.naval_engine,
                               max_fleet_moves=ruleset.max_fleet_moves,
                               max_battle_rounds=ruleset.max_battle_rounds,
                               start_distance_cm=ruleset.start_distance_cm))
    return LoadedPhase(phase, fleets, ships, hazards, areas, before)
