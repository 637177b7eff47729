"""Campaign webhooks: the admin's hooks and the delivery of each event to each hook, at least
once.

Sending: ``webhook_delivery_attempt`` claims the delivery in a short transaction (row lock,
``skip_locked``; one more attempt, in flight until ``LEASE`` from now), commits, posts with no
transaction or lock open (a slow receiver holds no database connection in a transaction), then
records the answer in a new short transaction. A claimed delivery is not taken by another
worker; one whose worker died while posting is due again when its lease ends and is sent again
(the receiver drops the duplicate by the event id: ``docs/webhooks.md``). A sent delivery is
never sent again. Every address is checked again before each post (``outbound``). A failure
(network, timeout, non-2xx, 429) is retried with exponential backoff, honouring Retry-After,
for ``RETRY_FOR`` after the event; then the delivery gives up. ``FAILURES_TO_DISABLE`` failed
attempts in a row switch the hook off and mail the campaign's admins.
``webhook_deliveries_retry`` is the periodic job's part."""

import secrets
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import access, outbound, webhooks
from campaigns.errors import DomainError
from campaigns.mail import absolute, mail_users_after_commit
from campaigns.models import Audience, Campaign, Webhook, WebhookDelivery
from campaigns.services import admin_log
from campaigns.services.events import deliveries_create

RETRY_FOR = timedelta(hours=24)
FIRST_BACKOFF = timedelta(minutes=1)
MAX_BACKOFF = timedelta(hours=4)
FAILURES_TO_DISABLE = 10
LEASE = timedelta(minutes=5)  # a claimed delivery's time in flight; far above TOTAL_TIMEOUT
MAX_HOOKS = 10
EDITABLE = ("url", "kind", "events", "language", "audience", "include_owing", "colour",
            "enabled")


def _refuse(message: str, field: str) -> None:
    raise DomainError(message, code="invalid_webhook", field=field)


def check_admin(campaign: Campaign, by) -> None:
    if by is None or not access.is_campaign_admin(by, campaign):
        raise PermissionDenied(_("Only the campaign's admins manage its webhooks."))


def _clean(values: dict) -> dict:
    """Validate the editable fields given; 400 naming the field otherwise."""
    clean = {}
    if "url" in values:
        url = str(values["url"] or "").strip()
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            _refuse(_("Give an http or https URL."), "url")
        if len(url) > 500:
            _refuse(_("The URL is too long (at most 500 characters)."), "url")
        try:
            outbound.check_url(url)
        except outbound.Refused as exc:
            _refuse(str(exc), "url")
        clean["url"] = url
    for name, choices in (("kind", Webhook.Kind.values), ("language", Webhook.Language.values),
                          ("audience", Audience.values)):
        if name in values:
            if values[name] not in choices:
                _refuse(_("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)}, name)
            clean[name] = values[name]
    if "events" in values:
        events = values["events"]
        if not isinstance(events, list | tuple) or not all(e in webhooks.KINDS for e in events):
            _refuse(_("Choose events from: %(kinds)s.") % {"kinds": ", ".join(webhooks.KINDS)},
                    "events")
        clean["events"] = [k for k in webhooks.KINDS if k in events]
    for name in ("include_owing", "enabled"):
        if name in values:
            if not isinstance(values[name], bool):
                _refuse(_("Say true or false."), name)
            clean[name] = values[name]
    if "colour" in values:
        colour = str(values["colour"] or "")
        if len(colour) != 7 or colour[0] != "#" or \
                any(c not in "0123456789abcdefABCDEF" for c in colour[1:]):
            _refuse(_("Give a colour as #rrggbb."), "colour")
        clean["colour"] = colour.lower()
    return clean


@transaction.atomic
def webhook_create(*, campaign: Campaign, by, values: dict, now: datetime) -> Webhook:
    """A new hook with a fresh signing secret (shown on the hook's page and in the API)."""
    check_admin(campaign, by)
    if "url" not in values:
        _refuse(_("Give the URL to post to."), "url")
    if Webhook.objects.filter(campaign=campaign).count() >= MAX_HOOKS:
        _refuse(_("A campaign has at most %(n)s webhooks.") % {"n": MAX_HOOKS}, "url")
    hook = Webhook.objects.create(campaign=campaign, created_by=by,
                                  secret=secrets.token_urlsafe(32), **_clean(values))
    _log(hook, by, "webhook.create", after=_shown(hook))
    return hook


def _shown(hook: Webhook) -> dict:
    """What the audit log keeps of a hook: never its URL's path (a Discord URL holds its
    token) nor its secret."""
    return {"host": urlsplit(hook.url).hostname, "kind": hook.kind, "events": hook.events,
            "language": hook.language, "audience": hook.audience,
            "include_owing": hook.include_owing, "enabled": hook.enabled}


def _log(hook: Webhook, by, kind: str, before=None, after=None) -> None:
    admin_log.record(campaign=hook.campaign, actor=by, kind=kind, public=False,
                     target=urlsplit(hook.url).hostname or "", before=before, after=after)


@transaction.atomic
def webhook_update(*, hook: Webhook, by, values: dict, now: datetime) -> Webhook:
    """Change the given fields; switching a disabled hook on again resets its failure run."""
    check_admin(hook.campaign, by)
    hook = Webhook.objects.select_for_update().get(pk=hook.pk)
    clean = _clean({k: v for k, v in values.items() if k in EDITABLE})
    before = _shown(hook)
    for name, value in clean.items():
        setattr(hook, name, value)
    if clean.get("enabled"):
        hook.failure_count, hook.disabled_at = 0, None
    hook.save()
    old, new = admin_log.changed(before, _shown(hook))
    if old or new:
        _log(hook, by, "webhook.update", before=old, after=new)
    return hook


@transaction.atomic
def webhook_delete(*, hook: Webhook, by) -> None:
    check_admin(hook.campaign, by)
    _log(hook, by, "webhook.delete", before=_shown(hook))
    hook.delete()


@transaction.atomic
def webhook_test_send(*, hook: Webhook, by, now: datetime) -> WebhookDelivery:
    """A test event to this hook alone ("send test event"), delivered like any other."""
    check_admin(hook.campaign, by)
    key = f"test:{secrets.token_hex(8)}"
    ids = deliveries_create(campaign=hook.campaign, hooks=[hook], kind=webhooks.TEST_KIND,
                            key=key, facts={"message": "test"}, at=now, now=now)
    return WebhookDelivery.objects.get(pk=ids[0])


# --- sending ---------------------------------------------------------------------------------

def backoff(attempts: int) -> timedelta:
    """The wait after failed attempt number ``attempts``: 1, 2, 4 ... minutes, at most 4 h."""
    return min(FIRST_BACKOFF * 2 ** max(attempts - 1, 0), MAX_BACKOFF)


def _headers(hook: Webhook, delivery: WebhookDelivery, body: bytes, now: datetime) -> dict:
    headers = {"Content-Type": "application/json", "User-Agent": "Feldzug-Webhooks/1"}
    if hook.kind == Webhook.Kind.JSON:
        headers[webhooks.SIGNATURE_HEADER] = webhooks.sign(hook.secret, int(now.timestamp()),
                                                          body)
        headers["X-Feldzug-Event"] = delivery.kind
        headers["X-Feldzug-Delivery"] = delivery.event_key
    return headers


def webhook_delivery_attempt(*, delivery_id: int, now: datetime) -> str | None:
    """Try one due delivery (see the module docstring): claim it, post with no transaction
    open, record the answer. Returns its new status, or None when there was nothing to do
    (sent, given up, not due, in flight with another worker, hook off)."""
    delivery = _claim(delivery_id, now)
    if delivery is None:
        return None
    hook = delivery.hook
    body = webhooks.body(delivery.payload, kind=hook.kind, language=hook.language,
                         colour=hook.colour)
    answer = outbound.post(hook.url, body, _headers(hook, delivery, body, now))
    return _record(delivery_id, hook, answer, now)


@transaction.atomic
def _claim(delivery_id: int, now: datetime) -> WebhookDelivery | None:
    """Mark a due delivery in flight until ``now + LEASE`` (one more attempt) and commit: no
    other worker takes it meanwhile, and if this worker dies while posting, the periodic job
    finds it due again when the lease ends."""
    delivery = (WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("hook__campaign")
                .filter(pk=delivery_id, status__in=(WebhookDelivery.Status.PENDING,
                                                    WebhookDelivery.Status.FAILED))
                .first())
    if delivery is None or not delivery.hook.enabled or \
            (delivery.next_attempt_at and delivery.next_attempt_at > now):
        return None
    delivery.attempts += 1
    delivery.next_attempt_at = now + LEASE
    delivery.save(update_fields=["attempts", "next_attempt_at"])
    return delivery


@transaction.atomic
def _record(delivery_id: int, hook: Webhook, answer: outbound.Answer,
            now: datetime) -> str | None:
    """The answer of the claimed attempt, in a new short transaction. None when the delivery
    is gone (its hook was deleted) or another worker sent it after this one's lease ran out."""
    delivery = WebhookDelivery.objects.select_for_update().filter(
        pk=delivery_id, status__in=(WebhookDelivery.Status.PENDING,
                                    WebhookDelivery.Status.FAILED)).first()
    if delivery is None:
        return None
    delivery.last_status_code, delivery.last_error = answer.status, answer.error[:300]
    if answer.ok:
        delivery.status, delivery.sent_at, delivery.next_attempt_at = "sent", now, None
        Webhook.objects.filter(pk=hook.pk).update(failure_count=0)
    else:
        wait = max(backoff(delivery.attempts), timedelta(seconds=answer.retry_after or 0))
        if now + wait > delivery.created_at + RETRY_FOR:
            delivery.status, delivery.next_attempt_at = "gave_up", None
        else:
            delivery.status, delivery.next_attempt_at = "failed", now + wait
        _count_failure(hook, answer, now)
    delivery.save(update_fields=["last_status_code", "last_error", "status", "sent_at",
                                 "next_attempt_at"])
    return delivery.status


def _count_failure(hook: Webhook, answer: outbound.Answer, now: datetime) -> None:
    """One more failure in a row; the ``FAILURES_TO_DISABLE``th switches the hook off and
    mails the admins (once: only the attempt that switches it off)."""
    Webhook.objects.filter(pk=hook.pk).update(failure_count=F("failure_count") + 1)
    switched = Webhook.objects.filter(pk=hook.pk, enabled=True,
                                      failure_count__gte=FAILURES_TO_DISABLE) \
        .update(enabled=False, disabled_at=now)
    if switched:
        campaign = hook.campaign
        mail_users_after_commit(users=list(campaign.admins.all()), name="webhook_disabled",
                                context={"campaign": campaign, "failures": FAILURES_TO_DISABLE,
                                         "host": urlsplit(hook.url).hostname or hook.url,
                                         "error": answer.error or f"HTTP {answer.status}",
                                         "link": absolute(reverse("campaigns:webhook",
                                                                  args=[campaign.pk,
                                                                        hook.pk]))})


def due_deliveries(now: datetime) -> list[int]:
    return list(WebhookDelivery.objects.filter(
        status__in=(WebhookDelivery.Status.PENDING, WebhookDelivery.Status.FAILED),
        next_attempt_at__lte=now, hook__enabled=True).order_by("next_attempt_at", "id")
        .values_list("pk", flat=True)[:200])


def webhook_deliveries_retry(*, now: datetime) -> list[int]:
    """The periodic job's part: hand due deliveries (retries, and any a lost task left) to the
    sending task."""
    from campaigns.enqueue import enqueue
    from campaigns.tasks import deliver_webhooks

    ids = due_deliveries(now)
    if ids:
        enqueue(deliver_webhooks, ids, now.isoformat())
    return ids


def deliveries_send(*, ids: list[int], now: datetime | None = None) -> int:
    """The task's service: attempt each delivery; returns how many were sent."""
    sent = 0
    for pk in ids:
        when = now or timezone.now()
        if webhook_delivery_attempt(delivery_id=pk, now=when) == "sent":
            sent += 1
    return sent
