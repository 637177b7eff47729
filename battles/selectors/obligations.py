"""What a player still owes in the current phase: the to-do list of the campaign home.

Each entry is ``{"kind": ..., **details}``; the template words it. Kinds by phase:
declare ``declare`` (armies and declarations so far); lists ``army_list`` per battle without
the player's list; battles ``chain_decision``, ``confirm_result``, ``report_result`` per
battle; conquest ``conquest_choice``."""

from django.db.models import Q

from battles.models import ArmyList, Battle, ConquestChoice
from battles.selectors.attacks import army_balance
from battles.services.chains import needs_decision
from battles.services.conquest import won_attacks
from campaigns.models import Attack, Player, Round


def obligations(rnd: Round | None, player: Player | None) -> list[dict]:
    if rnd is None or player is None:
        return []
    phase = _BY_PHASE.get(rnd.phase)
    return phase(rnd, player) if phase else []


def _declare(rnd: Round, player: Player) -> list[dict]:
    balance = army_balance(rnd, player)
    standing = Attack.objects.filter(round=rnd, player=player,
                                     status=Attack.Status.ACTIVE).count()
    return [{"kind": "declare", "bought": balance["armies_bought"],
             "unused": balance["armies_bought"] - balance["armies_used"],
             "standing": standing}]


def _my_battles(rnd: Round, player: Player):
    return (Battle.objects.filter(Q(attacker=player) | Q(defender=player), round=rnd)
            .exclude(status=Battle.Status.PENDING)
            .select_related("tile__planet", "attacker__user", "defender__user")
            .order_by("attack__order"))


def _lists(rnd: Round, player: Player) -> list[dict]:
    battles = list(_my_battles(rnd, player).filter(status=Battle.Status.OPEN))
    done = set(ArmyList.objects.filter(player=player, battle__in=battles)
               .values_list("battle_id", flat=True))
    return [{"kind": "army_list", "battle": b} for b in battles if b.pk not in done]


def _battles(rnd: Round, player: Player) -> list[dict]:
    owed = []
    for battle in _my_battles(rnd, player):
        if battle.attacker_id == player.pk and needs_decision(battle):
            owed.append({"kind": "chain_decision", "battle": battle})
        elif battle.status != Battle.Status.OPEN:
            continue
        elif (battle.result_status == Battle.ResultStatus.REPORTED
              and battle.reported_by_id != player.user_id):
            owed.append({"kind": "confirm_result", "battle": battle})
        elif not battle.result_status:
            owed.append({"kind": "report_result", "battle": battle})
    return owed


def _conquest(rnd: Round, player: Player) -> list[dict]:
    if rnd.conquest_resolved_at or ConquestChoice.objects.filter(round=rnd,
                                                                 player=player).exists():
        return []
    won = sum(1 for attack, _battle in won_attacks(rnd) if attack.player == player.pk)
    return [{"kind": "conquest_choice", "won": won}] if won else []


_BY_PHASE = {"declare": _declare, "lists": _lists, "battles": _battles, "conquest": _conquest}
