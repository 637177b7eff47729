"""The per-battle clocks of the battles phase stop while a campaign is
paused. [reading R-BAT-3, R-CON-6, R-ARM-3] A pause must not eat the ``confirm_hours`` a player
has to answer a report or decide a chain roll, nor a late chain link's lists window: on resume,
every window still open when the pause began starts later by the pause's length, so it has
exactly the time left that it had. Windows that had run out before the pause are left alone;
the periodic job applies their defaults at once."""

from datetime import datetime, timedelta

from django.db.models import F

from battles.models import Battle
from campaigns.models import Round
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.rounds import phase_hours


def battle_windows_shift(*, round: Round, paused_at: datetime,  # noqa: A002
                         delta: timedelta) -> int:
    """Move the start of every window open at ``paused_at`` by ``delta``; call inside the
    resume's transaction with the round locked. Returns how many battles moved."""
    if round.phase != Round.Phase.BATTLES or delta <= timedelta(0):
        return 0
    confirm = timedelta(hours=ruleset_of(round.campaign).confirm_hours)
    lists = timedelta(hours=phase_hours(round.campaign, "lists") or 0)
    battles = Battle.objects.filter(round=round)
    moved = battles.filter(  # R-BAT-3: a report waiting for its answer
        status=Battle.Status.OPEN, result_status=Battle.ResultStatus.REPORTED,
        reported_at__gt=paused_at - confirm).update(reported_at=F("reported_at") + delta)
    moved += battles.filter(  # R-CON-6: a won link waiting for its roll decision
        chain_decision="", result_status=Battle.ResultStatus.CONFIRMED,
        outcome__in=Battle.WON, chain_position__lt=F("chain_length"),
        confirmed_at__gt=paused_at - confirm).update(confirmed_at=F("confirmed_at") + delta)
    moved += battles.filter(  # R-ARM-3: a late chain link's lists window
        chain_position__gt=1, lists_revealed_at__isnull=True,
        settled_at__gt=paused_at - lists).update(settled_at=F("settled_at") + delta)
    bump(round.campaign_id)  # no signals: campaigns/revision.py
    return moved
