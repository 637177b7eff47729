"""The site's own address and switches, read from one place (the ``SiteSettings`` row, pk 1,
written only by ``campaigns.services.site``).

``site_url()`` is the address every absolute link starts with (mail, invitations, feeds,
webhooks, calendar addresses): the configured ``settings.SITE_URL`` when set, else the address
stored on the site settings page (typed by staff, or learned from staff's own requests), else
``DEFAULT_URL`` (``make run``). The stored row is kept in this process's memory for
``CACHE_SECONDS`` so most requests cost no query; a write forgets it at once in the writing
process, and other processes see it within that time."""

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import caches

from campaigns.models import SiteSettings

DEFAULT_URL = "http://127.0.0.1:8000"
CACHE_ALIAS = "local"  # this process's memory: no round trip to Redis (campaigns/cache.py)
CACHE_KEY = "site-settings"
CACHE_SECONDS = 30
ROW = 1
HOST_NAME = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$")


@dataclass(frozen=True)
class Stored:
    site_url: str = ""
    learned: bool = False  # the address came from a staff request and may be learned anew
    webhooks_allow_private: bool = False

    @property
    def may_learn(self) -> bool:
        """Staff's requests may set the address: nothing typed on the settings page."""
        return not self.site_url or self.learned


def read_stored() -> Stored:
    """The row as stored now (one query; the defaults while there is none)."""
    row = SiteSettings.objects.filter(pk=ROW).first()
    if row is None:
        return Stored()
    return Stored(row.site_url, row.site_url_learned, row.webhooks_allow_private)


def stored() -> Stored:
    """The row, from this process's memory when read in the last ``CACHE_SECONDS``."""
    store = caches[CACHE_ALIAS]
    value = store.get(CACHE_KEY)
    if not isinstance(value, Stored):
        value = read_stored()
        store.set(CACHE_KEY, value, CACHE_SECONDS)
    return value


def forget() -> None:
    """Drop the remembered row (after a write)."""
    caches[CACHE_ALIAS].delete(CACHE_KEY)


def configured_url() -> str:
    """The address from the server's configuration (``settings.SITE_URL``), or ""."""
    return (getattr(settings, "SITE_URL", "") or "").strip().rstrip("/")


def site_url() -> str:
    """The site's public address, without a trailing slash: configured, else stored, else
    the default."""
    return configured_url() or stored().site_url or DEFAULT_URL


def configured_webhooks_allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def webhooks_allow_private() -> bool:
    """Webhooks may post to private and loopback addresses: allowed by the configuration OR
    by the switch on the site settings page. Read fresh (one query): deliveries are rare and
    a switched setting must apply at once in every process."""
    return configured_webhooks_allow_private() or read_stored().webhooks_allow_private


def origin_of(url: str) -> str | None:
    """``url`` as ``scheme://host[:port]`` (lower case) when it is an http(s) address of a
    host with nothing after it (at most a "/"), else None."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if parts.username or parts.password or parts.path not in ("", "/") or parts.query \
            or parts.fragment or url.strip().endswith(("?", "#")):
        return None
    host = _host(parts.hostname)
    if host is None:
        return None
    return f"{parts.scheme.lower()}://{host}{f':{port}' if port else ''}"


def _host(name: str) -> str | None:
    """A host name (IDN as punycode) or IP address as it goes into a URL, or None."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        try:
            name = name.encode("idna").decode("ascii").lower()
        except UnicodeError:
            return None
        return name if len(name) <= 253 and HOST_NAME.match(name) else None
    return f"[{address.compressed}]" if address.version == 6 else address.compressed
