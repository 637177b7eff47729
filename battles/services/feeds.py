"""Calendar feeds from the database (R-BAT-2): a campaign's feed for its members and a
user's personal feed behind a secret token, both built with ``battles.calendar``.

A feed holds the accepted battle dates (UID ``battle-<id>``, SEQUENCE
``Battle.calendar_sequence``) and the phase deadlines (UID ``deadline-<round>-<phase>``).
Deadlines are kept in ``CalendarDeadline`` rows: written when a waiting phase opens, brought up
to date when a feed is built (the admin or a chain link may have moved the deadline, R-CON-6)
and when the phase ends early; every move bumps the row's sequence."""

import secrets
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q

from battles.calendar import battle_event, build_calendar, deadline_event
from battles.models import Battle, CalendarDeadline, CalendarToken
from campaigns.models import Campaign, Round
from rules.rounds import WAITING
from rules.text import forbidden_character

TOKEN_BYTES = 32
MAX_TOKEN = 64


# --- deadlines -----------------------------------------------------------------------------

def deadline_record(rnd: Round, at: datetime, now: datetime) -> None:
    """Keep the published deadline of the round's current phase at ``at`` (idempotent)."""
    row, created = CalendarDeadline.objects.get_or_create(
        round=rnd, phase=rnd.phase, defaults={"at": at, "changed_at": now})
    if not created and row.at != at:
        CalendarDeadline.objects.filter(pk=row.pk, at=row.at).update(
            at=at, sequence=F("sequence") + 1, changed_at=now)


def deadlines_sync(rounds: Iterable[Round], now: datetime) -> None:
    """Bring the current deadlines of these rounds up to date."""
    with transaction.atomic():
        for rnd in rounds:
            if rnd.phase in WAITING and rnd.phase_deadline is not None:
                deadline_record(rnd, rnd.phase_deadline, now)


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

def _tile_label(battle: Battle) -> str:
    tile = battle.tile
    return f"{tile.planet.name} ({tile.q},{tile.r})"


def _battle_events(battles) -> list:
    return [battle_event(
        battle_id=b.pk, attacker=b.attacker.user.username,
        defender=b.defender.user.username if b.defender_id else None, tile=_tile_label(b),
        start=b.scheduled_at, place=b.place, sequence=b.calendar_sequence,
        last_modified=b.schedule_changed_at or b.scheduled_at, campaign=b.campaign.name,
        round_number=b.round.number) for b in battles]


def _deadline_events(rows) -> list:
    return [deadline_event(round_id=d.round_id, phase=d.phase, at=d.at, sequence=d.sequence,
                           last_modified=d.changed_at, campaign=d.round.campaign.name,
                           round_number=d.round.number) for d in rows]


def _scheduled(battles):
    return (battles.filter(scheduled_at__isnull=False)
            .select_related("campaign", "round", "tile__planet", "attacker__user",
                            "defender__user"))


def _feed(name: str, campaigns, battles, now: datetime) -> bytes:
    deadlines_sync(Round.objects.filter(campaign__in=campaigns, phase__in=WAITING)
                   .select_related("campaign"), now)
    rows = CalendarDeadline.objects.filter(round__campaign__in=campaigns).select_related(
        "round__campaign")
    return build_calendar(name, _battle_events(_scheduled(battles)) + _deadline_events(rows))


def campaign_feed(campaign: Campaign, now: datetime) -> bytes:
    """R-BAT-2: every accepted battle date and phase deadline of the campaign."""
    return _feed(campaign.name, Campaign.objects.filter(pk=campaign.pk),
                 Battle.objects.filter(campaign=campaign), now)


def user_feed(user, now: datetime) -> bytes:
    """R-BAT-2: the user's own battles and the deadlines of every campaign it plays in or
    administers."""
    campaigns = Campaign.objects.filter(Q(players__user=user) | Q(admins=user)).distinct()
    mine = Battle.objects.filter(Q(attacker__user=user) | Q(defender__user=user))
    return _feed(f"Feldzug - {user.get_username()}", campaigns, mine, now)


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
            forbidden_character(token):  # NUL cannot even be looked up (issue 14 item 6)
        return None
    row = CalendarToken.objects.filter(token=token, user__is_active=True).select_related(
        "user").first()
    if row is None or not secrets.compare_digest(row.token, token):
        return None
    return row.user
