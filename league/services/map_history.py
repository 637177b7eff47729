"""Recording the map when a round closes (map history)."""

from functools import cache

from campaigns.models import Round, RoundMap
from league.selectors.map_history import map_state


def round_map_record(*, round: Round) -> RoundMap:  # noqa: A002
    """Store the map as it stands now as ``round``'s snapshot, public facts only (R-FLT-7).
    Idempotent: a retried close finds its own snapshot and leaves it. Call inside the closing
    transaction with the round row locked; four queries (three reads and the insert)."""
    state = cache(lambda: map_state(round.campaign))
    snapshot, _ = RoundMap.objects.get_or_create(
        round=round, defaults={"tiles": lambda: state()[0], "fleets": lambda: state()[1]})
    return snapshot
