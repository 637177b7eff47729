"""The reliability record: when a waiting phase ends, one ``PhaseInput`` per
player who could act in it (``battles.selectors.obligations.phase_actors``) says whether they
gave their input by the deadline or took the defaults (R-RND-3).

[reading R-RND-3] On time means: in ``declare`` the player bought armies, declared (even if
withdrawn since), gave a fleet order or said "done"; in the other phases nothing the phase
waits for was left open at its end (``waits_for_input``), or they said "done" (a deliberate
answer). Whatever a periodic job settled for them before the end (a result confirmed or a
chain decision defaulted after ``confirm_hours``) is not held against them. A player who
defaulted while marked away is recorded ``absent``.

Registered first in the ``end`` steps of every waiting phase (``league.phases``), so it sees
the phase as the players left it, before any default is applied."""

from datetime import datetime

from battles.selectors.obligations import (
    campaign_obligations,
    declare_acted,
    done_player_ids,
    phase_actors,
    waits_for_input,
)
from campaigns.models import PhaseInput, Round
from campaigns.selectors.absences import away_player_ids
from campaigns.steps import phase_step
from rules.rounds import WAITING


def _on_time(rnd: Round, entries: list[dict]) -> bool:
    if rnd.phase == Round.Phase.DECLARE:
        return declare_acted(entries)
    return not any(waits_for_input(entry) for entry in entries)


@phase_step
def phase_inputs_record(*, round: Round, now: datetime) -> int:  # noqa: A002
    """Record who gave input on time in the phase the round is leaving; idempotent (a retried
    advance finds the rows and adds none). Returns how many rows are new."""
    rnd = round
    if rnd.phase not in WAITING:
        return 0
    actors = phase_actors(rnd)
    if not actors:
        return 0
    owed = campaign_obligations(rnd, player_ids=actors)
    done = done_player_ids(rnd)
    away = away_player_ids(rnd.campaign, now)
    rows = []
    for pk in sorted(actors):
        on_time = pk in done or _on_time(rnd, owed[pk])
        rows.append(PhaseInput(round=rnd, player_id=pk, phase=rnd.phase, on_time=on_time,
                               absent=not on_time and pk in away))
    recorded = set(PhaseInput.objects.filter(round=rnd, phase=rnd.phase)
                   .values_list("player_id", flat=True))
    new = [row for row in rows if row.player_id not in recorded]
    if new:
        PhaseInput.objects.bulk_create(new, ignore_conflicts=True)  # a twin adds none twice
    return len(new)
