"""The manage page's preview of weekly deadlines."""

from django.utils import timezone

from campaigns.models import Campaign, Round
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.rounds import phase_deadline


def weekly_preview(campaign: Campaign, now=None) -> list[dict]:
    """For each phase with a weekly deadline, the deadline it would get if
    it opened now (``rules.deadlines`` in the campaign's zone)."""
    now = now or timezone.now()
    weekly = ruleset_of(campaign).weekly_deadlines
    return [{"phase": phase, "deadline": phase_deadline(campaign, phase, now)}
            for phase in Round.Phase.values if phase in weekly]
