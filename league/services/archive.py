"""The campaign archive (``docs/archive.md``): one versioned JSON document
with a whole campaign - ruleset, map, players, every round with its facts and dice - built
for a campaign admin, and the sandbox: a private copy made by exporting and importing in
memory (``league.services.archive_import``).

What nobody may see is never written (R-SEC-2): the open round's seed (R-DICE-2) and its
draws that are not public yet, army lists before their reveal (R-ARM-3), fleet orders and NO
INTERCEPTION markers (R-FLT-7), sealed conquest choices (R-CON-4), naval replays (only the
members' summary, R-FLT-7) and every account's data but a display name."""

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from battles.models import ArmyList, Battle, ConquestChoice, ConquestRoll, ResultChange
from campaigns.access import is_campaign_admin
from campaigns.errors import DomainError
from campaigns.models import (
    Attack,
    Campaign,
    MarkerType,
    Player,
    Purchase,
    Round,
    RoundMap,
    RoundStandings,
)
from campaigns.selectors.players import display_name
from campaigns.selectors.rounds import dice_campaign_id, revealed_seed, visible_rolls
from campaigns.services.admin_log import record
from fleets.models import Area, FleetPhase, NavalBattle, SeaHazard
from fleets.selectors.fleets import AFTER_FLEETS, naval_report
from league.selectors.map import map_document
from rules.fleet_phase import standing_orders

FORMAT, VERSION = "feldzug-campaign", 1
SHIP_KEYS = ("name", "attack", "defence", "agility", "capacity", "seats", "cargo", "crew",
             "datasheet")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _players(campaign: Campaign) -> list[dict]:
    """Seats as the archive keeps them: no username, no e-mail, only the display name; in
    the order of their holders' usernames, which break ties in the standings (R-VP-2)."""
    seats = sorted(Player.objects.filter(campaign=campaign).select_related("user__profile"),
                   key=lambda p: (p.user.username.casefold(), p.pk))
    return [{"id": p.pk, "faction": p.faction, "colour": p.colour, "requisition": p.requisition,
             "display_name": display_name(p.user)} for p in seats]


def _map(campaign: Campaign) -> dict:
    """The map document (``league.selectors.map``) with what the map import takes besides:
    island owners and every fleet whole as the admin sees it (R-FLT-7) - never its orders."""
    document = map_document(campaign)
    owners = dict(Area.objects.filter(campaign=campaign).values_list("pk", "owner_id"))
    for area in document["areas"]:
        area["owner"] = owners.get(area["id"])
    fleets = {f.pk: f for f in campaign.fleets.prefetch_related("ships")}
    document["fleets"] = [_fleet(fleets[row["id"]]) for row in document["fleets"]]
    return document


def _fleet(fleet) -> dict:
    ships = sorted(fleet.ships.all(), key=lambda s: (s.position, s.pk))
    return {"id": fleet.pk, "owner": fleet.owner_id, "area": fleet.area_id, "kind": fleet.kind,
            "name": fleet.name, "admiral_rating": fleet.admiral_rating,
            "ships": [{"class": s.ship_class, **{k: getattr(s, k) for k in SHIP_KEYS}}
                      for s in ships],
            "standing_orders": standing_orders(fleet.standing_orders),
            "arrived_round": fleet.arrived_round, "arrived_step": fleet.arrived_step}


def _hazards(campaign: Campaign) -> list[dict]:
    """R-SEA-2: the admin sees every hazard; the archive is the admin's."""
    return list(SeaHazard.objects.filter(campaign=campaign).order_by("id").values(
        "area", "owner", "name", "attack", "defence", "agility", "hits", "active",
        "triggered_at"))


def _marker_types(campaign: Campaign) -> list[dict]:
    return list(MarkerType.objects.filter(campaign=campaign).order_by("id").values(
        "code", "name", "army_points_bonus", "conquest_modifier", "radius"))


def _rolls(rnd: Round) -> list[dict]:
    """Closed: the whole log. Open: only the draws public already (``visible_rolls``), so no
    fleet draw hints at hidden fleets (R-FLT-7)."""
    return list(visible_rolls(rnd, full=False).values("counter", "purpose", "sides", "faces",
                                                      "object"))


def _battle(battle: Battle, history: list[dict], lists: list[dict]) -> dict:
    fields = ("attack", "tile", "attacker", "defender", "neutral", "chain_position",
              "chain_length", "status", "point_limits", "bonus", "place", "outcome",
              "attacker_vp", "defender_vp", "result_status", "chain_decision")
    times = ("settled_at", "scheduled_at", "reported_at", "confirmed_at", "lists_revealed_at")
    data = {"id": battle.pk, **{f: getattr(battle, f + "_id" if f in (
        "attack", "tile", "attacker", "defender") else f) for f in fields},
        **{t: _iso(getattr(battle, t)) for t in times}}
    # R-ARM-3: lists only once revealed
    data["army_lists"] = lists if battle.lists_revealed_at is not None else []
    data["history"] = history
    return data


def _battles(rnd: Round) -> list[dict]:
    battles = list(Battle.objects.filter(round=rnd).order_by("attack__order", "id"))
    history: dict[int, list] = {b.pk: [] for b in battles}
    for change in ResultChange.objects.filter(battle__round=rnd).order_by("at", "id"):
        history[change.battle_id].append({"at": _iso(change.at), "old": change.old,
                                          "new": change.new})
    lists: dict[int, list] = {b.pk: [] for b in battles}
    revealed = [b.pk for b in battles if b.lists_revealed_at is not None]
    for item in ArmyList.objects.filter(battle__in=revealed).order_by("battle", "player"):
        lists[item.battle_id].append({
            "player": item.player_id, "name": item.name, "faction": item.faction,
            "entries": item.entries, "total": item.total, "roster_total": item.roster_total,
            "warnings": item.warnings, "settings": item.settings, "source": item.source,
            "submitted_at": _iso(item.submitted_at)})
    return [_battle(b, history[b.pk], lists[b.pk]) for b in battles]


def _conquest(rnd: Round, closed: bool) -> dict:
    """Choices are sealed until the phase resolved them (R-CON-4); rolls are public."""
    choices = []
    if closed or rnd.conquest_resolved_at is not None:
        choices = list(ConquestChoice.objects.filter(round=rnd).order_by("player").values(
            "player", "rolls", "defaulted"))
    rolls = list(ConquestRoll.objects.filter(round=rnd).order_by("counter").values(
        "attack", "battle", "tile", "player", "dice", "modifiers", "total", "threshold",
        "threshold_rule", "k", "success", "immediate", "counter"))
    return {"conquest_choices": choices, "conquest_rolls": rolls}


def _fleets_phase(rnd: Round, closed: bool) -> dict:
    """After the ``fleets`` phase: each naval battle as every member sees it (R-FLT-7); once
    the round closed also its dice range and the phase's record without the events (they
    retrace the routes, R-FLT-7). Before the close the players' order and the dice ranges
    stay out: their draws are not public yet (``visible_rolls``)."""
    if rnd.phase not in AFTER_FLEETS:
        return {"fleet_phase": None, "naval_battles": []}
    record = FleetPhase.objects.filter(round=rnd).first() if closed else None
    phase = None if record is None else {
        "resolved_at": _iso(record.resolved_at), "player_order": record.player_order,
        "first_counter": record.first_counter, "dice_count": record.dice_count}
    battles = []
    for battle in NavalBattle.objects.filter(round=rnd).select_related("round"):
        report = naval_report(battle, player=None, is_admin=False)
        battles.append({key: report[key] for key in (
            "area", "sequence", "engine", "attacker", "defender", "winner", "attacker_vp",
            "defender_vp", "losses")} | {
            "first_counter": battle.first_counter if closed else None,
            "dice_count": battle.dice_count if closed else None})
    return {"fleet_phase": phase, "naval_battles": battles}


def _round(rnd: Round) -> dict:
    closed = rnd.phase == Round.Phase.CLOSED and rnd.seed_revealed
    standings = RoundStandings.objects.filter(round=rnd).values_list("rows", flat=True).first()
    snapshot = RoundMap.objects.filter(round=rnd).first()
    return {
        "number": rnd.number, "phase": rnd.phase,
        "opened_at": _iso(rnd.opened_at), "phase_started_at": _iso(rnd.phase_started_at),
        "phase_deadline": _iso(rnd.phase_deadline), "closed_at": _iso(rnd.closed_at),
        "conquest_resolved_at": _iso(rnd.conquest_resolved_at),
        "seed_commitment": rnd.seed_commitment,
        "server_seed": revealed_seed(rnd),  # R-DICE-2: null until the round closed
        "dice_campaign": dice_campaign_id(rnd) if closed else None,
        "next_counter": rnd.next_counter if closed else None,
        "rolls": _rolls(rnd),
        "purchases": list(Purchase.objects.filter(round=rnd).order_by("id").values(
            "player", "attack_armies", "cost")),
        "attacks": list(Attack.objects.filter(round=rnd).order_by("order").values(
            "id", "player", "tile", "source", "order", "status", "status_reason")),
        "battles": _battles(rnd), **_conquest(rnd, closed), **_fleets_phase(rnd, closed),
        "standings": None if standings is None else [
            {k: v for k, v in row.items() if k != "username"} for row in standings],
        "map_snapshot": None if snapshot is None else {"tiles": snapshot.tiles,
                                                       "fleets": snapshot.fleets},
    }


def archive_document(campaign: Campaign, *, now: datetime) -> dict:
    """The archive of ``campaign`` as ``docs/archive.md`` describes it (no log entry)."""
    return {
        "format": FORMAT, "version": VERSION, "exported_at": _iso(now),
        "campaign": {"id": campaign.pk, "name": campaign.name, "status": campaign.status,
                     "visibility": campaign.visibility, "time_zone": campaign.time_zone,
                     "language": campaign.language, "ruleset": campaign.ruleset},
        "marker_types": _marker_types(campaign),
        "players": _players(campaign),
        "map": _map(campaign),
        "hazards": [{**h, "triggered_at": _iso(h["triggered_at"])} for h in _hazards(campaign)],
        "rounds": [_round(rnd) for rnd in Round.objects.filter(campaign=campaign)
                   .order_by("number")],
    }


class NotAdmin(DomainError):
    status = 403
    default_code = "permission_denied"


def check_admin(campaign: Campaign, by) -> None:
    if not is_campaign_admin(by, campaign):
        raise NotAdmin(_("Only the campaign's admins may export or copy it."))


@transaction.atomic
def archive_export(*, campaign: Campaign, by, now: datetime) -> dict:
    """The archive for one of the campaign's admins; logged (not shown to members)."""
    check_admin(campaign, by)
    document = archive_document(campaign, now=now)
    record(campaign=campaign, actor=by, kind="campaign.export", target=campaign.name,
           after={"rounds": len(document["rounds"])}, public=False)
    return document


@transaction.atomic
def campaign_clone_sandbox(*, campaign: Campaign, by, now: datetime) -> Campaign:
    """A private copy of ``campaign`` as it stands for the admin ``by`` to try changes in:
    only ``by`` administers it, its open round draws from a fresh seed
    (never the original's, R-DICE-2), and it mails nobody."""
    from league.services.archive_import import import_document

    check_admin(campaign, by)
    document = archive_document(campaign, now=now)
    sandbox = import_document(document=document, by=by, now=now, sandbox_of=campaign)
    record(campaign=campaign, actor=by, kind="sandbox.create", target=sandbox.name,
           after={"sandbox": sandbox.pk}, public=False)
    return sandbox
