"""Store what the fleet phase returned (``rules.fleet_phase.PhaseResult``): bulk writes
in a constant number of queries. Call inside the resolving transaction."""

from datetime import datetime

from campaigns.bulk import delete_rows, insert_values, update_rows
from campaigns.models import Round
from campaigns.revision import bump
from fleets.models import Area, Fleet, FleetMarker, FleetOrder, NavalBattle, SeaHazard, Ship
from fleets.phase_state import LoadedPhase
from fleets.values import cargo_json, crew_json
from rules.fleet_phase import PhaseResult

BATTLE_FIELDS = ["round_id", "area_id", "sequence", "engine", "attacker_id", "defender_id",
                 "attacker_vp", "defender_vp", "sides", "outcome", "events", "first_counter",
                 "dice_count"]


def store_phase(rnd: Round, loaded: LoadedPhase, result: PhaseResult, now: datetime) -> None:
    _store_ships(loaded, result)
    _store_fleets(rnd, loaded, result)
    _store_hazards(loaded, result, now)
    _store_islands(loaded, result)
    _store_markers(rnd, loaded, result)
    _store_battles(rnd, result)
    bump(rnd.campaign_id)  # bulk writes send no signals (campaigns/revision.py)


def _store_ships(loaded: LoadedPhase, result: PhaseResult) -> None:
    """Sunk and destroyed ships go with their cargo (R-NAV-7, R-NAV-8); captured ships change
    fleet and so owner (R-NAV-8); crew, cargo and a lost captain (R-SPC-6) are written back."""
    changed, lost = [], []
    for ship_id, after in result.ships.items():
        row, before = loaded.ships[ship_id], loaded.before[ship_id]
        if after.fleet is None:
            lost.append(ship_id)
            continue
        crew, cargo, datasheet = row.crew, row.cargo, row.datasheet
        dirty = (row.fleet_id, row.position) != (after.fleet, after.position)
        if after.crew != before.crew:
            crew, dirty = crew_json(after.crew), True
        if after.cargo != before.cargo:
            cargo, dirty = cargo_json(after.cargo), True
        if before.captain is not None and after.captain is None:
            datasheet = {k: v for k, v in datasheet.items() if k != "captain"}
            dirty = True
        if dirty:
            changed.append(Ship(pk=ship_id, fleet_id=after.fleet, position=after.position,
                                crew=crew, cargo=cargo, datasheet=datasheet))
    if changed:
        update_rows(Ship, changed, ["fleet", "position", "crew", "cargo", "datasheet"])
    if lost:  # (store_phase bumps the revision once)
        delete_rows(Ship.objects.filter(pk__in=lost))


def _store_fleets(rnd: Round, loaded: LoadedPhase, result: PhaseResult) -> None:
    """New areas and arrivals (R-INT-6 arrival order); a fleet that lost its last ship in the
    phase is removed [reading] (R-FLT-1: a fleet is its ships)."""
    changed, gone = [], []
    for fleet_id, after in result.fleets.items():
        row = loaded.fleets[fleet_id]
        if after.destroyed:
            gone.append(fleet_id)
            continue
        arrived = (after.arrival[0] or None, after.arrival[1])
        if (row.area_id, (row.arrived_round, row.arrived_step)) != (after.area, arrived):
            changed.append(Fleet(pk=fleet_id, area_id=after.area, arrived_round=arrived[0],
                                 arrived_step=arrived[1]))
    if changed:
        update_rows(Fleet, changed, ["area", "arrived_round", "arrived_step"])
    if gone:
        _delete_fleets(gone)


def _delete_fleets(gone: list[int]) -> None:
    """What ``Fleet.delete`` cascades to (ships, orders, markers; a partner set to null),
    without its per-row signals: store_phase bumps the revision once."""
    FleetMarker.objects.filter(partner_id__in=gone).update(partner=None)
    for rows in (FleetMarker.objects.filter(fleet_id__in=gone),
                 FleetOrder.objects.filter(fleet_id__in=gone),
                 Ship.objects.filter(fleet_id__in=gone), Fleet.objects.filter(pk__in=gone)):
        delete_rows(rows)


def _store_hazards(loaded: LoadedPhase, result: PhaseResult, now: datetime) -> None:
    """R-SEA-2: a hazard's hits add up over the whole campaign and it is removed (``active``
    false) when they reach its defence; R-SEA-1: it changes owner with its island."""
    changed = []
    for hazard_id, after in result.hazards.items():
        row = loaded.hazards[hazard_id]
        if (after.owner, after.hits, after.active) == (row.owner_id, row.hits, row.active) \
                and not after.triggered:
            continue
        row.owner_id, row.hits, row.active = after.owner, after.hits, after.active
        if after.triggered:  # R-SEA-2: triggering is logged and reveals it
            row.triggered_at = now
        changed.append(row)
    if changed:
        SeaHazard.objects.bulk_update(changed, ["owner", "hits", "active", "triggered_at"])


def _store_islands(loaded: LoadedPhase, result: PhaseResult) -> None:
    """R-SEA-1: conquered islands change owner."""
    changed = []
    for area_id, owner in result.islands.items():
        row = loaded.areas[area_id]
        row.owner_id = owner
        changed.append(row)
    if changed:
        Area.objects.bulk_update(changed, ["owner"])


def _store_markers(rnd: Round, loaded: LoadedPhase, result: PhaseResult) -> None:
    """NO INTERCEPTION markers of the round (R-INT-4) of the fleets still afloat."""
    gone = {f for f, after in result.fleets.items() if after.destroyed}
    FleetMarker.objects.bulk_create(
        FleetMarker(round=rnd, fleet_id=m.fleet, kind=m.kind,
                    partner_id=None if m.partner in gone else m.partner)
        for m in result.markers if m.fleet not in gone)


def _store_battles(rnd: Round, result: PhaseResult) -> None:
    """Each battle with its sides, outcome, event log, dice and victory points (R-VP-1); the
    logs are large, so COPY on PostgreSQL."""
    insert_values(NavalBattle, BATTLE_FIELDS, [
        (rnd.pk, b.area, b.sequence, b.engine, b.attacker.player, b.defender.player,
         b.vp.get("attacker", 0), b.vp.get("defender", 0), b.sides, b.outcome, b.events,
         b.first_counter, b.dice_count)
        for b in result.battles])
