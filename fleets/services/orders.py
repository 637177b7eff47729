"""A player's orders for its fleets: movement orders (R-FLT-4), standing orders (R-FLT-5) and
embarking or disembarking detachments (R-FLT-8). The rules decide (``rules.fleet_phase``);
these services lock the round (so an order is in before ``declare`` ends or refused) and write.

The caller has checked that the player owns the fleet (the API answers 403 otherwise)."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Player, Round, Tile
from campaigns.pausing import check_not_paused
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.rounds import current_round
from fleets.messages import order_text
from fleets.models import Area, Fleet, FleetOrder, Ship
from fleets.phase_state import area_graph
from rules.fleet_phase import (
    OrderError,
    disembark_error,
    embark_error,
    path_error,
    standing_orders,
    standing_orders_error,
)
from rules.ship_values import NAME_LIMIT


def require_declare(rnd: Round | None, what: str) -> Round:
    """Orders and transport happen in the ``declare`` phase (R-RND-1, R-FLT-4, R-FLT-8), not
    while the campaign is paused."""
    if rnd is not None:
        check_not_paused(rnd.campaign)
    if rnd is None or rnd.phase != Round.Phase.DECLARE:
        if rnd is None:
            raise Conflict(_("%(what)s only in the declare phase (the campaign has no round).")
                           % {"what": what})
        raise Conflict(_("%(what)s only in the declare phase (the campaign has round "
                         "%(number)s in the %(phase)s phase).")
                       % {"what": what, "number": rnd.number,
                          "phase": Round.Phase(rnd.phase).label})
    return rnd


def require_not_resolving(rnd: Round | None) -> None:
    """[reading] R-FLT-5: standing orders change at any time but while the fleets phase runs
    (the resolution reads them). Not while the campaign is paused."""
    if rnd is not None:
        check_not_paused(rnd.campaign)
    if rnd is not None and rnd.phase == Round.Phase.FLEETS:
        raise Conflict(_("The fleets phase is being resolved; standing orders are locked."))


def _violation(error: OrderError | None) -> None:
    if error is not None:
        raise RuleViolation(order_text(error), code=error.rule, field=error.field)


def _own(player: Player, fleet: Fleet) -> None:
    if fleet.owner_id != player.pk or fleet.campaign_id != player.campaign_id:
        raise ValueError("the player does not own this fleet")


# --- R-FLT-4 ----------------------------------------------------------------------------------


@transaction.atomic
def fleet_set_orders(*, player: Player, fleet: Fleet, path: list[int]) -> FleetOrder | None:
    """Give (or replace) the fleet's movement order for the current round: the areas to enter
    in order (R-FLT-4). An empty path withdraws the order. A replaced order counts as given
    now (R-FLT-6 [reading]: a player's fleets move in the order their orders were last given)."""
    _own(player, fleet)
    rnd = require_declare(current_round(fleet.campaign_id, lock=True),
                          _("Movement orders are given"))
    fleet = Fleet.objects.get(pk=fleet.pk)
    ruleset = ruleset_of(rnd.campaign)
    _violation(path_error(fleet.area_id, path, area_graph(fleet.campaign_id),
                          ruleset.max_fleet_moves))
    FleetOrder.objects.filter(round=rnd, fleet=fleet).delete()
    if not path:
        return None
    return FleetOrder.objects.create(round=rnd, fleet=fleet, path=list(path))


# --- R-FLT-5 ----------------------------------------------------------------------------------


@transaction.atomic
def fleet_set_standing_orders(*, fleet: Fleet, changes: dict) -> Fleet:
    """Change the fleet's standing orders (R-FLT-5): ``interception``, ``benefits``,
    ``stance`` and ``line`` (the battle line, a permutation of its ship ids, stored as the
    ships' positions). Keys not given stay as they are."""
    require_not_resolving(current_round(fleet.campaign_id, lock=True))
    fleet = Fleet.objects.select_for_update().get(pk=fleet.pk)
    ships = {s.pk: s for s in Ship.objects.filter(fleet=fleet)}
    _violation(standing_orders_error(changes, list(ships)))
    stored = standing_orders(fleet.standing_orders)
    stored.update({k: list(v) if k == "benefits" else v for k, v in changes.items()
                   if k in ("interception", "benefits", "stance")})
    fleet.standing_orders = stored
    fleet.save(update_fields=["standing_orders"])
    if "line" in changes:
        for position, ship_id in enumerate(changes["line"], start=1):
            ships[ship_id].position = position
        Ship.objects.bulk_update(ships.values(), ["position"])
        bump(fleet.campaign_id)  # no signals: campaigns/revision.py
    return fleet


# --- R-FLT-8 ----------------------------------------------------------------------------------


def borders_own_tile(area: Area, player: Player) -> bool:
    """R-MAP-3: a coastal area borders its listed tiles, an orbit every tile of its planet."""
    if area.kind == Area.Kind.ORBIT:
        return area.planet_id is not None and Tile.objects.filter(
            planet_id=area.planet_id, owner=player).exists()
    return area.borders_tiles.filter(owner=player).exists()


def _transport(player: Player, fleet: Fleet, ship: Ship) -> tuple[Round, Fleet, Ship]:
    _own(player, fleet)
    rnd = require_declare(current_round(fleet.campaign_id, lock=True),
                          _("Detachments embark and disembark"))
    fleet = Fleet.objects.select_related("area").get(pk=fleet.pk)
    ship = Ship.objects.select_for_update().get(pk=ship.pk, fleet=fleet)
    return rnd, fleet, ship


def _name(value) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > NAME_LIMIT:
        raise RuleViolation(_("A detachment's name is a text of 1 to %(limit)s characters.")
                            % {"limit": NAME_LIMIT},
                            code="invalid", field="name")
    return value.strip()


@transaction.atomic
def fleet_embark(*, player: Player, fleet: Fleet, ship: Ship, name: str, points: int) -> Ship:
    """Embark a detachment raised from the player's territory at no cost on ``ship`` (R-FLT-8):
    in ``declare``, in a coastal or orbit area bordering one of its tiles, up to the ship's
    capacity, at most ``detachment_points`` army points (R-FLT-2). It counts for orbital
    attacks at once (R-ATK-3)."""
    rnd, fleet, ship = _transport(player, fleet, ship)
    name = _name(name)
    ruleset = ruleset_of(rnd.campaign)
    aboard = ship.cargo if isinstance(ship.cargo, list) else []
    _violation(embark_error(area_kind=fleet.area.kind,
                            borders_own_tile=borders_own_tile(fleet.area, player),
                            capacity=ship.capacity, aboard=len(aboard), points=points,
                            detachment_points=ruleset.detachment_points))
    ship.cargo = [*aboard, {"name": name, "points": points}]
    ship.save(update_fields=["cargo"])
    return ship


@transaction.atomic
def fleet_disembark(*, player: Player, fleet: Fleet, ship: Ship, index: int) -> Ship:
    """Disembark the detachment at ``index`` of the ship's cargo where it could embark; it
    disbands (R-FLT-8)."""
    _rnd, fleet, ship = _transport(player, fleet, ship)
    aboard = ship.cargo if isinstance(ship.cargo, list) else []
    _violation(disembark_error(area_kind=fleet.area.kind,
                               borders_own_tile=borders_own_tile(fleet.area, player),
                               index=index, aboard=len(aboard)))
    ship.cargo = aboard[:index] + aboard[index + 1:]
    ship.save(update_fields=["cargo"])
    return ship
