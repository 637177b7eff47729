"""Load what the fleet phase reads (``rules.fleet_phase.PhaseInput``) from the database in
a constant number of queries, whatever the number of fleets, ships and areas."""

from collections import defaultdict
from dataclasses import dataclass

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


@dataclass
class LoadedPhase:
    """The rules' input plus the rows it came from (the writer compares and updates them)."""

    phase: PhaseInput
    fleets: dict[int, Fleet]
    ships: dict[int, Ship]
    hazards: dict[int, SeaHazard]
    areas: dict[int, Area]
    before: dict[int, PhaseShip]


def area_graph(campaign_id: int) -> dict[int, set[int]]:
    """Area id -> adjacent area ids (R-MAP-3), every area of the campaign a key; two queries."""
    graph: dict[int, set[int]] = {pk: set() for pk in Area.objects.filter(
        campaign_id=campaign_id).values_list("pk", flat=True)}
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


def phase_ship(ship: Ship) -> PhaseShip:
    datasheet, captain = datasheet_of(ship.datasheet)
    return PhaseShip(ship.pk, ship.name, ship.ship_class, ship.attack, ship.defence,
                     ship.agility, crew_of(ship.crew), cargo_of(ship.cargo), ship.seats,
                     datasheet, captain)


def phase_fleet(fleet: Fleet, ships: list[PhaseShip]) -> PhaseFleet:
    orders = standing_orders(fleet.standing_orders)
    return PhaseFleet(
        fleet.pk, fleet.owner_id, fleet.area_id,
        kind=fleet.kind if fleet.kind in KINDS else "regular",
        af=min(AF_RANGE[1], fleet.admiral_rating), ships=ships, interception=orders["interception"],
        benefits=tuple(orders["benefits"]), stance=orders["stance"],
        arrival=(fleet.arrived_round or 0, fleet.arrived_step))


def load_phase(rnd: Round) -> LoadedPhase:
    """The campaign's areas, fleets with their ships, active hazards and the round's orders
    (R-FLT-6: in the order given), with the ruleset's settings."""
    campaign = rnd.campaign
    ruleset = ruleset_of(campaign)
    areas = {a.pk: a for a in Area.objects.filter(campaign=campaign)}
    graph = area_graph(campaign.pk)
    bordering = _bordering_players(campaign.pk, areas)
    phase_areas = tuple(
        PhaseArea(a.pk, a.kind, frozenset(graph.get(a.pk, ())), a.owner_id,
                  frozenset(bordering.get(a.pk, ())))
        for a in areas.values())
    ships = {s.pk: s for s in Ship.objects.filter(fleet__campaign=campaign)
             .order_by("fleet_id", "position", "id")}
    before = {pk: phase_ship(s) for pk, s in ships.items()}
    lines: dict[int, list[PhaseShip]] = defaultdict(list)
    for ship in ships.values():
        lines[ship.fleet_id].append(before[ship.pk])
    fleets = {f.pk: f for f in Fleet.objects.filter(campaign=campaign)}
    hazards = {h.pk: h for h in SeaHazard.objects.filter(campaign=campaign, active=True)}
    orders = tuple(PhaseOrder(fleet_id, tuple(p for p in path if isinstance(p, int)))
                   for fleet_id, path in FleetOrder.objects.filter(round=rnd).order_by("id")
                   .values_list("fleet_id", "path") if isinstance(path, list))
    phase = PhaseInput(
        areas=phase_areas,
        fleets=tuple(phase_fleet(f, lines[f.pk]) for f in fleets.values()),
        hazards=tuple(PhaseHazard(h.pk, h.area_id, h.owner_id, h.name, h.attack, h.defence,
                                  h.agility, h.hits) for h in hazards.values()),
        orders=orders,
        settings=PhaseSettings(round_number=rnd.number, engine=ruleset.naval_engine,
                               max_fleet_moves=ruleset.max_fleet_moves,
                               max_battle_rounds=ruleset.max_battle_rounds,
                               start_distance_cm=ruleset.start_distance_cm))
    return LoadedPhase(phase, fleets, ships, hazards, areas, before)
