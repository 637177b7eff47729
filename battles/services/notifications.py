"""E-mail notifications: phase opened, deadline near, date proposed, result to confirm, dispute.

A service queues a ``Notification`` row per recipient inside its own transaction (subject and
body rendered from ``templates/emails/<kind>_subject.txt`` / ``<kind>.txt``) and, after
commit, hands the new rows to a Celery task that sends them with ``django.core.mail``. The
unique key (recipient, kind, event) keeps a hook or job that runs twice from queueing twice;
``sent_at`` keeps a task that runs twice from sending twice. A player switches kinds off with
``NotificationPreference`` (no row = on); recipients without an e-mail address are skipped.

[decision] The deadline reminder goes out once per round and phase, when at most 24 hours -
or half the phase, if the phase is shorter than 48 hours - are left, to the players who still
owe input: ``battles.selectors.obligations.owing_players``, the same answer as the campaign
home's to-do list. In the same step, 24 hours before the ``battles`` deadline, the campaign's
admins are told which disputes are still open (R-BAT-3 [decision], ``disputes_deadline_send``)."""

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from smtplib import SMTPServerDisconnected

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, Notification, NotificationKind, NotificationPreference
from battles.selectors.battles import DISPUTE_NOTICE, disputes_deadline_near, open_disputes
from battles.selectors.obligations import owing_players
from battles.services.unsubscribe import unsubscribe_link
from campaigns.enqueue import enqueue_on_commit
from campaigns.locking import lock_round
from campaigns.mail import (
    absolute,
    deliver,
    display,
    mail_users_after_commit,
    profiles_of,
    recipient_locale,
    render_mail,
)
from campaigns.models import Campaign, JobRun, Player, Round
from campaigns.selectors.absences import away_player_ids
from campaigns.selectors.campaigns import ruleset_of
from rules.rounds import WAITING

log = logging.getLogger(__name__)
SERVER_DOWN = (TimeoutError, ConnectionError, SMTPServerDisconnected)
REMINDER_BEFORE = timedelta(hours=24)
RETRY_AFTER = timedelta(minutes=5)  # unsent rows older than this are handed out again
GIVE_UP_AFTER = timedelta(days=2)


# --- preferences ---------------------------------------------------------------------------

def preferences_of(player: Player) -> dict[str, bool]:
    off = set(NotificationPreference.objects.filter(player=player, enabled=False)
              .values_list("kind", flat=True))
    return {kind: kind not in off for kind in NotificationKind.values}


@transaction.atomic
def preferences_update(*, player: Player, changes: dict[str, bool]) -> dict[str, bool]:
    """Switch kinds on or off for one player; unknown kinds are the caller's to refuse."""
    for kind, enabled in changes.items():
        NotificationPreference.objects.update_or_create(player=player, kind=kind,
                                                        defaults={"enabled": bool(enabled)})
    return preferences_of(player)


def _switched_off(kind: str, campaign: Campaign, users: list) -> set[int]:
    """User ids whose player in ``campaign`` switched ``kind`` off."""
    return set(NotificationPreference.objects.filter(
        player__campaign=campaign, player__user__in=[u.pk for u in users], kind=kind,
        enabled=False).values_list("player__user_id", flat=True))


# --- queueing ------------------------------------------------------------------------------

def notify_players(*, kind: str, campaign: Campaign, players: Iterable[int], event: str,
                   now: datetime, context: dict) -> list[int]:
    """Queue ``kind`` about ``event`` for the given players (ids) of ``campaign``."""
    users = [p.user for p in Player.objects.filter(pk__in=set(players)).select_related("user")]
    return notify_users(kind=kind, campaign=campaign, users=users, event=event, now=now,
                        context=context)


def notify_users(*, kind: str, campaign: Campaign, users: list, event: str, now: datetime,
                 context: dict) -> list[int]:
    """Queue ``kind`` about ``event`` for ``users`` (players' preferences respected) and send
    after commit. Each mail is rendered for its recipient: language, time
    zone, display name and their one-click unsubscribe link. A constant number of queries
    whatever the number of recipients. Returns the ids of the rows queued now."""
    if campaign.is_sandbox:  # a sandbox notifies nobody
        return []
    users = [u for u in {u.pk: u for u in users}.values() if u.email]
    if not users:
        return []
    skip = _switched_off(kind, campaign, users) | set(Notification.objects.filter(
        kind=kind, event=event, recipient__in=[u.pk for u in users])
        .values_list("recipient_id", flat=True))
    users = [u for u in users if u.pk not in skip]
    if not users:
        return []
    profiles = profiles_of(users)
    seats = dict(Player.objects.filter(campaign=campaign, user__in=[u.pk for u in users])
                 .values_list("user_id", "pk"))
    rows = []
    for user in users:
        profile, seat = profiles.get(user.pk), seats.get(user.pk)
        personal = {"campaign": campaign, "recipient": user,
                    "recipient_name": display(user, profile),
                    "unsubscribe_link": unsubscribe_link(player_id=seat, user_id=user.pk,
                                                         kind=kind) if seat else ""}
        with recipient_locale(profile, campaign=campaign):  # else the campaign's language
            subject, body = render_mail(kind, {**context, **personal})
        rows.append(Notification(recipient=user, campaign=campaign, kind=kind, event=event,
                                 subject=subject, body=body, created_at=now))
    Notification.objects.bulk_create(rows, ignore_conflicts=True)  # a racing twin: skipped
    queued = list(Notification.objects.filter(
        kind=kind, event=event, recipient__in=[u.pk for u in users], sent_at__isnull=True)
        .values_list("pk", flat=True))
    if queued:
        _send_after_commit(queued)
    return queued


# --- what the mails say and link to --------------------------------------------------------

# where a player acts in each waiting phase (R-RND-1)
PHASE_PAGES = {"declare": "map", "lists": "battles", "battles": "battles",
               "conquest": "conquest"}


def _page(name: str, campaign_id: int, *args) -> str:
    return absolute(reverse(f"campaigns:{name}", args=[campaign_id, *args]))


def phase_context(rnd: Round) -> dict:
    """Phase mails: the round, the phase's label (rendered in the reader's language) and the
    page to act on; the declare phase also links the fleets page (fleet orders)."""
    code = rnd.phase
    return {"round": rnd, "code": code, "phase": Round.Phase(code).label,
            "deadline": rnd.phase_deadline,
            "link": _page(PHASE_PAGES.get(code, "detail"), rnd.campaign_id),
            "fleets_link": _page("fleets", rnd.campaign_id) if code == "declare" else ""}


def battle_context(battle: Battle) -> dict:
    """Battle mails name the battle as the pages do - its tile (name, else planet and
    coordinates) and both sides with their players' display names - never by its id, and
    link the battle's page."""
    battle = Battle.objects.select_related("tile__planet", "attacker__user",
                                           "defender__user").get(pk=battle.pk)
    attacker = battle.attacker.user
    defender = battle.defender.user if battle.defender_id else None
    profiles = profiles_of([attacker, defender])
    return {"battle": battle,
            "attacker_name": display(attacker, profiles.get(attacker.pk)),
            "defender_name": display(defender, profiles.get(getattr(defender, "pk", None))),
            "link": _page("battle", battle.campaign_id, battle.pk)}


def manage_link(campaign_id: int) -> str:
    """Where the campaign's admins settle a dispute."""
    return _page("manage", campaign_id)


def _send_after_commit(ids: list[int]) -> None:
    """After commit, hand the rows to the sending task. The request has committed by then: a
    broker that is down must not turn it into an error; the rows stay unsent and
    ``notifications_resend`` (the periodic job) hands them out again."""
    from battles.tasks import send_notifications

    enqueue_on_commit(send_notifications, ids)


# --- sending (the task's service) ----------------------------------------------------------

def notifications_send(*, ids: Iterable[int]) -> int:
    """Send the queued rows that are not sent yet; a row whose mail fails stays unsent for the
    retry. Returns how many went out. A constant number of queries whatever the number of rows:
    the rows are locked together, and a twin task running at once skips them
    instead of sending them twice. [decision] Sent rows are marked in one update at the end;
    a worker killed mid-batch re-sends that batch after ``RETRY_AFTER`` (at least once), so
    a mail server that is down or out of the task's time ends the batch early instead."""
    with transaction.atomic():
        rows = list(Notification.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("recipient").filter(pk__in=list(ids), sent_at__isnull=True)
                    .order_by("pk"))
        seats = _seats(rows)
        sent = []
        for row in rows:
            try:
                deliver(row.subject, row.body, row.recipient.email,
                        headers=_headers(row, seats.get((row.campaign_id, row.recipient_id))))
            except SoftTimeLimitExceeded:  # the task's time is up: record what went out
                break
            except Exception as exc:  # the mail server's problem: keep the row for the retry
                log.exception("Sending notification %s failed", row.pk)
                if isinstance(exc, SERVER_DOWN):
                    break  # silent or gone: each further row would wait EMAIL_TIMEOUT too
                continue
            sent.append(row.pk)
        if sent:
            Notification.objects.filter(pk__in=sent).update(sent_at=timezone.now())
    return len(sent)


def _seats(rows: list[Notification]) -> dict[tuple[int, int], int]:
    """{(campaign id, user id): player id} of the rows' recipients, in one query."""
    if not rows:
        return {}
    found = Player.objects.filter(campaign__in={r.campaign_id for r in rows},
                                  user__in={r.recipient_id for r in rows})
    return {(c, u): pk for c, u, pk in found.values_list("campaign_id", "user_id", "pk")}


def _headers(row: Notification, seat: int | None) -> dict:
    """RFC 8058: mail programs offer a one-click unsubscribe for the kinds a player can switch
    off (the same signed link as in the body); other mail gets no such header."""
    if seat is None or row.kind not in NotificationKind.values:
        return {}
    link = unsubscribe_link(player_id=seat, user_id=row.recipient_id, kind=row.kind)
    return {"List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def notifications_resend(*, now: datetime) -> list[int]:
    """The periodic job's part: rows a lost task never sent are handed out again."""
    ids = list(Notification.objects.filter(sent_at__isnull=True,
                                           created_at__lte=now - RETRY_AFTER,
                                           created_at__gte=now - GIVE_UP_AFTER)
               .values_list("pk", flat=True)[:500])
    if ids:
        _send_after_commit(ids)
    return ids


# --- phase hooks and the periodic reminder -------------------------------------------------

def notifications_phase_opened(*, round: Round, now: datetime) -> list[int]:  # noqa: A002
    """Every player hears that a waiting phase opened, with its deadline (R-RND-1)."""
    players = set(Player.objects.filter(campaign=round.campaign_id).values_list("pk", flat=True))
    players -= away_player_ids(round.campaign, now)  # away players hear nothing
    return notify_players(kind=NotificationKind.PHASE_OPENED, campaign=round.campaign,
                          players=players, event=f"round:{round.pk}:{round.phase}", now=now,
                          context=phase_context(round))


def reminder_due(rnd: Round, now: datetime) -> bool:
    if rnd.phase not in WAITING or rnd.phase_deadline is None or \
            now >= rnd.phase_deadline:
        return False
    lead = REMINDER_BEFORE
    if rnd.phase_started_at is not None:
        lead = min(lead, (rnd.phase_deadline - rnd.phase_started_at) / 2)
    return rnd.phase_deadline - now <= lead


def reminders_send(*, now: datetime) -> int:
    """Once per round and phase: remind who still owes input that the deadline is near; and
    tell the admins of the disputes still open before the battles deadline
    (``disputes_deadline_send``). Returns how many rounds' players were reminded."""
    disputes_deadline_send(now=now)
    soon = Round.objects.filter(phase__in=WAITING, phase_deadline__gt=now,
                                phase_deadline__lte=now + REMINDER_BEFORE,
                                campaign__paused_at__isnull=True)  # paused
    reminded = 0
    for candidate in soon.values_list("pk", flat=True):
        with transaction.atomic():
            rnd = lock_round(candidate)  # the campaign first (campaigns.locking)
            if not reminder_due(rnd, now) or rnd.campaign.paused_at is not None:
                continue
            _, first = JobRun.objects.get_or_create(name="deadline_reminders",
                                                    key=f"{rnd.pk}:{rnd.phase}")
            if not first:
                continue
            notify_players(kind=NotificationKind.DEADLINE_SOON, campaign=rnd.campaign,
                           players=set(owing_players(rnd)) - away_player_ids(rnd.campaign, now),
                           event=f"round:{rnd.pk}:{rnd.phase}",
                           now=now, context=phase_context(rnd))
            reminded += 1
    return reminded


def disputes_deadline_send(*, now: datetime) -> int:
    """R-BAT-3 [decision]: in the last 24 hours before a round's ``battles`` deadline, mail the
    campaign's admins, each in their language, which disputes are still open (the battle, who
    disputed and why) and that the deadline gives each the ``unplayed_outcome``. Once per round
    (``JobRun`` "dispute_deadline"); a round without an open dispute is looked at again on the
    next run, so a dispute raised later in those 24 hours is still told. Not while paused.
    Returns how many rounds' admins were mailed."""
    soon = Round.objects.filter(phase=Round.Phase.BATTLES, phase_deadline__gt=now,
                                phase_deadline__lte=now + DISPUTE_NOTICE,
                                campaign__paused_at__isnull=True)
    told = 0
    for candidate in soon.values_list("pk", flat=True):
        with transaction.atomic():
            rnd = Round.objects.select_for_update().select_related("campaign").get(
                pk=candidate)
            if not disputes_deadline_near(rnd, now) or rnd.campaign.paused_at is not None or \
                    JobRun.objects.filter(name="dispute_deadline", key=str(rnd.pk)).exists():
                continue
            disputes = open_disputes(rnd)
            if not disputes:
                continue
            JobRun.objects.create(name="dispute_deadline", key=str(rnd.pk))
            mail_users_after_commit(
                users=list(rnd.campaign.admins.all()), name="disputes_open", context={
                    "campaign": rnd.campaign, "round": rnd, "deadline": rnd.phase_deadline,
                    "disputes": [_dispute_facts(battle) for battle in disputes],
                    "unplayed": ruleset_of(rnd.campaign).unplayed_outcome,
                    "manage_link": manage_link(rnd.campaign_id)})
            told += 1
    return told


def _dispute_facts(battle: Battle) -> dict:
    """A battle of the admins' mail: named as ``emails/_battle_name.txt`` names it, who
    disputed and the words they gave, the battle's page."""
    profiles = profiles_of([battle.attacker.user, getattr(battle.defender, "user", None),
                            getattr(battle.dispute, "by", None)])

    def name(user):
        return display(user, profiles.get(getattr(user, "pk", None)))
    change = battle.dispute
    return {"battle": battle, "attacker_name": name(battle.attacker.user),
            "defender_name": name(getattr(battle.defender, "user", None)),
            "by": name(change.by) if change else "",
            "reason": (change.new or {}).get("reason", "") if change else "",
            "link": _page("battle", battle.campaign_id, battle.pk)}
