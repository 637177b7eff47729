"""Naming and removing a campaign's admins ("nothing needs the Django
admin"). A campaign always keeps at least one admin; the campaign row is locked, so two
concurrent removals can not take away the last two. Each change is logged privately
(``admin_log``). Pages and the API call these same functions."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, DomainError
from campaigns.models import Campaign
from campaigns.services import admin_log
from campaigns.services.players import find_account


def _locked(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _account(account):
    """An active account by username or e-mail address, with a refusal that fits admins."""
    try:
        return find_account(account)
    except DomainError as exc:
        if exc.code != "no_such_account":
            raise
        raise DomainError(_("No account with this username or e-mail address. An admin needs "
                            "an account of this site first."),
                          code="no_such_account", field="account") from None


@transaction.atomic
def admin_add(*, campaign: Campaign, by, account):
    """Name an existing active account (username or e-mail address) an admin of the
    campaign; returns the user."""
    user = _account(account)
    campaign = _locked(campaign)
    if campaign.admins.filter(pk=user.pk).exists():
        raise Conflict(_("This account is already an admin of the campaign."),
                       code="already_admin", field="account")
    campaign.admins.add(user)
    admin_log.record(campaign=campaign, actor=by, kind="admin.add", target=user.username,
                     public=False)
    return user


@transaction.atomic
def admin_remove(*, campaign: Campaign, by, user) -> None:
    """Remove an admin (an admin may remove themselves); the last admin stays."""
    campaign = _locked(campaign)
    admins = campaign.admins.all()
    if not admins.filter(pk=user.pk).exists():
        raise DomainError(_("This account is not an admin of the campaign."),
                          code="not_admin", field="user")
    if admins.count() <= 1:
        raise Conflict(_("A campaign keeps at least one admin: name another admin first."),
                       code="last_admin", field="user")
    campaign.admins.remove(user)
    admin_log.record(campaign=campaign, actor=by, kind="admin.remove", target=user.username,
                     public=False)
