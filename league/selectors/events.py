"""The latest happenings of a campaign for its home page: rounds opened and closed, phases
started, battle results and conquest rolls. Only what the viewer may see: battle results for
members (like the battles API), conquest rolls for anyone (they are public once made, R-DICE-3).
A fixed number of queries whatever the campaign's size."""

from battles.models import Battle, ConquestRoll
from campaigns.models import Campaign, Round

LIMIT = 12


def recent_events(campaign: Campaign, *, member: bool, limit: int = LIMIT) -> list[dict]:
    """Newest first: ``{"kind", "at", ...}`` with kind ``round_opened``, ``phase_started``,
    ``round_closed``, ``battle_result`` (``battle``) or ``conquest_roll`` (``roll``)."""
    events = _round_events(campaign, limit) + _roll_events(campaign, limit)
    if member:
        events += _battle_events(campaign, limit)
    events.sort(key=lambda event: event["at"], reverse=True)
    return events[:limit]


def _round_events(campaign: Campaign, limit: int) -> list[dict]:
    events = []
    for rnd in Round.objects.filter(campaign=campaign).order_by("-number")[:limit]:
        events.append({"kind": "round_opened", "at": rnd.opened_at, "number": rnd.number})
        if rnd.phase not in (Round.Phase.DECLARE, Round.Phase.CLOSED) and rnd.phase_started_at:
            events.append({"kind": "phase_started", "at": rnd.phase_started_at,
                           "number": rnd.number, "phase": rnd.phase})
        if rnd.closed_at:
            events.append({"kind": "round_closed", "at": rnd.closed_at, "number": rnd.number})
    return events


def _battle_events(campaign: Campaign, limit: int) -> list[dict]:
    battles = (Battle.objects.filter(campaign=campaign, confirmed_at__isnull=False,
                                     result_status=Battle.ResultStatus.CONFIRMED)
               .select_related("round", "tile__planet", "attacker__user", "defender__user")
               .order_by("-confirmed_at", "-id")[:limit])
    return [{"kind": "battle_result", "at": b.confirmed_at, "battle": b} for b in battles]


def _roll_events(campaign: Campaign, limit: int) -> list[dict]:
    rolls = (ConquestRoll.objects.filter(round__campaign=campaign)
             .select_related("round", "tile__planet", "player__user")
             .order_by("-created_at", "-counter")[:limit])
    return [{"kind": "conquest_roll", "at": r.created_at, "roll": r} for r in rolls]
