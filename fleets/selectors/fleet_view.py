"""Fleets as a viewer may see them (R-FLT-7). Every fleet's public fields (owner, kind, area,
ship count) come from the map document; the whole fleet (name, admiral, ships with cargo and
crew, standing orders) only for its owner and the campaign admin. Two queries."""

from campaigns.models import Campaign, Player
from fleets.models import Fleet


def full_fleets(campaign: Campaign, *, player: Player | None, is_admin: bool) -> dict[int, Fleet]:
    """Fleet id -> fleet with its ships, for the fleets the viewer may see in full."""
    fleets = Fleet.objects.filter(campaign=campaign)
    if not is_admin:
        if player is None:
            return {}
        fleets = fleets.filter(owner=player)
    return {fleet.pk: fleet for fleet in fleets.prefetch_related("ships").order_by("id")}
