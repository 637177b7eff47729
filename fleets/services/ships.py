"""The admin edits and removes single ships of a fleet (R-FLT-2). The
values are checked by the one definition the API, the map import and the pages use
(``fleets.services.fleets.ship_values``: R-FLT-2 bounds, the complete-or-absent D6 datasheet
of R-SPC-1). Ship values are hidden (R-FLT-7): their log entries are for admins only; the
public entry of a removal carries the fleet's new ship count only."""

from django.db import transaction

from campaigns.locking import lock_campaign
from fleets.models import Fleet, Ship
from fleets.selectors.fleets import ship_data
from fleets.services.fleets import detachment_points_of, fleet_facts, log_fleet, ship_values


def _stored(ship: Ship) -> dict:
    """The ship in the fleet shape ``ship_values`` checks (its id and place left out)."""
    data = ship_data(ship)
    data.pop("id")
    data.pop("position")
    return data


def _campaign_first(ship: Ship) -> None:
    """Campaigns.locking: the campaign's row before the ship's (a correction locks its round)."""
    lock_campaign(Fleet.objects.filter(pk=ship.fleet_id).values_list("campaign_id",
                                                                      flat=True).get())


@transaction.atomic
def ship_update(*, ship: Ship, actor=None, reason: str = "", **changes) -> Ship:
    """Change any of the ship's values (Ship field names: ``ship_class`` for the class); the
    whole ship is checked again, so a change never leaves it outside R-FLT-2 or with a partial
    datasheet (R-SPC-1)."""
    _campaign_first(ship)
    ship = Ship.objects.select_for_update().select_related("fleet__campaign").get(pk=ship.pk)
    fleet = ship.fleet
    before = _stored(ship)
    merged = {**before, **{("class" if k == "ship_class" else k): v
                           for k, v in changes.items()}}
    checked = ship_values(merged, detachment_points_of(fleet.campaign))
    log_fleet(fleet, actor, "ship.update", before=before, after=checked, public=False,
              reason=reason)
    for key, value in checked.items():
        setattr(ship, key, value)
    ship.save()
    return ship


@transaction.atomic
def ship_delete(*, ship: Ship, actor=None, reason: str = "") -> None:
    """Remove a ship; the ones behind it move up the line (R-FLT-1)."""
    _campaign_first(ship)
    ship = Ship.objects.select_for_update().select_related("fleet__campaign").get(pk=ship.pk)
    fleet: Fleet = ship.fleet
    count = fleet.ships.count()
    log_fleet(fleet, actor, "fleet.update", before=fleet_facts(fleet, count),
              after=fleet_facts(fleet, count - 1), reason=reason)
    log_fleet(fleet, actor, "ship.delete", before=_stored(ship), public=False, reason=reason)
    ship.delete()
    for position, rest in enumerate(fleet.ships.order_by("position", "id"), start=1):
        if rest.position != position:
            rest.position = position
            rest.save(update_fields=["position"])
