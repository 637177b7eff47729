"""Reads of the conquest phase (R-CON-1..7): the round's won attacks as the rules see them,
what a player sees of its rolls (R-CON-7) and the rolls as they were made."""

from django.db.models import F, Q

from battles.models import Battle, ConquestChoice, ConquestRoll
from campaigns.models import Attack, Player, Round
from fleets.selectors.board import load_board
from rules import conquest as rules


def won_attack_rows(rnd: Round):
    """The round's won attacks that roll in the conquest phase, as a queryset: active attacks
    whose battle is a confirmed win (R-BAT-3) and not an earlier chain link (R-CON-6), and
    attacks on neutral tiles that need no battle (R-ATK-4)."""
    won_battle = Q(battle__result_status=Battle.ResultStatus.CONFIRMED,
                   battle__outcome__in=Battle.WON,
                   battle__chain_position=F("battle__chain_length"))
    return Attack.objects.filter(Q(battle__isnull=True) | won_battle, round=rnd,
                                 status=Attack.Status.ACTIVE)


def won_attacks(rnd: Round, player: Player | None = None
                ) -> list[tuple[rules.WonAttack, int | None]]:
    """``won_attack_rows`` as the rules see them, with their battle id, in declaration order;
    only ``player``'s when given (one query either way, no models)."""
    rows = won_attack_rows(rnd)
    if player is not None:
        rows = rows.filter(player=player)
    won = []
    for pk, roller, tile, source, battle, outcome, length in rows.order_by("order").values_list(
            "pk", "player_id", "tile_id", "source", "battle__pk", "battle__outcome",
            "battle__chain_length"):
        if battle is None:
            won.append((rules.WonAttack(pk, roller, tile, source), None))
        else:
            won.append((rules.WonAttack(pk, roller, tile, source, outcome,
                                        last_link=length > 1), battle))
    return won


def rolls_due(rnd: Round) -> bool:
    """Has any player a won attack to roll in the round's conquest phase (R-CON-1, R-CON-4)?
    Read once the battles phase has ended (its defaults applied, R-RND-3). One query."""
    return won_attack_rows(rnd).exists()


def players_waiting(rnd: Round) -> bool:
    """Is any player with a won attack still to seal its choice (R-CON-4)? One query."""
    chosen = ConquestChoice.objects.filter(round=rnd).values("player_id")
    return won_attack_rows(rnd).exclude(player_id__in=chosen).exists()


def chain_captures(rnd: Round) -> list[rules.ChainCapture]:
    """Tiles taken by immediate chain rolls this round (R-CON-6)."""
    rows = ConquestRoll.objects.filter(round=rnd, immediate=True, success=True)
    return [rules.ChainCapture(r.tile_id, r.player_id, r.attack_id) for r in rows]


def conquest_view(rnd: Round, player: Player, preview: list[int] | None = None) -> dict:
    """What a player sees of its conquest rolls (R-CON-7). Before the rolls: items with
    threshold, modifiers, k and exact chance for its sealed choice, or for ``preview``, or for
    rolling all. Once the rolls are made: each item is the roll as it was made (stored with
    the roll, never recomputed against today's map), ``waived`` the won attacks not rolled
    (R-CON-5) and ``rolls`` the rolls with their faces and results."""
    won = won_attacks(rnd, player)
    choice = ConquestChoice.objects.filter(round=rnd, player=player).first()
    if rnd.conquest_resolved_at is not None:
        rolls = player_rolls(rnd, player)
        rolled = {roll["attack"] for roll in rolls}
        return {"items": [item_as_made(roll) for roll in rolls],
                "choice": choice.rolls if choice else None, "resolved": True,
                "waived": sorted(attack.id for attack, _ in won if attack.id not in rolled),
                "rolls": rolls}
    chosen = choice.rolls if choice else preview
    battles = {attack.id: battle for attack, battle in won}
    items = []
    if won:
        board = load_board(rnd.campaign)
        assessed = rules.conquest_preview(board, [a for a, _ in won], chosen,
                                          chain_captures(rnd))
        items = [{**a.as_dict(), "battle": battles[a.attack]} for a in assessed]
    return {"items": items, "choice": choice.rolls if choice else None, "resolved": False,
            "waived": [], "rolls": []}


def player_rolls(rnd: Round, player: Player) -> list[dict]:
    """The player's ``conquest``-phase rolls as made, in the order made; none before."""
    if rnd.conquest_resolved_at is None:
        return []
    rows = ConquestRoll.objects.filter(round=rnd, player=player, immediate=False)
    return [roll_dict(r) for r in rows]


def roll_chance(row: ConquestRoll) -> float:
    """The exact odds the roll had when it was made (R-CON-7), from its stored threshold and
    modifiers."""
    return float(rules.success_probability(row.threshold,
                                           sum(m["value"] for m in row.modifiers)))


def roll_dict(row: ConquestRoll) -> dict:
    """A roll as it was made: threshold and its rule, every modifier with its rule, k (null
    for an immediate chain roll, R-CON-6), the exact chance it had, faces, total, result."""
    return {"attack": row.attack_id, "battle": row.battle_id, "tile": row.tile_id,
            "dice": row.dice, "modifiers": row.modifiers, "total": row.total,
            "threshold": row.threshold, "threshold_rule": row.threshold_rule, "k": row.k,
            "chance": roll_chance(row), "success": row.success}


ITEM_KEYS = ("attack", "battle", "tile", "threshold", "threshold_rule", "modifiers", "k",
             "chance")


def item_as_made(roll: dict) -> dict:
    """A conquest item (R-CON-7) of a roll already made: what it was assessed with."""
    return {key: roll[key] for key in ITEM_KEYS}
