"""What the fleets app does in the round's phase machine (R-RND-1): the ``fleets`` phase job.
It runs with the round row locked, before the phase ends (the orbital re-check of R-ATK-3 runs
when it ends, ``battles.hooks``)."""

from campaigns.models import Round
from campaigns.phases import phase_job


@phase_job("fleets")
def resolve_fleets(rnd: Round, now) -> None:
    """R-FLT-6, R-INT-1..6, R-SEA-1..2, R-NAV, R-SPC: resolve movement and naval battles."""
    from fleets import resolution

    resolution.fleet_phase_resolve(round=rnd, now=now)
