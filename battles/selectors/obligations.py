"""What a player still owes in the current phase: the one answer for the campaign home's to-do
list and the deadline reminder (``battles.services.notifications.reminders_send``).

Each entry is ``{"kind": ..., **details}``; the template words it. Kinds by phase:
declare ``declare`` (armies and declarations so far); lists ``army_list`` per battle that takes
the player's list and has none yet (``battles.services.lists.check_list_phase``: open, with a
point limit for the player; a neutral garrison takes the attacker's, R-ATK-4); battles
``chain_decision`` (R-CON-6), ``confirm_result``, ``report_result`` per battle against a player
(a garrison's result is the admin's, R-ATK-4); conquest ``conquest_choice``.

``owing_players`` is who the reminder goes to: the players with an entry that waits for their
input (``waits_for_input``). The ``declare`` entry is a summary shown all phase long; it waits
for input only while the player has no declaration standing."""

from django.db.models import Q

from battles.models import ArmyList, Battle, ConquestChoice
from battles.selectors.attacks import army_balance
from battles.selectors.chains import needs_decision
from battles.selectors.conquest import won_attacks
from campaigns.models import Attack, Player, Round


def obligations(rnd: Round | None, player: Player | None) -> list[dict]:
    if rnd is None or player is None:
        return []
    phase = _BY_PHASE.get(rnd.phase)
    return phase(rnd, player) if phase else []


def waits_for_input(entry: dict) -> bool:
    """Is the phase still waiting for this entry (what the deadline reminder is about)?"""
    return entry["kind"] != "declare" or entry["standing"] == 0


def owing_players(rnd: Round) -> set[int]:
    """Ids of the players whose to-do list holds something the phase waits for."""
    players = Player.objects.filter(campaign=rnd.campaign_id).order_by("id")
    return {player.pk for player in players
            if any(waits_for_input(entry) for entry in obligations(rnd, player))}


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
    battles = [b for b in _my_battles(rnd, player).filter(status=Battle.Status.OPEN)
               if str(player.pk) in b.point_limits]
    done = set(ArmyList.objects.filter(player=player, battle__in=battles)
               .values_list("battle_id", flat=True))
    return [{"kind": "army_list", "battle": b} for b in battles if b.pk not in done]


def _battles(rnd: Round, player: Player) -> list[dict]:
    owed = []
    for battle in _my_battles(rnd, player):
        if battle.attacker_id == player.pk and needs_decision(battle):
            owed.append({"kind": "chain_decision", "battle": battle})
        elif battle.status != Battle.Status.OPEN or battle.defender_id is None:
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
