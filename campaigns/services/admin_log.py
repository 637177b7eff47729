"""The campaign's audit log (``AdminAction``): every
admin action is recorded by the service that makes it, in the same transaction, with who, when,
what, before and after.

[decision] Why a hand-written action log and not a row-history library (django-reversion,
django-simple-history): those record every changed row, but one admin action here spans several
rows (a result entry rewrites a battle and its history and settles the next chain link; a map
import replaces hundreds of tiles), and an entry must say what was done in the game's words
("Result corrected: Victory 12:4 -> Draw 8:8"), not which columns of which tables moved. Above
all, hidden facts (fleet contents and orders, hazards, lists before reveal, unrevealed seeds;
R-FLT-7, R-SEA-2, R-ARM-3, R-DICE-2) must go into separate admin-only entries while the public
part of the same action stays readable by members; a row history has one audience per model
and cannot be filtered per reader. So each service states, in one ``record`` call, the public
facts it changed, and puts hidden ones into an entry with ``public=False``."""

from campaigns.models import AdminAction, Campaign


def record(*, campaign: Campaign, actor, kind: str, target: str, before=None, after=None,
           public: bool = True, round=None, reason: str = "") -> AdminAction:
    """Log one admin action. ``before``/``after`` are JSON values of what changed; a
    ``public`` entry is shown to members, so it must hold public facts only (R-FLT-7: never
    fleet contents or orders, hazards, lists before reveal or unrevealed seeds). ``actor``
    None means the system did it (shown as "automatic"). ``reason``: why the organiser made
    a correction (R-SEC-2), shown with the entry; it follows ``public`` like the facts."""
    if round is None:
        round = campaign.rounds.order_by("-number").first()
    return AdminAction.objects.create(
        campaign=campaign, round=round, actor=actor if getattr(actor, "pk", None) else None,
        kind=kind, target=str(target)[:200], before=before, after=after, public=public,
        reason=reason or "")


def changed(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the keys whose values differ, as (before, after); a dict value (e.g. the ruleset's
    ``phase_hours``) keeps only its own changed keys."""
    old, new = {}, {}
    for key in dict.fromkeys([*before, *after]):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            a, b = changed(a, b)
        old[key], new[key] = a, b
    return old, new
