"""Battles from the round's declarations (R-BAT-1, R-ATK-4, R-ATK-5).

``battles_sync`` makes the round's battle rows match its active declarations: per tile, the
active attacks in declaration order form a chain (``rules.attacks.tile_chains``); link 1 fights
the tile's holder, later links wait (``pending``, defender null) until the link before is
resolved (R-CON-6, ``battles.services.chains``). A single attack on a neutral tile needs no
battle unless ``neutral_needs_battle`` (R-ATK-4, ``rules.attacks.needs_battle``); in a chain
on a neutral tile link 1 is a walkover - a battle row confirmed as won at once, because the
chain's roll decision and the next link hang on it.

It runs when ``declare`` ends and again when ``fleets`` ends, after the orbital re-check
(R-ATK-3) cancelled declarations: a cancelled declaration's battle is deleted and its chain
renumbered (no battle can have been played before ``battles``). Idempotent."""

from datetime import datetime

from battles.models import Battle, ResultChange
from battles.selectors.battles import result_snapshot
from battles.services.attacks import attacks_cancel_uncovered_orbital
from campaigns.models import Attack, Round
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.steps import phase_step
from fleets.selectors.board import load_board
from rules.attacks import needs_battle, tile_chains
from rules.board import Board
from rules.ruleset import Ruleset

LAYOUT_FIELDS = ("defender_id", "neutral", "chain_position", "chain_length", "status",
                 "settled_at", "outcome", "result_status", "confirmed_at")
WALKOVER_REASON = "R-ATK-4: neutral tile, no battle"


def _link(board: Board, ruleset: Ruleset, tile: int, position: int, length: int,
          now: datetime) -> dict:
    """The fields of one chain link as it stands before anything is played."""
    fields = {"defender_id": None, "neutral": False, "chain_position": position,
              "chain_length": length, "status": Battle.Status.PENDING, "settled_at": None,
              "outcome": "", "result_status": "", "confirmed_at": None}
    if position > 1:
        return fields  # settled when the link before is resolved (R-ATK-5)
    holder = board.tile(tile).owner
    fields.update(defender_id=holder, neutral=holder is None, status=Battle.Status.OPEN,
                  settled_at=now)
    if not needs_battle(board, ruleset, tile):  # R-ATK-4: a won attack without a battle
        fields.update(status=Battle.Status.DONE, outcome=Battle.Outcome.VICTORY,
                      result_status=Battle.ResultStatus.CONFIRMED, confirmed_at=now)
    return fields


def battle_layout(rnd: Round, now: datetime) -> dict[int, dict]:
    """attack id -> the fields its battle should have; attacks without a battle are absent."""
    campaign = rnd.campaign
    board, ruleset = load_board(campaign), ruleset_of(campaign)
    rows = Attack.objects.filter(round=rnd, status=Attack.Status.ACTIVE).values_list(
        "order", "pk", "tile_id")
    active = {order: (pk, tile) for order, pk, tile in rows}
    layout = {}
    for tile, orders in tile_chains((o, t) for o, (_, t) in active.items()).items():
        if len(orders) == 1 and not needs_battle(board, ruleset, tile):
            continue  # R-ATK-4: the declaration alone counts as a won attack
        for position, order in enumerate(orders, start=1):
            layout[active[order][0]] = {"tile_id": tile,
                                     **_link(board, ruleset, tile, position, len(orders), now)}
    return layout


def _changed(battle: Battle, fields: dict) -> bool:
    changed = False
    for name in LAYOUT_FIELDS:
        if name == "settled_at" and battle.defender_id == fields["defender_id"] \
                and battle.settled_at:
            continue  # the defender was settled earlier; keep when
        if getattr(battle, name) != fields[name]:
            setattr(battle, name, fields[name])
            changed = True
    return changed


@phase_step
def battles_sync(*, round: Round, now: datetime) -> dict[str, int]:
    """Create, renumber and delete the round's battles to match its active declarations (see
    the module docstring). Call with the round locked (a phase hook). Returns counts."""
    rnd = round
    layout = battle_layout(rnd, now)
    existing = {b.attack_id: b for b in Battle.objects.select_for_update().filter(round=rnd)}
    stale = [b.pk for attack, b in existing.items() if attack not in layout]
    if stale:
        Battle.objects.filter(pk__in=stale).delete()
    changed = [b for attack, b in existing.items()
               if attack in layout and _changed(b, layout[attack])]
    if changed:
        Battle.objects.bulk_update(changed, LAYOUT_FIELDS)
    created = Battle.objects.bulk_create([
        Battle(campaign_id=rnd.campaign_id, round=rnd, attack_id=attack,
               attacker_id=attacker, **layout[attack])
        for attack, attacker in Attack.objects.filter(pk__in=set(layout) - set(existing))
        .order_by("order").values_list("pk", "player_id")])
    _record_walkovers(rnd, now)
    bump(rnd.campaign_id)  # no signals: campaigns/revision.py
    return {"created": len(created), "updated": len(changed), "deleted": len(stale)}


def _record_walkovers(rnd: Round, now: datetime) -> None:
    """History for walkovers (R-BAT-4): who = nobody (the rules), why = R-ATK-4."""
    walkovers = (Battle.objects.filter(round=rnd, neutral=True, status=Battle.Status.DONE,
                                       result_status=Battle.ResultStatus.CONFIRMED)
                 .exclude(history__isnull=False))
    ResultChange.objects.bulk_create([
        ResultChange(battle=b, by=None, old=None,
                     new={**result_snapshot(b), "reason": WALKOVER_REASON})
        for b in walkovers])


@phase_step
def battles_recheck_orbital(*, round: Round, now: datetime) -> list[int]:  # noqa: A002
    """When ``fleets`` ends (R-ATK-3): cancel orbital declarations no longer covered (latest
    first), then drop their battles and renumber the chains they were in. Returns the
    cancelled attacks' ids."""
    cancelled = attacks_cancel_uncovered_orbital(round=round)
    battles_sync(round=round, now=now)
    return cancelled
