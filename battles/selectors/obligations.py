"""What a player still owes in the current phase: the one answer for the campaign home's to-do
list, the deadline reminder (``battles.services.notifications.reminders_send``), the
organiser's dashboard and nudges, and the reliability record.

Each entry is ``{"kind": ..., **details}``; the template words it. Kinds by phase:
declare ``declare`` (armies and declarations so far) and ``fleet_orders`` (the player's fleets
without a movement order this round, R-FLT-4); lists ``army_list`` per battle that takes the
player's list and has none yet (``battles.services.lists.check_list_phase``: open, with a
point limit for the player; a neutral garrison takes the attacker's, R-ATK-4); battles
``chain_decision`` (R-CON-6), ``confirm_result``, ``agree_date`` (R-BAT-2: no date agreed yet;
``answer`` when the opponent's proposal waits for this player) and ``report_result`` per battle
against a player (a garrison's result is the admin's, R-ATK-4); conquest ``conquest_choice``.
A disputed result is the admin's to settle (``disputes_to_settle``), nobody's to-do.

``owing_players`` is who the reminder goes to: the players with an entry that waits for their
input (``waits_for_input``) who did not say "done" for the phase (``PhaseDone``). The
``declare`` entry is a summary shown all phase long; it waits for input only while the player
has no declaration standing. [reading R-FLT-4] ``fleet_orders`` never waits: a fleet without
an order holds its area, and holding cannot be ordered explicitly (an empty path withdraws the
order), so an unordered fleet is a legitimate choice the to-do merely points out.

``campaign_obligations`` answers for every player at once in a constant number of queries."""

from collections import defaultdict

from django.db.models import Count, Q, Sum

from battles.models import ArmyList, Battle, ConquestChoice, ScheduleProposal
from battles.selectors.chains import needs_decision
from battles.selectors.conquest import won_attacks
from campaigns.models import Attack, PhaseDone, Player, Purchase, Round
from fleets.models import Fleet

Owed = dict[int, list[dict]]


def obligations(rnd: Round | None, player: Player | None) -> list[dict]:
    if rnd is None or player is None:
        return []
    return campaign_obligations(rnd, player_ids=[player.pk])[player.pk]


def campaign_obligations(rnd: Round | None, player_ids=None) -> Owed:
    """{player id: entries} for the campaign's players (or ``player_ids``), every player
    present (an empty list: nothing owed); a constant number of queries."""
    if rnd is None:
        return {}
    if player_ids is None:
        player_ids = Player.objects.filter(campaign=rnd.campaign_id).values_list("pk", flat=True)
    owed: Owed = {pk: [] for pk in sorted(player_ids)}
    collect = _BY_PHASE.get(rnd.phase)
    if collect and owed:
        collect(rnd, owed)
    return owed


def waits_for_input(entry: dict) -> bool:
    """Is the phase still waiting for this entry (what the deadline reminder is about)?"""
    if entry["kind"] == "fleet_orders":
        return False
    return entry["kind"] != "declare" or entry["standing"] == 0


def done_player_ids(rnd: Round) -> set[int]:
    """Players who said "done" for the round's current phase."""
    return set(PhaseDone.objects.filter(round=rnd, phase=rnd.phase)
               .values_list("player_id", flat=True))


def owing_from(owed: Owed, done: set[int]) -> set[int]:
    return {pk for pk, entries in owed.items()
            if pk not in done and any(waits_for_input(entry) for entry in entries)}


def owing_players(rnd: Round) -> set[int]:
    """Ids of the players whose to-do list holds something the phase waits for, less those
    who said "done" for the phase."""
    return owing_from(campaign_obligations(rnd), done_player_ids(rnd))


def disputes_to_settle(campaign) -> list[Battle]:
    """Disputed results, the campaign admin's to settle (R-BAT-3, R-BAT-4), oldest first."""
    return list(Battle.objects.filter(campaign=campaign,
                                      result_status=Battle.ResultStatus.DISPUTED)
                .select_related("round", "tile__planet", "attacker__user", "defender__user")
                .order_by("round__number", "attack__order"))


# --- declare --------------------------------------------------------------------------------

def _per_player(queryset, field: str) -> dict[int, int]:
    return {row["player_id"]: row[field] or 0 for row in queryset}


def _declare(rnd: Round, owed: Owed) -> None:
    ids = list(owed)
    bought = _per_player(Purchase.objects.filter(round=rnd, player__in=ids)
                         .values("player_id").annotate(n=Sum("attack_armies")), "n")
    attacks = {row["player_id"]: row for row in Attack.objects.filter(
        round=rnd, player__in=ids).values("player_id").annotate(
        used=Count("pk"), standing=Count("pk", filter=Q(status=Attack.Status.ACTIVE)))}
    fleets = defaultdict(list)
    for owner, name, ordered in (Fleet.objects.filter(owner__in=ids).annotate(
            ordered=Count("orders", filter=Q(orders__round=rnd)))
            .values_list("owner_id", "name", "ordered").order_by("id")):
        fleets[owner].append((name, ordered > 0))
    for pk, entries in owed.items():
        used = attacks.get(pk, {}).get("used", 0)
        orders = sum(1 for _name, ordered in fleets[pk] if ordered)
        entries.append({"kind": "declare", "bought": bought.get(pk, 0),
                        "unused": bought.get(pk, 0) - used,
                        "standing": attacks.get(pk, {}).get("standing", 0),
                        "used": used, "orders": orders})
        unordered = [name for name, ordered in fleets[pk] if not ordered]
        if unordered:
            entries.append({"kind": "fleet_orders", "fleets": len(unordered),
                            "names": unordered})


def declare_acted(entries: list[dict]) -> bool:
    """[reading R-RND-3] A player gave input in ``declare`` when they bought armies, declared
    (even withdrawn since) or gave a fleet order."""
    summary = next((e for e in entries if e["kind"] == "declare"), None)
    return bool(summary and (summary["bought"] or summary["used"] or summary["orders"]))


# --- lists and battles ----------------------------------------------------------------------

def _round_battles(rnd: Round):
    return (Battle.objects.filter(round=rnd).exclude(status=Battle.Status.PENDING)
            .select_related("tile__planet", "attacker__user", "defender__user")
            .order_by("attack__order"))


def _sides(battle: Battle) -> tuple[int, ...]:
    return tuple(pk for pk in (battle.attacker_id, battle.defender_id) if pk)


def _list_battles(rnd: Round) -> list[Battle]:
    return list(_round_battles(rnd).filter(status=Battle.Status.OPEN))


def list_takers(battle: Battle) -> list[int]:
    """The sides whose list the battle takes (a point limit for them)."""
    return [pk for pk in _sides(battle) if str(pk) in battle.point_limits]


def _lists(rnd: Round, owed: Owed) -> None:
    battles = _list_battles(rnd)
    done = set(ArmyList.objects.filter(battle__in=battles, player__in=list(owed))
               .values_list("battle_id", "player_id"))
    for battle in battles:
        for pk in list_takers(battle):
            if pk in owed and (battle.pk, pk) not in done:
                owed[pk].append({"kind": "army_list", "battle": battle})


def _battle_entries(battle: Battle, pk: int, user_id: int, proposer: int | None) -> list[dict]:
    if battle.attacker_id == pk and needs_decision(battle):
        return [{"kind": "chain_decision", "battle": battle}]
    if battle.status != Battle.Status.OPEN or battle.defender_id is None:
        return []
    if battle.result_status == Battle.ResultStatus.REPORTED:
        return ([{"kind": "confirm_result", "battle": battle}]
                if battle.reported_by_id != user_id else [])
    if battle.result_status:
        return []  # disputed: the admin's (disputes_to_settle)
    entries = []
    if battle.scheduled_at is None and proposer != pk:
        entries.append({"kind": "agree_date", "battle": battle,
                        "answer": proposer is not None})
    return [*entries, {"kind": "report_result", "battle": battle}]


def _battles(rnd: Round, owed: Owed) -> None:
    battles = list(_round_battles(rnd))
    proposers = dict(ScheduleProposal.objects.filter(
        battle__in=battles, status=ScheduleProposal.Status.PROPOSED)
        .values_list("battle_id", "proposed_by_id"))
    for battle in battles:
        for side in (battle.attacker, battle.defender):
            if side is not None and side.pk in owed:
                owed[side.pk] += _battle_entries(battle, side.pk, side.user_id,
                                                 proposers.get(battle.pk))


# --- conquest -------------------------------------------------------------------------------

def _conquest(rnd: Round, owed: Owed) -> None:
    if rnd.conquest_resolved_at:
        return
    chosen = set(ConquestChoice.objects.filter(round=rnd, player__in=list(owed))
                 .values_list("player_id", flat=True))
    won = defaultdict(int)
    for attack, _battle in won_attacks(rnd):
        won[attack.player] += 1
    for pk, count in won.items():
        if pk in owed and pk not in chosen:
            owed[pk].append({"kind": "conquest_choice", "won": count})


_BY_PHASE = {"declare": _declare, "lists": _lists, "battles": _battles, "conquest": _conquest}


# --- who could act in a phase (the reliability record) --------------------------------------

def phase_actors(rnd: Round) -> set[int]:
    """The players who could give input in the round's current (waiting) phase: everyone in
    declare; in lists the sides whose list an open battle takes; in battles both sides of a
    battle against a player and the attacker of a chain link (R-CON-6); in conquest the
    players with a won attack (R-CON-4)."""
    if rnd.phase == Round.Phase.DECLARE:
        return set(Player.objects.filter(campaign=rnd.campaign_id).values_list("pk", flat=True))
    if rnd.phase == Round.Phase.LISTS:
        return {pk for battle in _list_battles(rnd) for pk in list_takers(battle)}
    if rnd.phase == Round.Phase.BATTLES:
        actors = set()
        for battle in Battle.objects.filter(round=rnd).exclude(status=Battle.Status.PENDING):
            if battle.defender_id:
                actors.update(_sides(battle))
            if battle.chain_position < battle.chain_length:
                actors.add(battle.attacker_id)
        return actors
    if rnd.phase == Round.Phase.CONQUEST:
        return {attack.player for attack, _battle in won_attacks(rnd)}
    return set()
