"""Absences (R-RND-3): a player marks whole days of the campaign's calendar
(its time zone) they are away, with an optional note. While away their pending inputs take
their defaults at the deadline without reminders (``battles.services.notifications``), and the
ruleset's ``absence_days`` caps the days per season (all absences of the player in the
campaign, past ones included; 0 = absences off). Pages and the API call these functions.

Readings:
- "today" is the campaign's calendar day of ``now``; an absence may not start before it.
- An absence that overlaps another of the same player is refused (not merged): the player
  sees both and decides.
- Withdrawing: a future absence goes; a current one is cut to end yesterday (the days already
  away stay, they count for reliability); one that started today goes; a past one stays."""

from datetime import date, datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns import access, formats
from campaigns.errors import Conflict, DomainError
from campaigns.locking import lock_campaign
from campaigns.models import Absence, Campaign, Player
from campaigns.selectors.absences import absence_days_left, campaign_day
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services import admin_log

MAX_NOTE = 200
MAX_AHEAD = timedelta(days=366)  # [decision] an absence starts at most a year ahead
RULE = "R-RND-3 (ruleset key absence_days)"


def _refuse(message: str, *, code: str, field: str | None = None, conflict: bool = False):
    cls = Conflict if conflict else DomainError
    raise cls(f"{RULE}: {message}", code=code, field=field)


def check_may_act(player: Player, by) -> None:
    """The player for themselves, or a campaign admin for any player (else 403)."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Sign in to mark absences."))
    if player.user_id != by.pk and not access.is_campaign_admin(by, player.campaign):
        raise PermissionDenied(_("A player marks their own absences; a campaign admin may "
                                 "mark them for any player."))


def _check_dates(starts_on, ends_on, today: date) -> None:
    if not isinstance(starts_on, date) or not isinstance(ends_on, date):
        _refuse(_("Give the first and the last day away."), code="absence_dates",
                field="starts_on")
    if ends_on < starts_on:
        _refuse(_("The last day away is before the first."), code="absence_dates",
                field="ends_on")
    if starts_on < today:
        _refuse(_("An absence can not start in the past (today is %(today)s in the "
                  "campaign's calendar).") % {"today": formats.date_text(today)},
                code="absence_past", field="starts_on")
    if starts_on > today + MAX_AHEAD:
        _refuse(_("An absence starts at most a year ahead."), code="absence_dates",
                field="starts_on")


def _check_overlap(player: Player, starts_on: date, ends_on: date) -> None:
    other = Absence.objects.filter(player=player, starts_on__lte=ends_on,
                                   ends_on__gte=starts_on).first()
    if other is not None:
        _refuse(_("These days overlap your absence from %(start)s to %(end)s; change or "
                  "withdraw that one first.") % {"start": formats.date_text(other.starts_on),
                                                 "end": formats.date_text(other.ends_on)},
                code="absence_overlap", field="starts_on", conflict=True)


def _check_on(cap: int) -> None:
    if cap == 0:
        _refuse(_("Absences are off in this campaign (ruleset key absence_days is 0)."),
                code="absences_off", conflict=True)


def _check_cap(player: Player, days: int, cap: int) -> None:
    left = absence_days_left(player, cap)
    if days > left:
        _refuse(_("This absence has %(days)s days but only %(left)s of the season's "
                  "%(cap)s days are left (ruleset key absence_days).")
                % {"days": days, "left": left, "cap": cap},
                code="absence_days", field="ends_on", conflict=True)


def _clean_note(note) -> str:
    note = " ".join(note.split()) if isinstance(note, str) else ""
    if len(note) > MAX_NOTE:
        _refuse(_("The note has at most %(n)s characters.") % {"n": MAX_NOTE},
                code="absence_note", field="note")
    return note


def _dates(absence: Absence) -> dict:
    return {"from": absence.starts_on.isoformat(), "to": absence.ends_on.isoformat()}


def _log(absence: Absence, by, kind: str, before=None, after=None, reason: str = "") -> None:
    """An admin acting for another player is an admin action: logged with
    the dates, which every member sees anyway, and the organiser's reason; never the note."""
    if by.pk != absence.player.user_id:
        admin_log.record(campaign=absence.player.campaign, actor=by, kind=kind,
                         target=absence.player.faction, before=before, after=after,
                         reason=reason)


def _locked_player(player: Player) -> Player:
    """The player's row, locked: two adds at once can not both pass the cap or overlap."""
    lock_campaign(player.campaign_id)  # campaigns.locking: the campaign first
    return Player.objects.select_for_update().select_related("campaign").get(pk=player.pk)


@transaction.atomic
def absence_add(*, player: Player, by, starts_on: date, ends_on: date, note: str = "",
                now: datetime, reason: str = "") -> Absence:
    """Mark ``player`` away from ``starts_on`` to ``ends_on`` (inclusive, campaign calendar);
    ``reason``: why an admin marks another player (the audit log). The caller re-checks early
    advance after the commit (an away player counts as ready, R-RND-2)."""
    check_may_act(player, by)
    player = _locked_player(player)
    campaign = player.campaign
    if campaign.status == Campaign.Status.FINISHED:
        _refuse(_("The campaign has finished."), code="campaign_finished", conflict=True)
    cap = ruleset_of(campaign).absence_days
    _check_on(cap)
    _check_dates(starts_on, ends_on, campaign_day(campaign, now))
    note = _clean_note(note)
    _check_overlap(player, starts_on, ends_on)
    _check_cap(player, (ends_on - starts_on).days + 1, cap)
    absence = Absence.objects.create(player=player, starts_on=starts_on, ends_on=ends_on,
                                     note=note)
    _log(absence, by, "absence.create", after=_dates(absence), reason=reason)
    return absence


@transaction.atomic
def absence_delete(*, absence: Absence, by, now: datetime) -> Absence | None:
    """Withdraw an absence (module docstring): returns the cut absence, or None if it went."""
    check_may_act(absence.player, by)
    _locked_player(absence.player)
    absence = Absence.objects.select_for_update().select_related("player__campaign").get(
        pk=absence.pk)
    today = campaign_day(absence.player.campaign, now)
    if absence.ends_on < today:
        _refuse(_("This absence is over; past absences stay (they count for reliability)."),
                code="absence_over", conflict=True)
    before = _dates(absence)
    if absence.starts_on >= today:
        _log(absence, by, "absence.delete", before=before)
        absence.delete()
        return None
    absence.ends_on = today - timedelta(days=1)
    absence.save(update_fields=["ends_on"])
    _log(absence, by, "absence.delete", before=before, after=_dates(absence))
    return absence
