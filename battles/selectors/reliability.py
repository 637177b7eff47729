"""Read side: each player's reliability this season (``PhaseInput`` rows:
inputs on time vs defaulted, R-RND-3) and when the admin last nudged them in a phase."""

from datetime import timedelta

from django.db.models import Count, Max, Q

from campaigns.models import Campaign, Nudge, PhaseInput, Round

NUDGE_EVERY = timedelta(hours=12)  # at most one nudge per person and phase in this time


def reliability(campaign: Campaign) -> dict[int, dict[str, int]]:
    """{player id: {"on_time", "defaulted", "away"}} over the campaign's rounds (its season);
    ``away`` counts the defaults taken while marked away (part of ``defaulted``). Players
    without a record are missing (read them as zeros)."""
    rows = (PhaseInput.objects.filter(round__campaign=campaign).values("player_id")
            .annotate(given=Count("pk", filter=Q(on_time=True)),
                      missed=Count("pk", filter=Q(on_time=False)),
                      missed_away=Count("pk", filter=Q(on_time=False, absent=True))))
    return {row["player_id"]: {"on_time": row["given"], "defaulted": row["missed"],
                               "away": row["missed_away"]} for row in rows}


def last_nudges(rnd: Round | None) -> dict:
    """{player id: when the admin last nudged them} in the round's current phase."""
    if rnd is None:
        return {}
    return dict(Nudge.objects.filter(round=rnd, phase=rnd.phase).values("player_id")
                .annotate(last=Max("at")).values_list("player_id", "last"))
