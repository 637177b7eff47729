"""Hooks, one emit, delivery once with retries, backoff, Retry-After,
giving up after a day, switching a failing hook off with a mail to the admins, the address
guard, the signature, Discord's limits and the sandbox."""

import json
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.db import connection, transaction

from campaigns import outbound, webhooks
from campaigns.errors import DomainError
from campaigns.models import CampaignEvent, WebhookDelivery
from campaigns.services.events import event_emit
from campaigns.services.webhooks import (
    FAILURES_TO_DISABLE,
    webhook_create,
    webhook_deliveries_retry,
    webhook_delivery_attempt,
    webhook_test_send,
    webhook_update,
)
from tests.concurrency import at_once
from tests.worlds import make_league, with_emails

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
ALL = list(webhooks.KINDS)


def _hook(lg, receiver, path="/hook", **values):
    return webhook_create(campaign=lg.campaign, by=lg.admin, now=T0,
                          values={"url": receiver.url(path), "kind": "json", "events": ALL,
                                  **values})


def _emit(lg, key="closed:1", kind="round_closed", audience="public", now=T0, facts=None):
    return event_emit(campaign=lg.campaign, kind=kind, key=key, audience=audience, now=now,
                      facts=facts if facts is not None else {
                          "round": 1, "standings": [], "map_changes": [], "link": "x"})


@pytest.mark.django_db
def test_emit_is_idempotent_and_delivers_once(receiver, django_capture_on_commit_callbacks):
    lg = make_league()
    hook = _hook(lg, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        assert _emit(lg) is True
        assert _emit(lg) is False  # a retried step: same key, nothing new
    assert CampaignEvent.objects.filter(campaign=lg.campaign).count() == 1
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("sent", 1, 204)
    assert len(receiver.received) == 1
    # a sent delivery is never sent again, by the task or the sweep
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0 + timedelta(hours=1)) is None
    assert webhook_deliveries_retry(now=T0 + timedelta(hours=1)) == []
    assert len(receiver.received) == 1


@pytest.mark.django_db
def test_signature_verifies_over_timestamp_and_body(receiver,
                                                             django_capture_on_commit_callbacks):
    lg = make_league()
    hook = _hook(lg, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        _emit(lg)
    got = receiver.received[0]
    header = got.headers[webhooks.SIGNATURE_HEADER]
    assert header.startswith(f"t={int(T0.timestamp())},v1=")
    assert webhooks.verify(hook.secret, header, got.body, now=int(T0.timestamp()))
    assert not webhooks.verify(hook.secret, header, got.body + b" ", now=int(T0.timestamp()))
    assert not webhooks.verify("other", header, got.body, now=int(T0.timestamp()))
    # replay: an old signature is refused
    assert not webhooks.verify(hook.secret, header, got.body, now=int(T0.timestamp()) + 3600)


@pytest.mark.django_db
def test_private_addresses_refused_unless_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    lg = make_league()
    for url in ("http://127.0.0.1:9/x", "http://10.1.2.3/x", "http://169.254.169.254/latest",
                "http://[::1]/x", "http://localhost/x"):
        with pytest.raises(outbound.Refused):
            outbound.check_url(url)
        with pytest.raises(DomainError, match="blocked for safety") as refused:
            webhook_create(campaign=lg.campaign, by=lg.admin, now=T0,
                           values={"url": url, "kind": "json", "events": ALL})
        # plain words for the organiser: no setting's name, no issue number
        assert "site settings page" in refused.value.message
        assert "WEBHOOKS_ALLOW_PRIVATE" not in refused.value.message
        assert "issue" not in refused.value.message
    with pytest.raises(outbound.Refused):
        outbound.check_url("ftp://example.org/x")
    # a hook stored while allowed is refused at send time once the setting is off
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    hook = webhook_create(campaign=lg.campaign, by=lg.admin, now=T0,
                          values={"url": "http://127.0.0.1:9/x", "kind": "json", "events": ALL})
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    _emit(lg)
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0) == "failed"
    delivery.refresh_from_db()
    assert "blocked for safety" in delivery.last_error and delivery.last_status_code is None


@pytest.mark.django_db
def test_failing_receiver_backs_off_honours_retry_after_and_gives_up(receiver):
    lg = make_league()
    hook = _hook(lg, receiver)
    _emit(lg)
    delivery = WebhookDelivery.objects.get(hook=hook)
    receiver.script = [(500, {}), (429, {"Retry-After": "900"}), (503, {})]
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0) == "failed"
    delivery.refresh_from_db()
    assert delivery.next_attempt_at == T0 + timedelta(minutes=1)  # exponential: 1 minute
    assert (delivery.last_status_code, delivery.last_error) == (500, "HTTP 500")
    # not due yet: the sweep hands out nothing, a task does nothing
    assert webhook_deliveries_retry(now=T0 + timedelta(seconds=30)) == []
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0 + timedelta(seconds=30)) \
        is None
    t1 = T0 + timedelta(minutes=1)
    assert webhook_deliveries_retry(now=t1) == [delivery.pk]  # eager: attempted at t1
    delivery.refresh_from_db()
    assert delivery.last_status_code == 429
    assert delivery.next_attempt_at == t1 + timedelta(seconds=900)  # Retry-After beats 2 min
    t2 = delivery.next_attempt_at
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=t2) == "failed"
    delivery.refresh_from_db()
    assert delivery.next_attempt_at == t2 + timedelta(minutes=4)
    assert len(receiver.received) == 3
    # a day after the event: the next retry would fall past 24 hours -> gave up
    receiver.script = [(500, {})]
    late = T0 + timedelta(hours=23, minutes=59)
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=late) == "gave_up"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.next_attempt_at) == ("gave_up", 4, None)
    assert webhook_deliveries_retry(now=late + timedelta(days=1)) == []


@pytest.mark.django_db
def test_redirects_are_not_followed(receiver):
    lg = make_league()
    hook = _hook(lg, receiver)
    _emit(lg)
    receiver.script = [(302, {"Location": receiver.url("/elsewhere")})]
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0) == "failed"
    delivery.refresh_from_db()
    assert delivery.last_status_code == 302 and "Redirect refused" in delivery.last_error
    assert [r.path for r in receiver.received] == ["/hook"]


@pytest.mark.django_db
def test_a_run_of_failures_disables_the_hook_and_mails_the_admins(
        receiver, django_capture_on_commit_callbacks):
    lg = with_emails(make_league())
    hook = _hook(lg, receiver)
    receiver.script = [(500, {})] * FAILURES_TO_DISABLE
    for i in range(FAILURES_TO_DISABLE):
        _emit(lg, key=f"closed:{i}", now=T0 + timedelta(minutes=i))
    ids = list(WebhookDelivery.objects.filter(hook=hook).order_by("id").values_list("pk",
                                                                                    flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        for i, pk in enumerate(ids):
            webhook_delivery_attempt(delivery_id=pk, now=T0 + timedelta(minutes=i))
    hook.refresh_from_db()
    assert not hook.enabled and hook.disabled_at is not None
    assert hook.failure_count == FAILURES_TO_DISABLE
    assert [m.to for m in mail.outbox] == [[lg.admin.email]]
    assert "switched off" in mail.outbox[0].subject and "HTTP 500" in mail.outbox[0].body
    # off: nothing more is sent, no new deliveries are made
    _emit(lg, key="closed:late", now=T0 + timedelta(hours=1))
    assert not WebhookDelivery.objects.filter(event_key="closed:late").exists()
    assert webhook_deliveries_retry(now=T0 + timedelta(hours=2)) == []
    # switched on again: the run starts over and the waiting deliveries go out
    webhook_update(hook=hook, by=lg.admin, values={"enabled": True}, now=T0)
    hook.refresh_from_db()
    assert hook.enabled and hook.failure_count == 0 and hook.disabled_at is None
    webhook_deliveries_retry(now=T0 + timedelta(hours=2))
    assert WebhookDelivery.objects.filter(hook=hook, status="sent").count() == \
        FAILURES_TO_DISABLE


@pytest.mark.django_db
def test_hooks_filter_by_event_and_audience_and_sandbox_emits_nothing(receiver):
    lg = make_league()
    members = _hook(lg, receiver, "/members", audience="members")
    admins = _hook(lg, receiver, "/admins", audience="admins")
    public_only = _hook(lg, receiver, "/public", audience="public", events=["round_closed"])
    event_emit(campaign=lg.campaign, kind="dispute_raised", key="dispute:1", audience="admins",
               now=T0, facts={"reason": "x"})
    event_emit(campaign=lg.campaign, kind="result_confirmed", key="result:1",
               audience="members", now=T0, facts={})
    kinds = {hook.pk: sorted(WebhookDelivery.objects.filter(hook=hook).values_list("kind",
                                                                                   flat=True))
             for hook in (members, admins, public_only)}
    assert kinds == {members.pk: ["result_confirmed"],
                     admins.pk: ["dispute_raised", "result_confirmed"], public_only.pk: []}
    lg.campaign.is_sandbox = True
    lg.campaign.save(update_fields=["is_sandbox"])
    assert _emit(lg, key="closed:sandbox") is False
    assert not CampaignEvent.objects.filter(key="closed:sandbox").exists()


@pytest.mark.django_db
def test_owing_names_reach_only_hooks_that_opted_in(receiver):
    lg = make_league()
    named = _hook(lg, receiver, "/named", include_owing=True)
    plain = _hook(lg, receiver, "/plain")
    event_emit(campaign=lg.campaign, kind="deadline_soon", key="deadline:1", audience="public",
               now=T0, facts={"round": 1, "phase": "lists", "deadline": T0.isoformat(),
                              "link": "x", "owing": ["anna"]})
    assert WebhookDelivery.objects.get(hook=named).payload["data"]["owing"] == ["anna"]
    assert "owing" not in WebhookDelivery.objects.get(hook=plain).payload["data"]


@pytest.mark.django_db
def test_discord_message_stays_inside_discords_limits():
    huge = {"event": "battles_created", "id": "battles:1", "at": "2026-11-24T12:00:00Z",
            "campaign": {"id": 1, "name": "N" * 300, "time_zone": "Europe/Berlin",
                         "url": "http://x/"},
            "data": {"round": 1, "link": "http://x/b",
                     "battles": [{"tile": "T" * 400, "attacker": "A" * 900,
                                  "defender": "D" * 900, "link": "l", "id": i}
                                 for i in range(60)]}}
    for language in ("en", "de"):
        message = json.loads(webhooks.discord_body(huge, language, "#8b1e3f"))
        check_discord_limits(message)


def check_discord_limits(message: dict) -> None:
    limits = webhooks.LIMITS
    assert len(message["content"]) <= limits["content"]
    assert 1 <= len(message["embeds"]) <= limits["embeds"]
    for embed in message["embeds"]:
        assert len(embed["title"]) <= limits["title"]
        assert len(embed["description"]) <= limits["description"]
        assert len(embed["fields"]) <= limits["fields"]
        for f in embed["fields"]:
            assert 0 < len(f["name"]) <= limits["field_name"]
            assert 0 < len(f["value"]) <= limits["field_value"]
        assert 0 <= embed["color"] <= 0xFFFFFF
    assert webhooks.discord_size(message) <= limits["total"]


@pytest.mark.django_db
def test_test_event_button_delivers_to_that_hook(receiver,
                                                         django_capture_on_commit_callbacks):
    lg = make_league()
    hook = _hook(lg, receiver, kind="discord", language="de")
    with django_capture_on_commit_callbacks(execute=True):
        delivery = webhook_test_send(hook=hook, by=lg.admin, now=T0)
    delivery.refresh_from_db()
    assert delivery.status == "sent"
    body = receiver.received[0].json
    assert "Test" in body["content"] and body["embeds"][0]["footer"]["text"] == "Feldzug"
    assert "funktioniert" in body["embeds"][0]["description"]  # the hook's language
    with pytest.raises(Exception, match="admins"):
        webhook_test_send(hook=hook, by=lg.a.user, now=T0)


# --- two workers, one delivery (PostgreSQL row locks) -----------------------------------------

@pytest.mark.django_db(transaction=True)
def test_two_workers_send_one_delivery_once(receiver):
    if connection.vendor != "postgresql":
        pytest.skip("row locks (skip_locked) need PostgreSQL")
    lg = make_league()
    hook = _hook(lg, receiver)
    # made by hand: in autocommit, an emit would hand it to the (eager) task at once
    delivery = WebhookDelivery.objects.create(
        hook=hook, event_key="closed:1", kind="round_closed", created_at=T0, next_attempt_at=T0,
        payload=webhooks.payload(kind="round_closed", key="closed:1", at=T0, data={},
                                 campaign={"id": 1, "name": "x", "time_zone": "UTC",
                                           "url": "http://x/"}))
    receiver.hold = threading.Event()
    results = {}

    def work(name):
        try:
            results[name] = webhook_delivery_attempt(delivery_id=delivery.pk, now=T0)
        finally:
            connection.close()

    first = threading.Thread(target=work, args=("first",))
    first.start()
    assert receiver.arrived.wait(10)  # the first worker holds the row and is posting
    second = threading.Thread(target=work, args=("second",))
    second.start()
    second.join(10)
    receiver.hold.set()
    first.join(10)
    assert results == {"first": "sent", "second": None}
    assert len(receiver.received) == 1
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0 + timedelta(1)) is None
    assert len(receiver.received) == 1


@pytest.mark.django_db(transaction=True)
def test_two_emits_of_one_event_at_once_record_and_send_it_once(receiver):
    """An emit has no savepoint: an emitter that loses the race on a key inserts
    nothing, neither the event nor a second delivery, and fails nothing."""
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two connections at once")
    lg = make_league()
    hook = _hook(lg, receiver)

    def emit():
        with transaction.atomic():
            recorded = _emit(lg)
            time.sleep(0.2)  # the other emit inserts while this transaction is open
            return recorded

    results = at_once(emit, emit)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert CampaignEvent.objects.filter(campaign=lg.campaign).count() == 1
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert delivery.status == "sent" and len(receiver.received) == 1
