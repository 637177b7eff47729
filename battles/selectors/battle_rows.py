"""The battles of a list as light rows: one ``.values()`` read of the page's
battles and one read each for their rounds, open date proposals, handed-in list ids, result
histories and immediate chain rolls, however many battles there are. A row carries the
attributes the battle readers use (``limit_breakdown``, ``result_snapshot``,
``participants``, ``lists_revealed``) under a Battle's names, and ``tile_name`` (the tile's
label, ``campaigns.labels``, read in the same query), without building a model (and
its round, attack and roll) per battle, which was most of a league's battles list.

What ``campaign_battles`` attaches to a Battle, a row has too: ``round``, ``campaign``,
``open_proposals``, ``handed_in``; plus ``history_rows`` (the result history, oldest first,
with ``by``) and ``chain_roll_row`` (the immediate roll after a chain link, or None)."""

from types import SimpleNamespace

from django.db.models import QuerySet

from battles.models import ArmyList, ConquestRoll, ResultChange, ScheduleProposal
from campaigns.labels import place_label
from campaigns.models import Campaign, Round

FIELDS = ("id", "round_id", "attack_id", "tile_id", "attacker_id", "defender_id", "neutral",
          "chain_position", "chain_length", "status", "point_limits", "bonus", "scheduled_at",
          "place", "outcome", "attacker_vp", "defender_vp", "result_status", "chain_decision",
          "lists_revealed_at", "settled_at", "tile__planet__name", "tile__q", "tile__r",
          "tile__name")


def battle_values(battles: QuerySet) -> QuerySet:
    """``battles`` (a Battle queryset, filtered and ordered) as the values rows are read."""
    return battles.select_related(None).prefetch_related(None).values(*FIELDS)


def battle_rows(campaign: Campaign, values: list[dict]) -> list[SimpleNamespace]:
    """The page's values (``battle_values``) as rows with what a battle's answer shows."""
    ids = [row["id"] for row in values]
    rounds = Round.objects.in_bulk({row["round_id"] for row in values})
    proposals, handed_in, history = {}, {}, {}
    for proposal in (ScheduleProposal.objects.filter(
            battle_id__in=ids, status=ScheduleProposal.Status.PROPOSED).order_by("id")):
        proposals.setdefault(proposal.battle_id, [proposal])
    for battle_id, player_id in ArmyList.objects.filter(battle_id__in=ids).values_list(
            "battle_id", "player_id"):
        handed_in.setdefault(battle_id, []).append(SimpleNamespace(player_id=player_id))
    for change in (ResultChange.objects.filter(battle_id__in=ids).select_related("by")
                   .order_by("at", "id")):
        history.setdefault(change.battle_id, []).append(change)
    rolls = {roll.attack_id: roll for roll in ConquestRoll.objects.filter(
        attack_id__in=[row["attack_id"] for row in values], immediate=True)}
    return [SimpleNamespace(
        **row, pk=row["id"], campaign=campaign, round=rounds[row["round_id"]],
        open_proposals=proposals.get(row["id"], []), handed_in=handed_in.get(row["id"], []),
        history_rows=history.get(row["id"], []), chain_roll_row=rolls.get(row["attack_id"]),
        tile_name=place_label(planet=row["tile__planet__name"], q=row["tile__q"],
                              r=row["tile__r"], name=row["tile__name"]))
        for row in values]
