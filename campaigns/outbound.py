"""Every outbound HTTP request to an address a user typed (webhooks today; web push endpoints
and Discord later call the same check): one parse, one check, and a connection to the very
address that was checked.

- ``checked_target(url)`` parses the URL once, with urllib3's ``parse_url`` (the parser the
  client uses: a backslash or ``@`` can never make the check see one host and the client
  another), accepts only a plain ``http(s)://host[:port]/path?query`` (no user name or
  password, no backslash, no fragment), resolves the name and refuses private, loopback,
  link-local, IPv4-mapped or -compatible and every other non-global address, unless the site
  allows them (``campaigns.site.webhooks_allow_private``: a bot on the club's own machine).
- ``post`` connects to ``Target.address`` (no second lookup between check and connect: DNS
  rebinding), while the Host header, the TLS server name and the certificate check name the
  host. One deadline, ``TOTAL_TIMEOUT``, covers connect, TLS, sending, the headers and the
  body: a watchdog shuts the socket down when it passes (a receiver dripping one byte a second
  never trips a per-read timeout).

[decision] Redirects are never followed (a 3xx is a failure naming the redirect), and no proxy
from the environment is used: either would reach a host nobody checked."""

import contextlib
import http.client
import ipaddress
import re
import socket
import threading
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

import requests.certs
import urllib3
from django.utils.translation import gettext as _
from urllib3.util import parse_url

from campaigns import site

CONNECT_TIMEOUT = 3
TOTAL_TIMEOUT = 10  # seconds for the whole exchange
MAX_ANSWER = 64 * 1024  # what is read of an answer (it is only logged)

_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)\Z")
_NUMERIC_LAST = re.compile(r"(0x[0-9a-f]*|[0-9]+)\Z")  # a name like this is an IPv4 form
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
IP = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """The URL may not be reached (its form, its host or its addresses)."""


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str  # the name: Host header, TLS server name, certificate
    port: int
    address: str  # the checked address, the one connected to
    path: str  # path and query, as sent in the request line


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no HTTP answer (refused, timeout, connection error)
    error: str = ""
    retry_after: int | None = None  # seconds, from a 429/503's Retry-After

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _not_plain() -> Refused:
    return Refused(_("Give a plain web address: http or https, a host name, an optional port "
                     "and path; no user name, password or backslash."))


def _parse(url: str) -> tuple[str, str, int, str, IP | None]:
    """(scheme, host, port, path, the host's address if it is one), or ``Refused``."""
    if not isinstance(url, str) or "\\" in url or any(c <= " " or c == "\x7f" for c in url):
        raise _not_plain()
    try:
        parts = parse_url(url)
    except ValueError as exc:  # urllib3's LocationParseError is one
        raise _not_plain() from exc
    if parts.scheme not in ("http", "https") or not parts.host:
        raise Refused(_("Only http and https addresses with a host name are allowed."))
    authority = re.split(r"[/?#]", url.partition("//")[2], maxsplit=1)[0]  # as parse_url's
    if "@" in authority or parts.fragment is not None or "%" in parts.host:
        raise _not_plain()
    port = parts.port if parts.port is not None else (443 if parts.scheme == "https" else 80)
    if not 0 < port < 65536:
        raise _not_plain()
    host = parts.host
    if host.startswith("["):
        try:
            literal = ipaddress.IPv6Address(host[1:-1])
        except ValueError as exc:
            raise _not_plain() from exc
        return parts.scheme, host[1:-1], port, parts.request_uri, literal
    labels = host.removesuffix(".").split(".")
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise _not_plain()
    if _NUMERIC_LAST.match(labels[-1]):
        # only the four plain decimals: 0177.0.0.1 or 2130706433 mean 127.0.0.1 to a resolver
        try:
            return parts.scheme, host, port, parts.request_uri, ipaddress.IPv4Address(host)
        except ValueError as exc:
            raise _not_plain() from exc
    return parts.scheme, host.removesuffix("."), port, parts.request_uri, None


def _is_public(address: IP) -> bool:
    """Global and unicast; an IPv6 address that carries an IPv4 one is judged by that one,
    and the IPv4-mapped and -compatible forms are refused outright (nobody needs them to
    reach a receiver, and some stacks connect them to the IPv4 address)."""
    if address.version == 6:
        if address.ipv4_mapped is not None or int(address) >> 32 == 0:
            return False
        inner = address.sixtofour or (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
                                      if address in _NAT64 else None)
        if inner is not None and not _is_public(inner):
            return False
    return address.is_global and not address.is_multicast


def checked_target(url: str) -> Target:
    """The one check of an outbound address (see the module docstring); ``Refused`` with a
    reason the organiser can read otherwise."""
    scheme, host, port, path, literal = _parse(url)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise Refused(_("The host name %(host)s was not found.") % {"host": host}) from exc
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
        if not addresses:
            raise Refused(_("The host name %(host)s was not found.") % {"host": host})
    if not site.webhooks_allow_private():
        for address in addresses:
            if not _is_public(address):
                raise Refused(_(
                    "%(host)s is an address on the local network or on this machine "
                    "(%(address)s). Such addresses are blocked for safety. A site "
                    "administrator can allow them on the site settings page.")
                    % {"host": host, "address": address})
    return Target(url, scheme, host, port, str(addresses[0]), path)


def check_url(url: str) -> None:
    """Raise ``Refused`` unless ``url`` passes ``checked_target``."""
    checked_target(url)


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


# --- the exchange --------------------------------------------------------------------------------

class _Watchdog:
    """Shuts the connection's socket down when the deadline passes, wherever the exchange is
    (connect, TLS handshake, sending, headers, body): the blocked call then returns at once.
    It holds a duplicate of the socket, so it also reaches a socket wrapped in TLS."""

    def __init__(self, seconds: float):
        self.fired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock.dup()
        if self.fired:
            self._fire()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self._sock is not None:
                with contextlib.suppress(OSError):  # already closed
                    self._sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


class _Pinned:
    """A urllib3 connection that connects to the checked address instead of resolving its
    host again; the host still names the Host header, SNI and the certificate check."""

    address: str
    watchdog: _Watchdog

    def _new_conn(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        self.watchdog.watch(sock)
        sock.settimeout(self.timeout)
        try:
            sock.connect((self.address, self.port))
        except BaseException:
            sock.close()
            raise
        return sock


class _PinnedHTTP(_Pinned, urllib3.connection.HTTPConnection):
    pass


class _PinnedHTTPS(_Pinned, urllib3.connection.HTTPSConnection):
    pass


def _exchange(target: Target, body: bytes, headers: dict, watchdog: _Watchdog,
              deadline: float) -> tuple[int, str | None]:
    """POST once over a new connection; (status, Retry-After)."""
    if target.scheme == "https":
        conn = _PinnedHTTPS(target.host, target.port, timeout=CONNECT_TIMEOUT,
                            cert_reqs="CERT_REQUIRED", ca_certs=requests.certs.where())
    else:
        conn = _PinnedHTTP(target.host, target.port, timeout=CONNECT_TIMEOUT)
    conn.address, conn.watchdog = target.address, watchdog
    try:
        conn.timeout = min(CONNECT_TIMEOUT, TOTAL_TIMEOUT)
        conn.connect()
        conn.timeout = max(deadline - time.monotonic(), 0.01)  # each read; the watchdog: all
        conn.request("POST", target.path, body=body, headers=headers, preload_content=False,
                     decode_content=False)
        answer = conn.getresponse()
        read = 0
        while read < MAX_ANSWER:
            chunk = answer.read(8192)
            if not chunk:
                break
            read += len(chunk)
        return answer.status, answer.headers.get("Retry-After")
    finally:
        conn.close()


def post(url: str, body: bytes, headers: dict) -> Answer:
    """POST ``body`` once to the checked address; never raises for the network's or the
    receiver's problems."""
    try:
        target = checked_target(url)
    except Refused as exc:
        return Answer(None, str(exc))
    deadline = time.monotonic() + TOTAL_TIMEOUT
    watchdog = _Watchdog(TOTAL_TIMEOUT)
    try:
        status, wait = _exchange(target, body, headers, watchdog, deadline)
    except (OSError, http.client.HTTPException, urllib3.exceptions.HTTPError) as exc:
        if watchdog.fired:
            return Answer(None, _("No complete answer within %(seconds)s seconds.")
                          % {"seconds": TOTAL_TIMEOUT})
        return Answer(None, f"{type(exc).__name__}: {exc}"[:300])
    finally:
        watchdog.close()
    if watchdog.fired:  # the answer ended early because the deadline cut it
        return Answer(None, _("No complete answer within %(seconds)s seconds.")
                      % {"seconds": TOTAL_TIMEOUT})
    if 300 <= status < 400:
        return Answer(status, "Redirect refused: webhooks follow no redirects.")
    if not 200 <= status < 300:
        return Answer(status, f"HTTP {status}", retry_after(wait, time.time()))
    return Answer(status)
