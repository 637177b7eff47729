"""Reads shared by the API and the pages: fleets as each viewer may see them (R-FLT-7), naval
battle reports (once the ``fleets`` phase ended: the full replay for the two players who fought
and the admin, a summary for every other reader, R-FLT-7), sea hazards (hidden until they
trigger, R-SEA-2). A constant number of queries whatever the number of fleets."""

from django.db.models import Prefetch, Q, QuerySet

from campaigns.models import Campaign, Player, Round
from fleets.models import Fleet, FleetMarker, FleetOrder, NavalBattle, SeaHazard, Ship
from rules.fleet_phase import standing_orders
from rules.rounds import PHASES

PUBLIC_FIELDS = ("id", "owner", "area", "kind", "ship_count")


def campaign_fleets(campaign: Campaign) -> QuerySet:
    """The campaign's fleets with their ships in line order (two queries when evaluated)."""
    ships = Ship.objects.order_by("position", "id")
    return (Fleet.objects.filter(campaign=campaign).order_by("id")
            .prefetch_related(Prefetch("ships", queryset=ships)))


def sees_everything(fleet: Fleet, player: Player | None, is_admin: bool) -> bool:
    """R-FLT-7: the owner and the admin see a fleet's hidden fields."""
    return is_admin or (player is not None and fleet.owner_id == player.pk)


def public_fleet(fleet: Fleet) -> dict:
    """R-FLT-7: position, owner, kind and ship count are public. [reading] The fleet's name is
    not (the map does not show it either)."""
    return {"id": fleet.pk, "owner": fleet.owner_id, "area": fleet.area_id, "kind": fleet.kind,
            "ship_count": len(fleet.ships.all())}


def ship_data(ship: Ship) -> dict:
    return {"id": ship.pk, "name": ship.name, "class": ship.ship_class, "position": ship.position,
            "attack": ship.attack, "defence": ship.defence, "agility": ship.agility,
            "capacity": ship.capacity, "seats": ship.seats,
            "cargo": ship.cargo if isinstance(ship.cargo, list) else [],
            "crew": ship.crew if isinstance(ship.crew, list) else [],
            "datasheet": ship.datasheet}


def full_fleet(fleet: Fleet, orders: dict[int, FleetOrder], markers: dict[int, FleetMarker]
               ) -> dict:
    """Everything, for the owner and the admin: ships with values, cargo and crew, standing
    orders with the battle line, this round's movement order and NO INTERCEPTION marker."""
    ships = list(fleet.ships.all())
    order, marker = orders.get(fleet.pk), markers.get(fleet.pk)
    return {
        **public_fleet(fleet), "name": fleet.name, "admiral_rating": fleet.admiral_rating,
        "ships": [ship_data(s) for s in ships],
        "standing_orders": {**standing_orders(fleet.standing_orders),
                            "line": [s.pk for s in ships]},
        "orders": None if order is None else {"path": order.path, "given_at": order.given_at},
        "no_interception": None if marker is None else marker.kind,
    }


def fleet_views(fleets, *, player: Player | None, is_admin: bool,
                rnd: Round | None) -> list[dict]:
    """Each fleet as the viewer may see it: all fields of its own (all for the admin), the
    public ones of the others (R-FLT-7). Two more queries for the round's orders and markers."""
    fleets = list(fleets)
    mine = [f.pk for f in fleets if sees_everything(f, player, is_admin)]
    orders, markers = {}, {}
    if mine and rnd is not None:
        orders = {o.fleet_id: o for o in FleetOrder.objects.filter(round=rnd, fleet_id__in=mine)}
        markers = {m.fleet_id: m for m in
                   FleetMarker.objects.filter(round=rnd, fleet_id__in=mine)}
    return [full_fleet(f, orders, markers) if sees_everything(f, player, is_admin)
            else public_fleet(f) for f in fleets]


# R-FLT-7: naval battles are fought at the end of the ``fleets`` phase (R-INT-6) and shown, to
# anyone, only once that phase ended
AFTER_FLEETS = PHASES[PHASES.index(Round.Phase.FLEETS) + 1:]
SUNK_STATES = ("sunk", "destroyed")  # Dark Force (R-NAV-7) and D6 space (R-SPC-8) words
SIDES = ("attacker", "defender")


def visible_naval_battles(campaign: Campaign) -> QuerySet:
    """The campaign's naval battles anyone who may read the campaign sees in some form
    (``naval_report`` says which): those of rounds past the ``fleets`` phase (R-FLT-7)."""
    return (NavalBattle.objects.filter(round__campaign=campaign, round__phase__in=AFTER_FLEETS)
            .select_related("round").order_by("round__number", "area_id", "sequence", "id"))


def sees_replay(battle: NavalBattle, *, player: Player | None, is_admin: bool) -> bool:
    """R-FLT-7: the full replay is for the two players who fought the battle and the admin."""
    return is_admin or (player is not None
                        and player.pk in (battle.attacker_id, battle.defender_id))


def naval_losses(battle: NavalBattle) -> dict[str, dict[str, list[dict]]]:
    """R-FLT-7: the ships each side lost, sunk (destroyed, R-SPC-8) and captured, by name and
    class only, in name order (the line is hidden)."""
    shown = {ship.get("id"): ship for side in battle.sides for ship in side.get("ships", [])}
    losses: dict[str, dict[str, list[dict]]] = {side: {"sunk": [], "captured": []}
                                                for side in SIDES}
    for result in battle.outcome.get("ships", []):
        state, side = result.get("state"), result.get("side")
        kind = "sunk" if state in SUNK_STATES else "captured" if state == "captured" else None
        if kind is None or side not in losses:
            continue
        ship = shown.get(result.get("id"), {})
        losses[side][kind].append({"name": ship.get("name", ""),
                                   "class": ship.get("class", "")})
    for side in losses.values():
        for ships in side.values():
            ships.sort(key=lambda s: (s["name"], s["class"]))
    return losses


def naval_report(battle: NavalBattle, *, player: Player | None, is_admin: bool) -> dict:
    """A naval battle as the viewer may see it (R-FLT-7): where and when it was fought, who
    fought (player ids; null for pirates), the outcome and the ships lost per side for every
    reader; with ``replay`` true also the sides (lines, values, crews, cargo, stances), the
    full outcome, the event log with every roll (R-NAV-13) and its dice counters, for the two
    players who fought and the admin. Call it only on battles of ``visible_naval_battles``."""
    report = {
        "id": battle.pk, "round": battle.round.number, "area": battle.area_id,
        "sequence": battle.sequence, "engine": battle.engine,
        "attacker": battle.attacker_id, "defender": battle.defender_id,
        "winner": battle.outcome.get("winner") if battle.outcome.get("winner") in SIDES
        else None,
        "attacker_vp": battle.attacker_vp, "defender_vp": battle.defender_vp,
        "losses": naval_losses(battle),
        "replay": sees_replay(battle, player=player, is_admin=is_admin),
    }
    if report["replay"]:
        report.update(sides=battle.sides, outcome=battle.outcome, events=battle.events,
                      first_counter=battle.first_counter, dice_count=battle.dice_count)
    return report


def visible_hazards(campaign: Campaign, *, player: Player | None, is_admin: bool) -> QuerySet:
    """R-SEA-2: a hazard is hidden from other players until it triggers; its owner and the
    admin see it always. Once triggered it is hidden no longer: every member sees it (name,
    values, state)."""
    hazards = SeaHazard.objects.filter(campaign=campaign).order_by("id")
    if is_admin:
        return hazards
    seen = Q(triggered_at__isnull=False)
    if player is not None:
        seen |= Q(owner=player)
    return hazards.filter(seen)
