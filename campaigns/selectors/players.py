"""Reads of seats and their holders for the API and the pages."""

from collections import defaultdict

from django.core.exceptions import ObjectDoesNotExist

from campaigns.models import Campaign, Player, SeatHolder


def display_name(user) -> str:
    """The name a person chose for themselves (``Profile.display_name``), else "" ; read from
    ``user.profile`` (select ``user__profile`` to avoid a query per user)."""
    if user is None:
        return ""
    try:
        profile = user.profile
    except ObjectDoesNotExist:
        return ""
    return profile.display_name if profile is not None else ""


def seat_holders(player: Player) -> list[SeatHolder]:
    """Each holder of the seat and from when, oldest first; a seat without rows (made
    outside ``player_add``) has had one holder since it was made."""
    rows = list(SeatHolder.objects.filter(player=player).select_related("user__profile")
                .order_by("since", "id"))
    return rows or [SeatHolder(player=player, user=player.user, since=player.joined_at)]


def holders_by_seat(campaign: Campaign) -> dict[int, list[SeatHolder]]:
    """Every seat's holders (oldest first), in one query."""
    found: dict[int, list[SeatHolder]] = defaultdict(list)
    for holder in (SeatHolder.objects.filter(player__campaign=campaign)
                   .select_related("user__profile").order_by("player", "since", "id")):
        found[holder.player_id].append(holder)
    return found
