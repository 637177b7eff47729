"""Reads shared by the API and the pages: fleets as each viewer may see them (R-FLT-7), naval
battle reports (participants at once, all members once the round closed), sea hazards (hidden
until they trigger, R-SEA-2). A constant number of queries whatever the number of fleets."""

from django.db.models import Prefetch, Q, QuerySet

from campaigns.models import Campaign, Player, Round
from fleets.models import Fleet, FleetMarker, FleetOrder, NavalBattle, SeaHazard, Ship
from rules.fleet_phase import standing_orders

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


def visible_naval_battles(campaign: Campaign, *, player: Player | None,
                          is_admin: bool) -> QuerySet:
    """Battle reports: the admin sees all; a player those it fought in at once, all of a
    round once it closed."""
    battles = (NavalBattle.objects.filter(round__campaign=campaign).select_related("round")
               .order_by("round__number", "area_id", "sequence", "id"))
    if is_admin:
        return battles
    seen = Q(round__phase=Round.Phase.CLOSED)
    if player is not None:
        seen |= Q(attacker=player) | Q(defender=player)
    return battles.filter(seen)


def visible_hazards(campaign: Campaign, *, player: Player | None, is_admin: bool) -> QuerySet:
    """R-SEA-2: a hazard is hidden from other players until it triggers; its owner and the
    admin see it always. [reading] Once triggered, every member sees it (name, values, state)."""
    hazards = SeaHazard.objects.filter(campaign=campaign).order_by("id")
    if is_admin:
        return hazards
    seen = Q(triggered_at__isnull=False)
    if player is not None:
        seen |= Q(owner=player)
    return hazards.filter(seen)
