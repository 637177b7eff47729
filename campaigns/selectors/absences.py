"""Who is away: a player's absence covers whole days of the campaign's calendar
(its time zone), from ``starts_on`` to ``ends_on`` inclusive. During it their pending inputs
take their defaults (R-RND-3) without reminders, and early advance does not wait for them."""

from datetime import date, datetime

from campaigns.models import Absence, Campaign
from campaigns.zones import zone


def campaign_day(campaign: Campaign, when: datetime) -> date:
    """The calendar date of ``when`` in the campaign's zone."""
    return when.astimezone(zone(campaign=campaign)).date()


def away_player_ids(campaign: Campaign, when: datetime) -> set[int]:
    """Ids of the campaign's players marked away on the day of ``when``."""
    day = campaign_day(campaign, when)
    return set(Absence.objects.filter(player__campaign=campaign, starts_on__lte=day,
                                      ends_on__gte=day).values_list("player_id", flat=True))


def absence_days_used(player, *, exclude=None) -> int:
    """Days of all the player's absences in their campaign (its season), past ones included;
    ``exclude`` leaves one absence out (the one being changed)."""
    absences = Absence.objects.filter(player=player)
    if exclude is not None:
        absences = absences.exclude(pk=exclude.pk)
    return sum(a.days for a in absences.only("starts_on", "ends_on"))


def absence_days_left(player, cap: int) -> int:
    """How many more days ``player`` may mark away under the ruleset's ``absence_days``."""
    return max(cap - absence_days_used(player), 0)


def player_absences(player):
    """The player's absences, oldest first."""
    return Absence.objects.filter(player=player).order_by("starts_on", "id")


def campaign_absences(campaign: Campaign, *, since: date | None = None):
    """The campaign's absences with their players (one query), by start date; ``since`` keeps
    those that end on or after that day."""
    absences = Absence.objects.filter(player__campaign=campaign)
    if since is not None:
        absences = absences.filter(ends_on__gte=since)
    return absences.select_related("player__user__profile").order_by("starts_on", "id")


def upcoming_absences(campaign: Campaign, today: date):
    """Current and future absences of the campaign (who is away when)."""
    return campaign_absences(campaign, since=today)


def absences_of(player_ids, *, since: date) -> list[Absence]:
    """Current and future absences of the given players (a battle's sides), by start date."""
    return list(Absence.objects.filter(player_id__in=[p for p in player_ids if p],
                                       ends_on__gte=since)
                .select_related("player__user__profile").order_by("starts_on", "id"))


def note_visible(absence: Absence, *, user, is_admin: bool) -> bool:
    """[reading R-RND-3] A note is the player's and the campaign admins' only; other members
    see the dates."""
    return is_admin or (user is not None and absence.player.user_id == user.pk)
