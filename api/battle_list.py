"""The battles list at league scale: every battle of the campaign as its finished
JSON, computed once and kept in memory (``campaigns.cache``); a request filters and pages
those rows and joins their bytes, with no query and no serializer per battle.

The list is the same for every member (no field depends on the viewer: whether a side's army
list is in is public, its content is never shown, R-ARM-3, R-SEC-2), so one entry per campaign
serves them all. Its key is the campaign's ``revision``, which every write to what a row shows
bumps (battles, date proposals, lists handed in, result history, conquest rolls: battles/apps.py)
plus the current round's number, phase and deadline, read with the campaign. Whether the lists
are revealed also turns with the clock: an entry holds until the next deadline at which it
could turn (``until``)."""

from datetime import datetime

from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from api.serializers.battles import BattleSerializer
from battles.selectors.battle_rows import battle_rows, battle_values
from battles.selectors.battles import campaign_battles
from battles.selectors.lists import late_deadline
from campaigns.cache import cached
from campaigns.models import Campaign
from campaigns.selectors.campaigns import with_current_round

KIND = "api-battles"
# the campaign as the list's view reads it (CampaignScoped.campaign_rows): its current round
CAMPAIGN_ROWS = with_current_round(Campaign.objects.all())


def _next_turn(rows: list, now: datetime) -> datetime | None:
    """The next instant at which ``lists_revealed`` could turn for a row (a lists phase's
    deadline or a late chain link's window, R-ARM-3, R-ATK-5); None if none is ahead."""
    deadlines = {row.round.phase_deadline for row in rows}
    deadlines |= {late_deadline(row) for row in rows if row.chain_position > 1}
    return min((when for when in deadlines if when is not None and when > now), default=None)


def _compute(campaign: Campaign) -> dict:
    now = timezone.now()
    rows = battle_rows(campaign, list(battle_values(campaign_battles(campaign,
                                                                     with_history=True))))
    serializer, render = BattleSerializer(context={"now": now}), JSONRenderer().render
    return {"until": _next_turn(rows, now),
            "rows": [(row.round.number, row.attacker_id, row.defender_id, row.status,
                      render(serializer.to_representation(row))) for row in rows]}


def battle_list_rows(campaign: Campaign) -> list[tuple]:
    """Every battle of ``campaign`` in the list's order, as ``(round number, attacker id,
    defender id, status, JSON bytes)``. ``campaign.revision`` as read with the request."""
    deadline = campaign.current_phase_deadline  # campaign_rows: read with the campaign
    state = (campaign.current_number, campaign.current_phase, deadline)
    # the answer's times are written in the current zone (UTC in the API)
    entry = cached(KIND, campaign, lambda: _compute(campaign),
                   timezone.get_current_timezone_name(), state=state,
                   fresh=lambda e: e["until"] is None or timezone.now() < e["until"])
    return entry["rows"]


def select(rows: list[tuple], wanted: dict) -> list[tuple]:
    """The rows ``BattleFilter``'s ``wanted`` asks for (round number, either side, status)."""
    if "round" in wanted:
        rows = [row for row in rows if row[0] == wanted["round"]]
    if "player" in wanted:
        rows = [row for row in rows if wanted["player"] in (row[1], row[2])]
    if "status" in wanted:
        rows = [row for row in rows if row[3] == wanted["status"]]
    return rows
