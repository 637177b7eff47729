"""Calendar feeds from the database (R-BAT-2): a campaign's feed for its members and a
user's personal feed behind a secret token, both built with ``battles.calendar``.

A feed holds the accepted battle dates (UID ``battle-<id>@<SITE_HOST>``) and the phase
deadlines (UID ``deadline-<round>-<phase>@<SITE_HOST>``). Deadlines are kept in
``CalendarDeadline`` rows: written when a waiting phase opens; by the service that pauses,
resumes, extends or moves the deadline (``calendar_deadline_follow``, stamped with the time of
the move); brought up to date when a feed is built (a chain link may have moved the deadline,
R-CON-6); and when the phase ends early, at the time it really ended. Every move bumps the
row's sequence. While the campaign is paused the clock stands: the event shows when the
deadline would pass were the campaign resumed at once (the pause's start plus the time left),
as STATUS:TENTATIVE.

[decision] A phase that ends early keeps its event, moved to the moment it ended, rather than
a cancelled one: clients hide or strike out a cancelled event and some never bring one back,
while a moved event with a higher SEQUENCE is taken by all of them and tells the truth (the
phase did end, then).

SEQUENCE and DTSTAMP come from stored data only, never from the time of the request, so the same
data always gives the same bytes, and each part only grows:
- a battle: ``Battle.calendar_sequence`` (bumped by every new date or place), + 1 once it is
  decided before its date, + the campaign's ``name_revision``; DTSTAMP is the latest of the date
  change, the first result (if that cancelled the date) and the last rename;
- a deadline: the row's sequence + the campaign's ``name_revision``; DTSTAMP likewise.

[decision] A battle whose first result (R-BAT-3 report, an admin's entry, or the default at the
battles deadline, R-RND-3) came before its agreed date stays at that date as STATUS:CANCELLED:
when it really was played is not recorded. A result recorded after the date began leaves the
event as it is (it was played then). A date can not be changed once a result is in
(``battles.services.schedule``) and results are never removed (R-BAT-4), so a cancelled event
stays cancelled. Withdrawn (R-ATK-5) and cancelled (R-ATK-3) declarations never reach a feed:
both happen before ``lists``, when dates can first be agreed, and the battle of a cancelled
declaration is deleted (``battles.services.battles``).

Each feed also has a ``last_modified`` for HTTP (Last-Modified): the latest DTSTAMP, and the
times its set of events can grow without any event changing - the campaign's creation and
renames, the user's joins (a joined campaign brings deadlines set before)."""

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max, OuterRef, Q, Subquery
from django.utils import translation
from django.utils.translation import gettext_lazy

from battles.calendar import battle_event, build_calendar, deadline_event
from battles.models import Battle, CalendarDeadline, CalendarToken, ResultChange
from campaigns import languages, zones
from campaigns.labels import phase_label, tile_label
from campaigns.models import Campaign, Player, Round
from campaigns.services.accounts import profile_read
from rules.rounds import WAITING
from rules.text import forbidden_character

TOKEN_BYTES = 32
MAX_TOKEN = 64


# --- deadlines -----------------------------------------------------------------------------

def deadline_record(rnd: Round, at: datetime, now: datetime) -> None:
    """Keep the published deadline of the round's current phase at ``at`` (idempotent). A
    moved deadline is one ``UPDATE``; a new one an ``INSERT`` that a row already there (a
    retry, or a twin at once) leaves as it is (no read, no savepoint)."""
    rows = CalendarDeadline.objects.filter(round=rnd, phase=rnd.phase)
    if not rows.exclude(at=at).update(at=at, sequence=F("sequence") + 1, changed_at=now):
        CalendarDeadline.objects.bulk_create(
            [CalendarDeadline(round=rnd, phase=rnd.phase, at=at, changed_at=now)],
            ignore_conflicts=True)


def deadlines_sync(rounds: Iterable[Round], now: datetime) -> None:
    """Bring the current deadlines of these rounds up to date: one read, and a write only
    where a deadline moved or is missing."""
    due = {(rnd.pk, rnd.phase): rnd for rnd in rounds
           if rnd.phase in WAITING and rnd.phase_deadline is not None}
    if not due:
        return
    published = {(round_id, phase): at for round_id, phase, at in CalendarDeadline.objects
                 .filter(round__in=[rnd.pk for rnd in due.values()])
                 .values_list("round_id", "phase", "at")}
    moved = [rnd for key, rnd in due.items() if published.get(key) != rnd.phase_deadline]
    if moved:
        with transaction.atomic():
            for rnd in moved:
                deadline_record(rnd, rnd.phase_deadline, now)


def shown_deadline(rnd: Round) -> datetime | None:
    """The current phase's deadline as the feeds show it: ``phase_deadline``, or while the
    campaign is paused and the clock stands, the pause's start plus the time left."""
    if rnd.phase_deadline is not None:
        return rnd.phase_deadline
    paused_at = rnd.campaign.paused_at
    if paused_at is not None and rnd.deadline_left is not None:
        return paused_at + rnd.deadline_left
    return None


def _clock_stands(rnd: Round) -> bool:
    return rnd.phase_deadline is None and shown_deadline(rnd) is not None


def calendar_deadline_follow(*, round: Round, now: datetime) -> None:  # noqa: A002
    """The admin paused, resumed, extended or moved the current deadline (R-RND-1): its event
    takes the new time or state with a higher SEQUENCE, stamped ``now``, even when only the
    state changed (a pause keeps the time). Call it after the round's write."""
    at = shown_deadline(round)
    if round.phase not in WAITING or at is None:
        return
    rows = CalendarDeadline.objects.filter(round=round, phase=round.phase)
    if not rows.update(at=at, sequence=F("sequence") + 1, changed_at=now):
        deadline_record(round, at, now)


def calendar_deadline_open(*, round: Round, now: datetime) -> None:  # noqa: A002
    """A waiting phase opened: publish its deadline in the calendar feeds (R-RND-1)."""
    if round.phase_deadline is not None:
        deadline_record(round, round.phase_deadline, now)


def calendar_deadline_close(*, round: Round, now: datetime) -> None:  # noqa: A002
    """A phase that ends before its deadline (the admin advanced it) ends now."""
    if round.phase in WAITING and round.phase_deadline is not None \
            and now < round.phase_deadline:
        deadline_record(round, now, now)


# --- feeds ---------------------------------------------------------------------------------

DECIDED_EARLY = gettext_lazy("Decided before this date: the battle is not played then.")


@dataclass(frozen=True)
class Feed:
    """An iCalendar feed's bytes, the time its content last changed (HTTP Last-Modified) and
    the language its texts are in (HTTP Content-Language)."""

    body: bytes
    last_modified: datetime
    language: str = ""


def decided_early(battle: Battle) -> bool:
    """Its first result came before its date (``first_result_at`` from ``_scheduled``)."""
    return battle.first_result_at is not None and battle.first_result_at < battle.scheduled_at


def _latest(*times: datetime | None) -> datetime:
    return max(t for t in times if t is not None)


def _battle_events(battles, host: str, profile) -> list:
    events = []
    for b in battles:
        early = decided_early(b)
        events.append(battle_event(
            battle_id=b.pk, attacker=b.attacker.user.username,
            defender=b.defender.user.username if b.defender_id else None, tile=tile_label(b.tile),
            start=b.scheduled_at, place=b.place,
            sequence=b.calendar_sequence + int(early) + b.campaign.name_revision,
            last_modified=_latest(b.schedule_changed_at or b.scheduled_at,
                                  b.first_result_at if early else None,
                                  b.campaign.name_changed_at),
            host=host, campaign=b.campaign.name, round_number=b.round.number,
            cancelled=str(DECIDED_EARLY) if early else "",
            zone=zones.zone(profile=profile, campaign=b.campaign)))
    return events


def _deadline_events(rows, host: str, profile) -> list:
    return [deadline_event(round_id=d.round_id, phase=d.phase, phase_name=phase_label(d.phase),
                           at=d.at,
                           sequence=d.sequence + d.round.campaign.name_revision,
                           last_modified=_latest(d.changed_at, d.round.campaign.name_changed_at),
                           host=host, campaign=d.round.campaign.name,
                           round_number=d.round.number,
                           zone=zones.zone(profile=profile, campaign=d.round.campaign),
                           paused=d.phase == d.round.phase and _clock_stands(d.round))
            for d in rows]


def _scheduled(battles):
    """Dated battles with what their events show, and the time of each one's first result
    (R-BAT-4 history), in one query."""
    first_result = (ResultChange.objects.filter(battle=OuterRef("pk")).order_by("at", "id")
                    .values("at")[:1])
    return (battles.filter(scheduled_at__isnull=False)
            .select_related("campaign", "round", "tile__planet", "attacker__user",
                            "defender__user")
            .annotate(first_result_at=Subquery(first_result)))


def _feed(name: str, campaigns, battles, now: datetime, *since: datetime | None,
          reader=None, campaign: Campaign | None = None) -> Feed:
    """The feed, its Last-Modified being the latest DTSTAMP or of ``since``. Descriptions
    name times in the zone of ``reader`` (a user), else of each event's campaign;
    texts are in the reader's profile language, else ``campaign``'s (a campaign's feed), else
    the site's (``campaigns.languages``)."""
    profile = profile_read(reader) if reader is not None and reader.is_authenticated else None
    language = languages.profile_language(profile) or (
        languages.campaign_language(campaign) if campaign is not None
        else languages.site_language())
    with translation.override(language):
        body, last_modified = _feed_in_language(name, campaigns, battles, now, *since,
                                                profile=profile)
    return Feed(body, last_modified, language)


def _feed_in_language(name: str, campaigns, battles, now: datetime, *since: datetime | None,
                      profile) -> tuple[bytes, datetime]:
    deadlines_sync(Round.objects.filter(campaign__in=campaigns, phase__in=WAITING)
                   .select_related("campaign"), now)
    rows = CalendarDeadline.objects.filter(round__campaign__in=campaigns).select_related(
        "round__campaign")
    host = settings.SITE_HOST
    events = (_battle_events(_scheduled(battles), host, profile)
              + _deadline_events(rows, host, profile))
    return (build_calendar(name, events),
            _latest(*since, *(event.last_modified for event in events)))


def campaign_feed(campaign: Campaign, now: datetime, reader=None) -> Feed:
    """R-BAT-2: every accepted battle date and phase deadline of the campaign, for ``reader``
    (its times named in the reader's zone and language, else the campaign's)."""
    return _feed(campaign.name, Campaign.objects.filter(pk=campaign.pk),
                 Battle.objects.filter(campaign=campaign), now,
                 campaign.created_at, campaign.name_changed_at, reader=reader,
                 campaign=campaign)


def user_feed(user, now: datetime) -> Feed:
    """R-BAT-2: the user's own battles and the deadlines of every campaign it plays in or
    administers, in the user's language and zone."""
    campaigns = Campaign.objects.filter(Q(players__user=user) | Q(admins=user)).distinct()
    mine = Battle.objects.filter(Q(attacker__user=user) | Q(defender__user=user))
    joined = Player.objects.filter(user=user).aggregate(at=Max("joined_at"))["at"]
    created = Campaign.objects.filter(admins=user).aggregate(at=Max("created_at"))["at"]
    return _feed(f"Feldzug - {user.get_username()}", campaigns, mine, now,
                 user.date_joined, joined, created, reader=user)


# --- the personal feed's secret ------------------------------------------------------------

def calendar_token_of(*, user, now: datetime) -> CalendarToken:
    """The user's token, made on first use."""
    token = CalendarToken.objects.filter(user=user).first()
    return token or calendar_token_regenerate(user=user, now=now)


@transaction.atomic
def calendar_token_regenerate(*, user, now: datetime) -> CalendarToken:
    """A new unguessable token; the old feed URL stops working."""
    token, _ = CalendarToken.objects.update_or_create(
        user=user, defaults={"token": secrets.token_urlsafe(TOKEN_BYTES), "created_at": now})
    return token


def user_for_token(token: object):
    """The active user a feed token belongs to, or None."""
    if not isinstance(token, str) or not 20 <= len(token) <= MAX_TOKEN or \
            forbidden_character(token):  # NUL cannot even be looked up
        return None
    row = CalendarToken.objects.filter(token=token, user__is_active=True).select_related(
        "user").first()
    if row is None or not secrets.compare_digest(row.token, token):
        return None
    return row.user
