"""The admin action log (``AdminAction``): every correction and admin action is recorded by
the service that makes it, in the same transaction."""

from campaigns.models import AdminAction, Campaign


def record(*, campaign: Campaign, actor, kind: str, target: str, before=None, after=None,
           public: bool = True, round=None) -> AdminAction:
    """Log one admin action. ``before``/``after`` are JSON values of what changed; a
    ``public`` entry is shown to members, so it must hold public facts only (R-FLT-7: never
    fleet contents or orders, hazards, lists before reveal or unrevealed seeds)."""
    if round is None:
        round = campaign.rounds.order_by("-number").first()
    return AdminAction.objects.create(
        campaign=campaign, round=round, actor=actor if getattr(actor, "pk", None) else None,
        kind=kind, target=str(target)[:200], before=before, after=after, public=public)
