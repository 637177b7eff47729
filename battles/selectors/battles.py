"""Reads of tabletop battles for the pages and the API (R-BAT, R-BON, R-ARM-3): the campaign's
battles with everything a list or a detail shows, in a constant number of queries however many
there are.

Army lists are fetched as ids only here: whether a side's list is in is public to the
members, what it holds is not (``battles.services.lists.visible_lists`` decides that, R-ARM-3)."""

from datetime import datetime, timedelta

from django.db.models import Prefetch, QuerySet

from battles.models import ArmyList, Battle, ConquestRoll, ResultChange, ScheduleProposal
from campaigns.models import Campaign, Round


def campaign_battles(campaign: Campaign, *, with_history: bool = False) -> QuerySet:
    """The campaign's battles, the one read the pages and the API share: with round, tile,
    sides, the open date proposal (``open_proposals``, a list of at most one) and the ids of
    the lists handed in (``handed_in``) and the attack's conquest roll (``immediate_roll_of``),
    in three queries however many there are;
    ``with_history`` adds each battle's result history (``history.all()``, with who made
    each change) in one more."""
    open_proposals = (ScheduleProposal.objects.filter(status=ScheduleProposal.Status.PROPOSED)
                      .order_by("id"))
    handed_in = ArmyList.objects.only("id", "battle_id", "player_id")
    prefetches = [Prefetch("proposals", queryset=open_proposals, to_attr="open_proposals"),
                  Prefetch("army_lists", queryset=handed_in, to_attr="handed_in")]
    if with_history:
        history = ResultChange.objects.select_related("by").order_by("at", "id")
        prefetches.append(Prefetch("history", queryset=history))
    return (Battle.objects.filter(campaign=campaign)
            .select_related("round", "campaign", "tile__planet", "attacker__user",
                            "defender__user", "attack__conquest_roll")
            .prefetch_related(*prefetches)
            .order_by("round__number", "attack__order", "id"))


def immediate_roll_of(battle: Battle) -> ConquestRoll | None:
    """The immediate roll made after this chain link (R-CON-6), as stored; None if none. Read
    with the battle by ``campaign_battles`` (no query of its own there)."""
    try:
        roll = battle.attack.conquest_roll
    except ConquestRoll.DoesNotExist:
        return None
    return roll if roll.immediate else None


def round_battles(campaign: Campaign, rnd: Round | None) -> QuerySet:
    """The battles of round ``rnd`` (none without a round), as ``campaign_battles`` reads
    them."""
    if rnd is None:
        return Battle.objects.none()
    return campaign_battles(campaign).filter(round=rnd)


def result_history(battle: Battle) -> list[ResultChange]:
    """R-BAT-4: every change of the result, oldest first, with who made it."""
    return list(battle.history.select_related("by").order_by("at", "id"))


def disputes_of(battles) -> dict[int, ResultChange]:
    """{battle id: the change that disputed it} of the disputed ones among ``battles``
    (R-BAT-3), with who disputed and ``new["reason"]`` the words they gave: what the admin
    reads where they settle it. One query, none without a disputed battle."""
    ids = [b.pk for b in battles if b.result_status == Battle.ResultStatus.DISPUTED]
    if not ids:
        return {}
    changes = (ResultChange.objects.filter(battle_id__in=ids).select_related("by")
               .order_by("at", "id"))
    return {change.battle_id: change for change in changes}  # the latest of each wins


# R-BAT-3 [decision]: the admin is told of open disputes this long before the battles deadline
DISPUTE_NOTICE = timedelta(hours=24)


def disputes_deadline_near(rnd: Round | None, now: datetime) -> bool:
    """Whether ``rnd`` is in ``battles`` with its deadline at most ``DISPUTE_NOTICE`` away and
    not passed (R-BAT-3): the time to tell the admin which disputes are open."""
    return (rnd is not None and rnd.phase == Round.Phase.BATTLES
            and rnd.phase_deadline is not None
            and now < rnd.phase_deadline <= now + DISPUTE_NOTICE)


def open_disputes(rnd: Round) -> list[Battle]:
    """The disputed results of round ``rnd`` the admin has not settled (R-BAT-3), with sides
    and tile for naming them and ``dispute``, the change that disputed each (who, and
    ``new["reason"]``). Two queries."""
    battles = list(Battle.objects.filter(round=rnd, result_status=Battle.ResultStatus.DISPUTED)
                   .exclude(status=Battle.Status.DONE)
                   .select_related("round", "campaign", "tile__planet", "attacker__user",
                                   "defender__user")
                   .order_by("attack__order", "id"))
    changes = disputes_of(battles)
    for battle in battles:
        battle.dispute = changes.get(battle.pk)
    return battles


# What the battles deadline does to a battle not decided yet (R-BAT-3, R-RND-3)
DISPUTED_FATE, REPORTED_FATE, UNPLAYED_FATE = "disputed", "reported", "unplayed"


def deadline_fate(battle: Battle) -> str | None:
    """What the ``battles`` deadline will do to ``battle`` (``battles.services.chains.
    battles_close``): a dispute the admin has not settled takes ``unplayed_outcome``
    ("disputed"), a report not answered counts as confirmed ("reported"), a battle without a
    result takes ``unplayed_outcome`` ("unplayed"). None once decided, for a chain link still
    waiting for the link before it, and once the battles phase is over."""
    if battle.status != Battle.Status.OPEN or battle.round.phase in (Round.Phase.CONQUEST,
                                                                    Round.Phase.CLOSED):
        return None
    if battle.result_status == Battle.ResultStatus.DISPUTED:
        return DISPUTED_FATE
    if battle.result_status == Battle.ResultStatus.REPORTED:
        return REPORTED_FATE
    if battle.result_status == Battle.ResultStatus.CONFIRMED:
        return None
    return UNPLAYED_FATE


def date_proposals(battle: Battle) -> list[ScheduleProposal]:
    """R-BAT-2: every proposal made for the battle, oldest first, with its proposer."""
    return list(battle.proposals.select_related("proposed_by__user").order_by("created_at", "id"))


def limit_breakdown(battle: Battle) -> dict:
    """R-BON-1: base, tile bonus, marker bonus and total per participant; the base is what the
    limit holds beyond its bonuses (the ruleset may have changed since)."""
    breakdown = {}
    for player, bonus in battle.bonus.items():
        total = battle.point_limits.get(player, 0)
        tiles, markers = bonus.get("tiles", 0), bonus.get("markers", 0)
        breakdown[player] = {"base": total - tiles - markers, "tiles": tiles,
                             "markers": markers, "total": total}
    return breakdown


def result_snapshot(battle: Battle) -> dict | None:
    """The result as history stores it; None before there is one."""
    if not battle.result_status:
        return None
    return {"outcome": battle.outcome, "attacker_vp": battle.attacker_vp,
            "defender_vp": battle.defender_vp, "status": battle.result_status}
