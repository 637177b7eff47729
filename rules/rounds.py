"""The round's phases (R-RND-1, R-RND-2): their order, which wait for players and which run by
themselves. The round machine (``league.phases``) is built on this list."""

PHASES = ("declare", "fleets", "lists", "battles", "conquest", "closed")  # R-RND-1, in order
AUTOMATIC = frozenset({"fleets"})  # R-RND-2: run their job, then advance by themselves
WAITING = frozenset({"declare", "lists", "battles", "conquest"})  # R-RND-1: get a deadline


def next_phase(phase: str) -> str | None:
    """The phase after ``phase`` (R-RND-1); None after ``closed``."""
    index = PHASES.index(phase)
    return PHASES[index + 1] if index + 1 < len(PHASES) else None
