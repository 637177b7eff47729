"""What the campaign admin creates: fleets with their ships (R-FLT-1, R-FLT-2), more ships for
a fleet, and sea hazards (R-SEA-2) - which the owner of an island may also place there.
Every cross-reference must belong to the campaign (400 otherwise).

In a running campaign the admin's writes are corrections (
``campaigns.services.corrections``): refused while the fleets phase is resolved, logged
otherwise. R-FLT-7: a fleet's owner, area and ship count are public, so a fleet's placing,
move, owner change and removal are logged publicly with those facts only; its name, ships and
every hazard (R-SEA-2) go into entries only admins read (``public=False``)."""

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_campaign
from campaigns.models import Campaign, Player, Round
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.rounds import current_round
from campaigns.services.corrections import correction
from fleets.messages import ship_value_text
from fleets.models import Area, Fleet, FleetOrder, SeaHazard, Ship
from fleets.services.orders import require_declare
from fleets.values import fleet_owner_error, ship_fields
from rules.interception import AF_RANGE, KINDS
from rules.ship_values import NAME_LIMIT, Problem, hazard_problems, ship_problems

SHIP_FIELDS = ("name", "ship_class", "attack", "defence", "agility", "capacity", "seats",
               "cargo", "crew", "datasheet")


def _own(campaign: Campaign, obj, field: str):
    if obj is not None and obj.campaign_id != campaign.pk:
        raise RuleViolation(_("Belongs to another campaign."), field=field)
    return obj


def _text(value, field: str, blank: bool = False) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()) or len(value) > NAME_LIMIT:
        raise RuleViolation(_("A text of %(low)s to %(high)s characters.")
                            % {"low": 0 if blank else 1, "high": NAME_LIMIT},
                            field=field)
    return value.strip()


def _number(value, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RuleViolation(_("A whole number from %(low)s to %(high)s.")
                            % {"low": low, "high": high}, field=field)
    return value


def _refuse(problems: list[Problem], prefix: str = "") -> None:
    """The first problem as a 400 naming the field and the rule (R-FLT-2, R-SPC-1, R-SEA-2)."""
    if problems:
        first = problems[0]
        raise RuleViolation(ship_value_text(first), code=first.rule, field=first.at(prefix))


def ship_values(values: dict, detachment_points: int, prefix: str = "") -> dict:
    """Checked ship values as Ship fields (``rules.ship_values``: R-FLT-2, R-SPC-1): Dark Force
    values, capacity and seats, cargo within capacity and ``detachment_points``, the crew
    stack, a complete D6 datasheet or null. ``values`` are Ship fields (``ship_class``) or the
    fleet shape (``class``); errors name the field below ``prefix`` (``ships[0]``)."""
    ship = {("class" if key == "ship_class" else key): value for key, value in values.items()}
    _refuse(ship_problems(ship, detachment_points=detachment_points), prefix)
    return ship_fields(ship)


def detachment_points_of(campaign: Campaign) -> int:
    return ruleset_of(campaign).detachment_points


def fleet_facts(fleet: Fleet, ship_count: int | None = None) -> dict:
    """R-FLT-7: a fleet's public facts, for a public log entry."""
    count = fleet.ships.count() if ship_count is None else ship_count
    return {"owner": fleet.owner_id, "area": fleet.area_id, "ship_count": count}


def log_fleet(fleet: Fleet, actor, kind: str, before=None, after=None, *,
              public: bool = True, reason: str = "") -> None:
    """One correction of a fleet; a public entry names the fleet by id only (its name is
    hidden, R-FLT-7) and must carry ``fleet_facts`` only."""
    target = f"fleet {fleet.pk}" if public else f"fleet {fleet.pk} ({fleet.name})"
    correction(campaign=fleet.campaign, actor=actor, kind=kind, target=target, before=before,
               after=after, public=public, reason=reason)


def _check_owner(kind: str, owner: Player | None) -> None:
    owner_error = fleet_owner_error(kind=kind, has_owner=owner is not None)
    if owner_error:
        raise RuleViolation(owner_error, code="R-FLT-1", field="owner")


@transaction.atomic
def fleet_create(*, campaign: Campaign, name: str, area: Area, owner: Player | None = None,
                 kind: str = "regular", admiral_rating: int = 0, ships=(),
                 actor=None, reason: str = "") -> Fleet:
    """A fleet in ``area`` with its ships in line order (R-FLT-1); a pirate fleet has no
    owner, every other fleet has one."""
    if kind not in KINDS:
        raise RuleViolation(_("Kinds: %(kinds)s.") % {"kinds": ", ".join(KINDS)}, field="kind")
    _check_owner(kind, owner)
    points = detachment_points_of(campaign)
    checked = [ship_values(s, points, f"ships[{i}]") for i, s in enumerate(ships)]
    fleet = Fleet.objects.create(
        campaign=campaign, name=_text(name, "name"), area=_own(campaign, area, "area"),
        owner=_own(campaign, owner, "owner"), kind=kind,
        admiral_rating=_number(admiral_rating, "admiral_rating", *AF_RANGE))
    Ship.objects.bulk_create(Ship(fleet=fleet, position=i, **values)
                             for i, values in enumerate(checked, start=1))
    bump(campaign.pk)  # no signals: campaigns/revision.py
    log_fleet(fleet, actor, "fleet.create", after=fleet_facts(fleet, len(checked)), reason=reason)
    return fleet


_UNSET = object()


@transaction.atomic
def fleet_update(*, fleet: Fleet, name=_UNSET, area=_UNSET, owner=_UNSET, kind=_UNSET,
                 admiral_rating=_UNSET, actor=None, reason: str = "") -> Fleet:
    """The admin renames a fleet, moves it to another area, gives it another owner, kind or
    admiral rating (R-FLT-1). A move by the admin is not a movement order (R-FLT-4): any area
    of the campaign, no path."""
    lock_campaign(fleet.campaign_id)  # campaigns.locking: the campaign first
    fleet = Fleet.objects.select_for_update().select_related("campaign").get(pk=fleet.pk)
    campaign = fleet.campaign
    before, hidden_before = fleet_facts(fleet), _hidden_facts(fleet)
    if name is not _UNSET:
        fleet.name = _text(name, "name")
    if area is not _UNSET:
        fleet.area = _own(campaign, area, "area")
    if owner is not _UNSET:
        fleet.owner = _own(campaign, owner, "owner")
    if kind is not _UNSET:
        if kind not in KINDS:
            raise RuleViolation(_("Kinds: %(kinds)s.") % {"kinds": ", ".join(KINDS)}, field="kind")
        fleet.kind = kind
    if admiral_rating is not _UNSET:
        fleet.admiral_rating = _number(admiral_rating, "admiral_rating", *AF_RANGE)
    _check_owner(fleet.kind, fleet.owner)
    after = fleet_facts(fleet, before["ship_count"])
    if after != before:
        log_fleet(fleet, actor, "fleet.update", before=before, after=after, reason=reason)
    if _hidden_facts(fleet) != hidden_before:
        log_fleet(fleet, actor, "fleet.update", before=hidden_before, after=_hidden_facts(fleet),
                  public=False, reason=reason)
    if area is not _UNSET and fleet.area_id != before["area"]:
        fleet.arrived_round, fleet.arrived_step = None, 0  # R-INT-6: placed by the admin
    if (fleet.area_id, fleet.owner_id) != (before["area"], before["owner"]):
        # R-FLT-4: an order given from the old area, or by the old owner, does not carry over
        FleetOrder.objects.filter(fleet=fleet, round__phase=Round.Phase.DECLARE).delete()
    fleet.save()
    return fleet


def _hidden_facts(fleet: Fleet) -> dict:
    return {"name": fleet.name, "kind": fleet.kind, "admiral_rating": fleet.admiral_rating}


@transaction.atomic
def ship_create(*, fleet: Fleet, actor=None, reason: str = "", **values) -> Ship:
    """A ship at the end of the fleet's line (R-FLT-1, R-FLT-2)."""
    lock_campaign(fleet.campaign_id)  # campaigns.locking: the campaign first
    fleet = Fleet.objects.select_for_update().select_related("campaign").get(pk=fleet.pk)
    checked = ship_values(values, detachment_points_of(fleet.campaign))
    count = fleet.ships.count()
    log_fleet(fleet, actor, "fleet.update", before=fleet_facts(fleet, count),
              after=fleet_facts(fleet, count + 1), reason=reason)
    log_fleet(fleet, actor, "ship.create", after=checked, public=False, reason=reason)
    last = fleet.ships.aggregate(last=Max("position"))["last"] or 0
    return Ship.objects.create(fleet=fleet, position=last + 1, **checked)


@transaction.atomic
def fleet_delete(*, fleet: Fleet, actor=None, reason: str = "") -> None:
    """Remove a fleet with its ships, orders and markers (campaign admin)."""
    rnd = current_round(fleet.campaign_id, lock=True)
    if rnd is not None and rnd.phase == rnd.Phase.FLEETS:
        raise Conflict(_("The fleets phase is being resolved."))
    log_fleet(fleet, actor, "fleet.delete", before=fleet_facts(fleet), reason=reason)
    fleet.delete()


@transaction.atomic
def hazard_create(*, campaign: Campaign, area: Area, name: str, attack: int = 1,
                  defence: int = 1, agility: int = 1, owner: Player | None = None,
                  actor=None, reason: str = "") -> SeaHazard:
    """The admin places a hidden sea hazard (R-SEA-2) in any area; ``owner`` (optional) must
    then own that island. Logged for admins only: hazards are hidden."""
    hazard = _hazard_new(campaign=campaign, area=area, name=name, attack=attack,
                         defence=defence, agility=agility, owner=owner)
    correction(campaign=campaign, actor=actor, kind="hazard.create",
               target=f"hazard {hazard.name}", after=hazard_facts(hazard), public=False,
               reason=reason)
    return hazard


def hazard_facts(hazard: SeaHazard) -> dict:
    """A hazard's values for an admin-only log entry (R-SEA-2: hidden)."""
    return {"name": hazard.name, "area": hazard.area_id, "owner": hazard.owner_id,
            "attack": hazard.attack, "defence": hazard.defence, "agility": hazard.agility}


def check_hazard(area: Area, owner: Player | None, values: dict) -> None:
    """R-SEA-2: an owned hazard lies in its owner's island; values within the ship bounds."""
    if owner is not None and not (area.kind == Area.Kind.ISLAND and area.owner_id == owner.pk):
        raise RuleViolation(_("A hazard's owner is the owner of its island area (R-SEA-2)."),
                            code="R-SEA-2", field="owner")
    _refuse(hazard_problems(values))


def _hazard_new(*, campaign: Campaign, area: Area, name: str, attack: int, defence: int,
                agility: int, owner: Player | None) -> SeaHazard:
    _own(campaign, area, "area")
    _own(campaign, owner, "owner")
    name = _text(name, "name")
    check_hazard(area, owner, {"attack": attack, "defence": defence, "agility": agility})
    return SeaHazard.objects.create(campaign=campaign, area=area, owner=owner, name=name,
                                    attack=attack, defence=defence, agility=agility)


@transaction.atomic
def hazard_place(*, player: Player, area: Area, name: str, attack: int = 1, defence: int = 1,
                 agility: int = 1) -> SeaHazard:
    """The owner of an island area places a hidden hazard there (R-SEA-2), in ``declare``.
    Its values stay within the ship bounds of R-FLT-2 (R-SEA-2); the league admin can remove
    it."""
    require_declare(current_round(player.campaign_id, lock=True), _("Hazards are placed"))
    area = Area.objects.select_for_update().get(pk=area.pk)
    if area.kind != Area.Kind.ISLAND or area.owner_id != player.pk:
        raise RuleViolation(_("Only the owner of an island area places hazards there (R-SEA-2)."),
                            code="R-SEA-2", field="area")
    return _hazard_new(campaign=area.campaign, area=area, name=name, attack=attack,
                       defence=defence, agility=agility, owner=player)


@transaction.atomic
def hazard_delete(*, hazard: SeaHazard, actor=None, reason: str = "") -> None:
    correction(campaign=hazard.campaign, actor=actor, kind="hazard.delete",
               target=f"hazard {hazard.name}", before=hazard_facts(hazard), public=False,
               reason=reason)
    hazard.delete()
