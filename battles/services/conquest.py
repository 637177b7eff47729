"""The conquest phase (R-CON-1..7, R-RND-3): won attacks, sealed choices, the rolls.

Reads build the rules' inputs from the database; writes go through the services below, each in
a transaction with the round row locked. All rolls come from the round's logged stream."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.messages import rules_refusal
from battles.models import ConquestChoice, ConquestRoll
from battles.selectors.conquest import (
    chain_captures,
    players_waiting,
    won_attacks,
)
from battles.services.campaign_events import conquest_emit
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_round
from campaigns.models import Player, Round, Tile
from campaigns.pausing import check_not_paused
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services.dice import round_dice
from fleets.selectors.board import load_board
from rules import conquest as rules


def _lock_round(rnd: Round) -> Round:
    return lock_round(rnd.pk)  # the campaign first (campaigns.locking)


def check_choice_open(rnd: Round, player: Player) -> None:
    """409 unless the player may still seal a choice (R-CON-4). The API asks before it reads
    the input; ``conquest_choose`` asks again under the round's lock. Not while the campaign
    is paused."""
    check_not_paused(rnd.campaign)
    if rnd.phase != Round.Phase.CONQUEST or rnd.conquest_resolved_at:
        raise Conflict(_("Conquest choices are made in the conquest phase."))
    if ConquestChoice.objects.filter(round=rnd, player=player).exists():
        raise Conflict(_("Your choice is sealed already (R-CON-4)."), code="already_chosen")


@transaction.atomic
def conquest_choose(*, player: Player, rnd: Round, roll: list[int]) -> ConquestChoice:
    """Seal a player's choice (R-CON-4); the rest are waived (R-CON-5). When every player with
    won attacks has chosen, all rolls are made at once."""
    rnd = _lock_round(rnd)
    check_choice_open(rnd, player)
    # only the chooser's won attacks; the whole phase is read once, when it resolves
    own = {attack.id for attack, _ in won_attacks(rnd, player)}
    if not own:
        raise RuleViolation(_("You have no won attack to roll this round."), code="R-CON-4")
    stray = sorted(set(roll) - own)
    if stray:
        raise RuleViolation(_("Attacks %(attacks)s are not your won attacks this round.")
                            % {"attacks": stray},
                            code="R-CON-4", field="roll")
    choice = ConquestChoice.objects.create(round=rnd, player=player, rolls=sorted(set(roll)))
    if not players_waiting(rnd):
        _resolve(rnd, won_attacks(rnd))
    return choice


def conquest_resolve(*, round: Round, now=None) -> None:  # noqa: A002
    """At the conquest deadline (R-RND-3): missing choices take ``conquest_default`` and every
    roll is made. Idempotent: a resolved round is left alone. Call with the round locked."""
    if round.conquest_resolved_at is None:
        _resolve(round, won_attacks(round), now)


def _resolve(rnd: Round, won, now=None) -> None:
    ruleset = ruleset_of(rnd.campaign)
    choices = {c.player_id: c.rolls for c in ConquestChoice.objects.filter(round=rnd)}
    missing = {attack.player for attack, _ in won} - set(choices)
    defaults = {p: None for p in missing}
    board = load_board(rnd.campaign)
    battles = {attack.id: battle for attack, battle in won}
    # a sealed choice that no longer fits is refused, and nothing changes
    with rules_refusal(), round_dice(rnd) as dice:
        dice.current_object = "conquest"
        counter = dice.next_counter
        result = rules.resolve_conquest_phase(
            board, ruleset, [a for a, _ in won], {**choices, **defaults}, dice,
            captures=chain_captures(rnd))
    rolled = {r.attack for r in result.rolls}
    ConquestChoice.objects.bulk_create([
        ConquestChoice(round=rnd, player_id=p, defaulted=True,
                       rolls=[a.id for a, _ in won if a.player == p and a.id in rolled])
        for p in missing])
    ConquestRoll.objects.bulk_create([
        ConquestRoll(round=rnd, attack_id=r.attack, battle_id=battles[r.attack], tile_id=r.tile,
                     player_id=r.player, dice=list(r.dice),
                     modifiers=[m.as_dict() for m in r.modifiers], total=r.total,
                     threshold=r.threshold, threshold_rule=r.threshold_rule, k=r.k,
                     success=r.success, counter=counter + i)
        for i, r in enumerate(result.rolls)])
    transfer_tiles(result.transfers)
    rnd.conquest_resolved_at = now or timezone.now()
    Round.objects.filter(pk=rnd.pk).update(conquest_resolved_at=rnd.conquest_resolved_at)
    conquest_emit(round=rnd, now=rnd.conquest_resolved_at)


def transfer_tiles(transfers: dict[int, int]) -> None:
    """Successful rolls move tiles; markers go with them (R-CON-1, R-MRK-4)."""
    by_owner: dict[int, list[int]] = {}
    for tile, owner in transfers.items():
        by_owner.setdefault(owner, []).append(tile)
    for owner, tiles in by_owner.items():
        Tile.objects.filter(pk__in=tiles).update(owner_id=owner)
    if transfers:  # no signals: campaigns/revision.py
        bump(Tile.objects.filter(pk__in=list(transfers)[:1]).values("campaign_id"))
