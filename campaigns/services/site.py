"""Writes of the site's own settings (``SiteSettings``, one row; read through
``campaigns.site``): staff edit them on the site settings page and through the API, and the
site learns its public address from staff's own requests while none is typed in."""

import logging

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns import site
from campaigns.errors import DomainError
from campaigns.models import SiteSettings

log = logging.getLogger(__name__)
EDITABLE = ("site_url", "webhooks_allow_private")


def is_staff(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_staff or user.is_superuser))


def _row() -> SiteSettings:
    """The row, locked (made on first use)."""
    SiteSettings.objects.get_or_create(pk=site.ROW)
    return SiteSettings.objects.select_for_update().get(pk=site.ROW)


def _shown(row: SiteSettings) -> dict:
    return {"site_url": row.site_url, "site_url_learned": row.site_url_learned,
            "webhooks_allow_private": row.webhooks_allow_private}


def _clean(values: dict) -> dict:
    unknown = sorted(set(values) - set(EDITABLE))
    if unknown:
        raise DomainError(_("This setting does not exist."), field=unknown[0])
    clean = {}
    if "site_url" in values:
        typed = values["site_url"]
        if not isinstance(typed, str):
            raise DomainError(_("Give the address as text."), field="site_url")
        origin = site.origin_of(typed) if typed.strip() else ""
        if origin is None:
            raise DomainError(
                _("Give the address as http:// or https:// with the host name and, if needed, "
                  "the port, without a path: for example https://feldzug.example.org."),
                field="site_url")
        clean["site_url"] = origin
    if "webhooks_allow_private" in values:
        if not isinstance(values["webhooks_allow_private"], bool):
            raise DomainError(_("Say true or false."), field="webhooks_allow_private")
        clean["webhooks_allow_private"] = values["webhooks_allow_private"]
    return clean


@transaction.atomic
def site_settings_update(*, by, values: dict) -> SiteSettings:
    """Staff change the settings. A typed address stops learning; an empty one clears it, and
    the site learns from staff's requests again."""
    if not is_staff(by):
        raise PermissionDenied(_("Only staff change the site's settings."))
    clean = _clean(values)
    row = _row()
    before = _shown(row)
    if "site_url" in clean:
        row.site_url = clean["site_url"]
        row.site_url_learned = False
    if "webhooks_allow_private" in clean:
        row.webhooks_allow_private = clean["webhooks_allow_private"]
    row.save()
    log.info("site settings changed by %s: %s -> %s", by.get_username(), before, _shown(row))
    transaction.on_commit(site.forget)
    site.forget()
    return row


@transaction.atomic
def site_url_learn(*, url: str) -> bool:
    """Store ``url`` (a staff request's ``scheme://host[:port]``) as the site's address,
    unless one is typed in or it is already stored. True when it changed."""
    origin = site.origin_of(url)
    if origin is None:
        return False
    row = _row()
    if (row.site_url and not row.site_url_learned) or row.site_url == origin:
        site.forget()  # what this process remembered was stale
        return False
    before = row.site_url
    row.site_url, row.site_url_learned = origin, True
    row.save(update_fields=["site_url", "site_url_learned", "updated_at"])
    log.info("site address learned from a staff request: %r -> %r", before, origin)
    transaction.on_commit(site.forget)
    site.forget()
    return True
