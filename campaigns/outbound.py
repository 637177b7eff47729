"""One outbound POST for a webhook (issue 20 point 3): short timeouts, no redirects at all,
and no private, loopback, link-local or otherwise internal address after DNS resolution unless
the site allows them (``campaigns.site.webhooks_allow_private``: the server's configuration or
the switch on the site settings page; a bot on the club's own machine).

[decision] Redirects are never followed (a 3xx is a failure naming the redirect): the simplest
way to never reach another host. The address check runs on every address the name resolves
to; a name rebound between the check and the connection is a remaining, documented gap."""

import ipaddress
import socket
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests
from django.utils.translation import gettext as _

from campaigns import site

CONNECT_TIMEOUT = 3
TOTAL_TIMEOUT = 10
MAX_ANSWER = 64 * 1024  # what is read of an answer (it is only logged)


class Refused(Exception):
    """The URL may not be reached (scheme, address)."""


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no HTTP answer (refused, timeout, connection error)
    error: str = ""
    retry_after: int | None = None  # seconds, from a 429/503's Retry-After

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def check_url(url: str) -> None:
    """Raise ``Refused`` unless ``url`` is http(s) to a host whose every address is public."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(_("Only http and https addresses with a host name are allowed."))
    if site.webhooks_allow_private():
        return
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(_("The host name %(host)s was not found.") % {"host": parts.hostname}) \
            from exc
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if not address.is_global or address.is_multicast:
            raise Refused(_(
                "%(host)s is an address on the local network or on this machine (%(address)s). "
                "Such addresses are blocked for safety. A site administrator can allow them on "
                "the site settings page.") % {"host": parts.hostname, "address": address})


def retry_after(value: str | None, now: float) -> int | None:
    """Retry-After as seconds: a number, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        return max(0, int(parsedate_to_datetime(value).timestamp() - now))
    except (TypeError, ValueError):
        return None


def post(url: str, body: bytes, headers: dict) -> Answer:
    """POST ``body`` once; never raises for the network's or the receiver's problems."""
    try:
        check_url(url)
    except Refused as exc:
        return Answer(None, str(exc))
    started = time.monotonic()
    try:
        with requests.post(url, data=body, headers=headers, allow_redirects=False, stream=True,
                           timeout=(CONNECT_TIMEOUT, TOTAL_TIMEOUT - CONNECT_TIMEOUT)) as answer:
            read = 0
            for chunk in answer.iter_content(8192):
                read += len(chunk)
                if read >= MAX_ANSWER or time.monotonic() - started > TOTAL_TIMEOUT:
                    break
            status = answer.status_code
            wait = retry_after(answer.headers.get("Retry-After"), time.time())
    except requests.RequestException as exc:
        return Answer(None, f"{type(exc).__name__}: {exc}"[:300])
    if 300 <= status < 400:
        return Answer(status, "Redirect refused: webhooks follow no redirects.")
    if not 200 <= status < 300:
        return Answer(status, f"HTTP {status}", wait)
    return Answer(status)
