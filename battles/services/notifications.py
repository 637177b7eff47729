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
home's to-do list."""

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from battles.models import Notification, NotificationKind, NotificationPreference
from battles.selectors.obligations import owing_players
from campaigns.enqueue import enqueue_on_commit
from campaigns.models import Campaign, JobRun, Player, Round
from rules.rounds import WAITING

log = logging.getLogger(__name__)
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
    after commit. Returns the ids of the rows queued now."""
    off = _switched_off(kind, campaign, users)
    queued = []
    for user in {u.pk: u for u in users}.values():
        if not user.email or user.pk in off or Notification.objects.filter(
                recipient=user, kind=kind, event=event).exists():
            continue
        subject, body = _render(kind, {**context, "campaign": campaign, "recipient": user})
        row, created = Notification.objects.get_or_create(
            recipient=user, kind=kind, event=event,
            defaults={"campaign": campaign, "subject": subject, "body": body,
                      "created_at": now})
        if created:
            queued.append(row.pk)
    if queued:
        _send_after_commit(queued)
    return queued


def _render(kind: str, context: dict) -> tuple[str, str]:
    with translation.override(settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", context).split())
        body = render_to_string(f"emails/{kind}.txt", context)
    name = " ".join(str(context["campaign"].name).split())  # a header is one line
    return f"[{name}] {subject}"[:200], body


def _send_after_commit(ids: list[int]) -> None:
    """After commit, hand the rows to the sending task. The request has committed by then: a
    broker that is down must not turn it into an error (issue 14); the rows stay unsent and
    ``notifications_resend`` (the periodic job) hands them out again."""
    from battles.tasks import send_notifications

    enqueue_on_commit(send_notifications, ids)


# --- sending (the task's service) ----------------------------------------------------------

def notifications_send(*, ids: Iterable[int]) -> int:
    """Send the queued rows that are not sent yet, each in its own locked step; a row whose
    mail fails stays unsent for the retry. Returns how many went out."""
    sent = 0
    for pk in ids:
        with transaction.atomic():
            row = (Notification.objects.select_for_update().select_related("recipient")
                   .filter(pk=pk, sent_at__isnull=True).first())
            if row is None:
                continue
            try:
                send_mail(row.subject, row.body, None, [row.recipient.email])
            except Exception:  # the mail server's problem: keep the row for the retry
                log.exception("Sending notification %s failed", row.pk)
                continue
            row.sent_at = timezone.now()
            row.save(update_fields=["sent_at"])
            sent += 1
    return sent


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
    players = Player.objects.filter(campaign=round.campaign_id).values_list("pk", flat=True)
    return notify_players(kind=NotificationKind.PHASE_OPENED, campaign=round.campaign,
                          players=players, event=f"round:{round.pk}:{round.phase}", now=now,
                          context={"round": round, "phase": round.phase,
                                   "deadline": round.phase_deadline})


def reminder_due(rnd: Round, now: datetime) -> bool:
    if rnd.phase not in WAITING or rnd.phase_deadline is None or \
            now >= rnd.phase_deadline:
        return False
    lead = REMINDER_BEFORE
    if rnd.phase_started_at is not None:
        lead = min(lead, (rnd.phase_deadline - rnd.phase_started_at) / 2)
    return rnd.phase_deadline - now <= lead


def reminders_send(*, now: datetime) -> int:
    """Once per round and phase: remind who still owes input that the deadline is near."""
    soon = Round.objects.filter(phase__in=WAITING, phase_deadline__gt=now,
                                phase_deadline__lte=now + REMINDER_BEFORE)
    reminded = 0
    for candidate in soon.values_list("pk", flat=True):
        with transaction.atomic():
            rnd = Round.objects.select_for_update().select_related("campaign").get(
                pk=candidate)
            if not reminder_due(rnd, now):
                continue
            _, first = JobRun.objects.get_or_create(name="deadline_reminders",
                                                    key=f"{rnd.pk}:{rnd.phase}")
            if not first:
                continue
            notify_players(kind=NotificationKind.DEADLINE_SOON, campaign=rnd.campaign,
                           players=owing_players(rnd), event=f"round:{rnd.pk}:{rnd.phase}",
                           now=now, context={"round": rnd, "phase": rnd.phase,
                                             "deadline": rnd.phase_deadline})
            reminded += 1
    return reminded
