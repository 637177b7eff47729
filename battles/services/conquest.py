"""The conquest phase (R-CON-1..7, R-RND-3): won attacks, sealed choices, the rolls.

Reads build the rules' inputs from the database; writes go through the services below, each in
a transaction with the round row locked. All rolls come from the round's logged stream."""

from django.db import transaction
from django.utils import timezone

from battles.models import ConquestChoice, ConquestRoll
from campaigns.errors import Conflict, RuleViolation, rules_refusal
from campaigns.models import Attack, Player, Round, Tile
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services.dice import round_dice
from fleets.selectors.board import load_board
from rules import conquest as rules


def won_attacks(rnd: Round) -> list[tuple[rules.WonAttack, int | None]]:
    """The round's won attacks that roll in the conquest phase, with their battle id: won
    battles that are not an earlier chain link (R-CON-6), and attacks on neutral tiles that need
    no battle (R-ATK-4)."""
    attacks = (Attack.objects.filter(round=rnd, status=Attack.Status.ACTIVE)
               .select_related("battle").order_by("order"))
    won = []
    for attack in attacks:
        battle = getattr(attack, "battle", None)
        if battle is None:
            won.append((rules.WonAttack(attack.pk, attack.player_id, attack.tile_id,
                                        attack.source), None))
            continue
        last = battle.chain_position == battle.chain_length
        if battle.won and last:
            won.append((rules.WonAttack(attack.pk, attack.player_id, attack.tile_id,
                                        attack.source, battle.outcome,
                                        last_link=battle.chain_length > 1), battle.pk))
    return won


def chain_captures(rnd: Round) -> list[rules.ChainCapture]:
    """Tiles taken by immediate chain rolls this round (R-CON-6)."""
    rows = ConquestRoll.objects.filter(round=rnd, immediate=True, success=True)
    return [rules.ChainCapture(r.tile_id, r.player_id, r.attack_id) for r in rows]


def _own(won, player: Player):
    return [(attack, battle) for attack, battle in won if attack.player == player.pk]


def conquest_view(rnd: Round, player: Player, preview: list[int] | None = None) -> dict:
    """What a player sees of its conquest rolls (R-CON-7): items with threshold, modifiers and
    exact chance for its sealed choice, or for ``preview``, or for rolling all."""
    won = _own(won_attacks(rnd), player)
    choice = ConquestChoice.objects.filter(round=rnd, player=player).first()
    chosen = choice.rolls if choice else preview
    battles = {attack.id: battle for attack, battle in won}
    items = []
    if won:
        board = load_board(rnd.campaign)
        assessed = rules.conquest_preview(board, [a for a, _ in won], chosen,
                                          chain_captures(rnd))
        items = [{**a.as_dict(), "battle": battles[a.attack]} for a in assessed]
    return {"items": items, "choice": choice.rolls if choice else None,
            "resolved": rnd.conquest_resolved_at is not None,
            "rolls": player_rolls(rnd, player)}


def player_rolls(rnd: Round, player: Player) -> list[dict]:
    if rnd.conquest_resolved_at is None:
        return []
    rows = ConquestRoll.objects.filter(round=rnd, player=player, immediate=False)
    return [roll_dict(r) for r in rows]


def roll_dict(row: ConquestRoll) -> dict:
    return {"attack": row.attack_id, "battle": row.battle_id, "tile": row.tile_id,
            "dice": row.dice, "modifiers": row.modifiers, "total": row.total,
            "threshold": row.threshold, "success": row.success}


def _lock_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("campaign").get(pk=rnd.pk)


def check_choice_open(rnd: Round, player: Player) -> None:
    """409 unless the player may still seal a choice (R-CON-4). The API asks before it reads
    the input; ``conquest_choose`` asks again under the round's lock."""
    if rnd.phase != Round.Phase.CONQUEST or rnd.conquest_resolved_at:
        raise Conflict("Conquest choices are made in the conquest phase.")
    if ConquestChoice.objects.filter(round=rnd, player=player).exists():
        raise Conflict("Your choice is sealed already (R-CON-4).", code="already_chosen")


@transaction.atomic
def conquest_choose(*, player: Player, rnd: Round, roll: list[int]) -> ConquestChoice:
    """Seal a player's choice (R-CON-4); the rest are waived (R-CON-5). When every player with
    won attacks has chosen, all rolls are made at once."""
    rnd = _lock_round(rnd)
    check_choice_open(rnd, player)
    won = won_attacks(rnd)
    own = {attack.id for attack, _ in _own(won, player)}
    if not own:
        raise RuleViolation("You have no won attack to roll this round.", code="R-CON-4")
    stray = sorted(set(roll) - own)
    if stray:
        raise RuleViolation(f"Attacks {stray} are not your won attacks this round.",
                            code="R-CON-4", field="roll")
    choice = ConquestChoice.objects.create(round=rnd, player=player, rolls=sorted(set(roll)))
    waiting = {attack.player for attack, _ in won}
    chosen = set(ConquestChoice.objects.filter(round=rnd).values_list("player_id", flat=True))
    if waiting <= chosen:
        _resolve(rnd, won)
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
                     threshold=r.threshold, success=r.success, counter=counter + i)
        for i, r in enumerate(result.rolls)])
    transfer_tiles(result.transfers)
    rnd.conquest_resolved_at = now or timezone.now()
    Round.objects.filter(pk=rnd.pk).update(conquest_resolved_at=rnd.conquest_resolved_at)


def transfer_tiles(transfers: dict[int, int]) -> None:
    """Successful rolls move tiles; markers go with them (R-CON-1, R-MRK-4)."""
    by_owner: dict[int, list[int]] = {}
    for tile, owner in transfers.items():
        by_owner.setdefault(owner, []).append(tile)
    for owner, tiles in by_owner.items():
        Tile.objects.filter(pk__in=tiles).update(owner_id=owner)
