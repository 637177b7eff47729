"""Outbound webhook safety: one parse of the address (the parser the HTTP client uses), the
connection to the very address that was checked, one deadline for the whole exchange, and no
lock or transaction held while another host is talking (claim, commit, post, record)."""

import socket
import socketserver
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from campaigns import outbound, webhooks
from campaigns.models import Webhook, WebhookDelivery
from campaigns.services import webhooks as services
from campaigns.services.webhooks import webhook_deliveries_retry, webhook_delivery_attempt
from tests.worlds import make_league

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def _delivery(hook: Webhook) -> WebhookDelivery:
    """A due delivery made by hand (an emit would hand it to the eager task at once)."""
    return WebhookDelivery.objects.create(
        hook=hook, event_key="closed:1", kind="round_closed", created_at=T0, next_attempt_at=T0,
        payload=webhooks.payload(kind="round_closed", key="closed:1", at=T0, data={},
                                 campaign={"id": 1, "name": "x", "time_zone": "UTC",
                                           "url": "http://x/"}))


def _hook(lg, url: str) -> Webhook:
    return Webhook.objects.create(campaign=lg.campaign, url=url, secret="s", kind="json",
                                  events=["round_closed"])


# --- the one check -----------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8115\\@1.1.1.1/x", "http://a@127.0.0.1/", "http://@1.1.1.1/",
    "http://127.0.0.1:80@evil.test/", "http://1.1.1.1#@127.0.0.1/", "http://1.1.1.1/a b",
    "ftp://1.1.1.1/", "http:///x", "http://1.1.1.1:0/", "http://exa_mple.test/",
])
def test_checked_target_refuses_anything_but_a_plain_address(settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # refused whatever the site allows
    with pytest.raises(outbound.Refused):
        outbound.checked_target(url)


@pytest.mark.django_db
@pytest.mark.parametrize("url", [
    "http://[::ffff:127.0.0.1]/", "http://[::127.0.0.1]/", "http://[::ffff:1.1.1.1]/",
    "http://[2002:7f00:1::1]/", "http://[64:ff9b::a00:1]/", "http://0177.0.0.1/",
    "http://2130706433/", "http://0x7f.1/", "http://100.64.0.1/", "http://[fe80::1]/",
])
def test_checked_target_refuses_private_and_embedded_addresses(settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(outbound.Refused):
        outbound.checked_target(url)


@pytest.mark.django_db
def test_checked_target_names_the_address_to_connect_to(settings, monkeypatch):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
        (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2606:4700::1111", port, 0, 0))])
    target = outbound.checked_target("https://Hooks.Test:8443/in?thread=1")
    assert (target.scheme, target.host, target.port, target.address, target.path) == \
        ("https", "hooks.test", 8443, "2606:4700::1111", "/in?thread=1")


# --- the connection goes to the checked address ------------------------------------------------

@pytest.mark.django_db
def test_delivery_connects_to_the_checked_address_not_a_second_answer(receiver, settings,
                                                                        monkeypatch):
    """A name that answers a public address to the check and loopback to a second lookup
    (DNS rebinding) never reaches the local receiver."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    port = receiver.server.server_address[1]
    lg = make_league()
    delivery = _delivery(_hook(lg, f"http://rebind.test:{port}/hook"))
    answers = []

    def getaddrinfo(host, port, *args, **kwargs):
        answers.append(host)
        address = "1.1.1.1" if len(answers) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    tried, real_connect = [], socket.socket.connect

    def connect(sock, address):
        tried.append(address[0])
        if address[0] != "127.0.0.1":  # the public address never leaves this machine
            raise ConnectionRefusedError("the test's public address answers nothing")
        return real_connect(sock, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0) == "failed"
    assert receiver.received == []
    assert tried == ["1.1.1.1"]


# --- one deadline, and no transaction while posting --------------------------------------------

@contextmanager
def dripping_receiver(answer: bytes = b"HTTP/1.1 204 No Content\r\n\r\n"):
    """A receiver that reads the request, then sends its answer one byte a second."""
    class Drip(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.recv(65536)
            for byte in answer:
                time.sleep(1)
                try:
                    self.request.sendall(bytes([byte]))
                except OSError:
                    return

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads, block_on_close = True, False

    server = Server(("127.0.0.1", 0), Drip)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                     daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/slow"
    finally:
        server.shutdown()
        server.server_close()


def _open_transactions() -> int:
    """Backends of this test database inside a transaction, seen from another connection."""
    seen = []

    def ask():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND state IN ('idle in transaction', "
                               "'idle in transaction (aborted)') "
                               "AND pid <> pg_backend_pid()")
                seen.append(cursor.fetchone()[0])
        finally:
            connection.close()

    thread = threading.Thread(target=ask)
    thread.start()
    thread.join(10)
    return seen[0]


@pytest.mark.django_db(transaction=True)
def test_slow_receiver_times_out_in_the_total_and_no_transaction_is_open(settings,
                                                                         monkeypatch):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 2)
    lg = make_league()
    seen = {}
    real_post = outbound.post

    def post(url, body, headers):
        seen["atomic"] = connection.in_atomic_block
        if connection.vendor == "postgresql":
            seen["open"] = _open_transactions()
        return real_post(url, body, headers)

    monkeypatch.setattr(outbound, "post", post)
    with dripping_receiver() as url:
        delivery = _delivery(_hook(lg, url))
        started = time.monotonic()
        assert webhook_delivery_attempt(delivery_id=delivery.pk, now=T0) == "failed"
        took = time.monotonic() - started
    assert took < 3.5, took
    delivery.refresh_from_db()
    assert delivery.last_status_code is None and "2 seconds" in delivery.last_error
    assert seen["atomic"] is False
    if connection.vendor == "postgresql":
        assert seen["open"] == 0


# --- a worker that died while posting ----------------------------------------------------------

class WorkerDied(BaseException):
    """What a killed worker leaves: nothing recorded after the post."""


@pytest.mark.django_db
def test_a_delivery_whose_worker_died_in_flight_is_retried_after_the_lease(receiver,
                                                                            monkeypatch):
    lg = make_league()
    delivery = _delivery(_hook(lg, receiver.url("/hook")))
    real_post = outbound.post

    def dies(url, body, headers):
        raise WorkerDied

    monkeypatch.setattr(outbound, "post", dies)
    with pytest.raises(WorkerDied):
        webhook_delivery_attempt(delivery_id=delivery.pk, now=T0)
    monkeypatch.setattr(outbound, "post", real_post)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.attempts == 1
    # in flight: neither the sweep nor another task sends it again before the lease ends
    soon = T0 + services.LEASE - timedelta(seconds=1)
    assert webhook_deliveries_retry(now=soon) == []
    assert webhook_delivery_attempt(delivery_id=delivery.pk, now=soon) is None
    assert receiver.received == []
    # after the lease: sent (the receiver drops the duplicate by the event id if one arrived)
    assert webhook_deliveries_retry(now=T0 + services.LEASE) == [delivery.pk]
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempts == 2
    assert [r.headers["X-Feldzug-Delivery"] for r in receiver.received] == ["closed:1"]
