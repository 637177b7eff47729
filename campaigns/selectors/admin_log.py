"""The audit log as pages and the API read it: members see the public
entries, the campaign's admins all; filtered by a group of kinds or one kind, and by round."""

from django.db.models import Q, QuerySet

from campaigns.models import AdminAction, Campaign

# Kind codes by group, as prefixes ("tile." covers tile.create, tile.update, ...).
KIND_GROUPS = {
    "rounds": ("round.", "campaign.pause", "campaign.resume", "nudge"),
    "results": ("result.", "dispute."),
    "map": ("map.", "planet.", "tile.", "link.", "marker.", "area.", "fleet.", "ship.",
            "hazard."),
    "players": ("player.", "admin.", "absence.", "attack."),
    "settings": ("campaign.update", "ruleset.", "campaign.export", "sandbox.",
                 "campaign.import", "webhook.", "staff."),  # webhooks and staff edits: admins only
}


def _kind_filter(kind: str) -> Q:
    """A group name, or one kind code."""
    if kind not in KIND_GROUPS:
        return Q(kind=kind)
    query = Q(pk__in=[])
    for prefix in KIND_GROUPS[kind]:
        query |= Q(kind__startswith=prefix) if prefix.endswith(".") else Q(kind=prefix)
    return query


def audit_entries(campaign: Campaign, *, admin: bool, kind: str = "",
                  round_number: int | None = None) -> QuerySet:
    """Newest first, with the actor (and their profile) and the round in the same query."""
    entries = (AdminAction.objects.filter(campaign=campaign)
               .select_related("actor__profile", "round").order_by("-at", "-id"))
    if not admin:
        entries = entries.filter(public=True)
    if kind:
        entries = entries.filter(_kind_filter(kind))
    if round_number is not None:
        entries = entries.filter(round__number=round_number)
    return entries
