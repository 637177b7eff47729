"""The round's phase machine (R-RND-1) and the hooks other apps attach to it.

Apps register hooks in their ``hooks`` module (imported from ``AppConfig.ready``):

    @on_phase_end("declare")
    def create_battles(rnd, now): ...

A hook runs inside the advancing transaction with the round row locked; it must be idempotent
(it may see its own earlier work if a job is retried)."""

from collections import defaultdict
from collections.abc import Callable

ORDER = ("declare", "fleets", "lists", "battles", "conquest", "closed")
AUTOMATIC = frozenset({"fleets"})  # run their job, then advance by themselves (R-RND-2)
WAITING = frozenset({"declare", "lists", "battles", "conquest"})  # get a deadline (R-RND-1)

Hook = Callable[..., None]
_start_hooks: dict[str, list[Hook]] = defaultdict(list)
_end_hooks: dict[str, list[Hook]] = defaultdict(list)
_jobs: dict[str, list[Hook]] = defaultdict(list)
_tick_hooks: list[Hook] = []


def next_phase(phase: str) -> str | None:
    index = ORDER.index(phase)
    return ORDER[index + 1] if index + 1 < len(ORDER) else None


def _register(table: dict[str, list[Hook]], phase: str) -> Callable[[Hook], Hook]:
    if phase not in ORDER:
        raise ValueError(f"unknown phase {phase!r}")

    def decorator(func: Hook) -> Hook:
        if func not in table[phase]:
            table[phase].append(func)
        return func

    return decorator


def on_phase_start(phase: str):
    """Run when a round enters ``phase`` (before its deadline is set)."""
    return _register(_start_hooks, phase)


def on_phase_end(phase: str):
    """Run when a round leaves ``phase``."""
    return _register(_end_hooks, phase)


def phase_job(phase: str):
    """The background work of an automatic phase (R-RND-2), e.g. fleet resolution."""
    return _register(_jobs, phase)


def start_hooks(phase: str) -> list[Hook]:
    return list(_start_hooks[phase])


def end_hooks(phase: str) -> list[Hook]:
    return list(_end_hooks[phase])


def jobs(phase: str) -> list[Hook]:
    return list(_jobs[phase])


def on_tick(func: Hook) -> Hook:
    """Run by the periodic job every minute, after due phases advanced: ``func(now)``; for
    deadlines inside a phase (e.g. a result unanswered for ``confirm_hours``, R-BAT-3)."""
    if func not in _tick_hooks:
        _tick_hooks.append(func)
    return func


def tick_hooks() -> list[Hook]:
    return list(_tick_hooks)
