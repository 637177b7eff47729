"""Fleets as a viewer may see them (R-FLT-7). Every fleet's public fields (owner, kind, area,
ship count) come from the map document; the whole fleet (name, admiral, ships with cargo and
crew, standing orders) only for its owner and the campaign admin. Two queries, read as plain
rows: the admin's map shows every fleet of a league (200 fleets, 1,200 ships)."""

from campaigns.models import Campaign, Player
from fleets.models import Fleet, Ship

FLEET_FIELDS = ("id", "name", "kind", "admiral_rating", "standing_orders")
SHIP_FIELDS = ("fleet_id", "name", "ship_class", "attack", "defence", "agility", "cargo", "crew")


def full_fleets(campaign: Campaign, *, player: Player | None, is_admin: bool) -> dict[int, dict]:
    """Fleet id -> the fleet's row with its ``ships`` in line order, for the fleets the viewer
    may see in full."""
    fleets = Fleet.objects.filter(campaign=campaign)
    if not is_admin:
        if player is None:
            return {}
        fleets = fleets.filter(owner=player)
    rows = {row["id"]: {**row, "ships": []} for row in fleets.order_by("id").values(*FLEET_FIELDS)}
    ships = (Ship.objects.filter(fleet__in=fleets).order_by("fleet_id", "position", "id")
             .values(*SHIP_FIELDS))
    for ship in ships:
        rows[ship["fleet_id"]]["ships"].append(ship)
    return rows
