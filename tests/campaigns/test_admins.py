"""Naming and removing campaign admins (nothing needs the Django admin):
by username or e-mail of an active account, never twice, never the last admin; each change
logged privately."""

import pytest
from django.utils import translation

from campaigns.errors import Conflict, DomainError
from campaigns.models import AdminAction
from campaigns.services import accounts
from campaigns.services import admins as services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_admin_named_by_username_or_email_and_logged_privately(league):
    helper = UserFactory(username="helga", email="helga@example.org")
    other = UserFactory(username="otto", email="otto@example.org")
    assert services.admin_add(campaign=league.campaign, by=league.admin,
                              account="helga") == helper
    services.admin_add(campaign=league.campaign, by=league.admin, account="OTTO@example.org")
    assert set(league.campaign.admins.all()) == {league.admin, helper, other}
    logged = AdminAction.objects.filter(campaign=league.campaign, kind="admin.add")
    assert sorted(logged.values_list("target", flat=True)) == ["helga", "otto"]
    assert not logged.filter(public=True).exists()
    assert logged.first().actor == league.admin


def test_naming_an_admin_twice_is_a_conflict(league):
    with pytest.raises(Conflict) as refused:
        services.admin_add(campaign=league.campaign, by=league.admin,
                           account=league.admin.username)
    assert refused.value.code == "already_admin" and refused.value.field == "account"
    assert not AdminAction.objects.filter(kind="admin.add").exists()


@pytest.mark.parametrize("account", ["nobody", "nobody@example.org", "", "   "])
def test_unknown_account_is_refused_on_the_account_field(league, account):
    with pytest.raises(DomainError) as refused:
        services.admin_add(campaign=league.campaign, by=league.admin, account=account)
    assert refused.value.status == 400 and refused.value.field == "account"
    assert list(league.campaign.admins.all()) == [league.admin]


def test_deleted_account_can_not_be_named(league):
    gone = UserFactory(username="gone", email="gone@example.org")
    accounts.account_delete(user=gone)
    gone.refresh_from_db()
    for account in (gone.username, "gone", "gone@example.org"):
        with pytest.raises(DomainError) as refused:
            services.admin_add(campaign=league.campaign, by=league.admin, account=account)
        assert refused.value.field == "account"
    assert list(league.campaign.admins.all()) == [league.admin]


def test_the_last_admin_is_never_removed(league):
    with pytest.raises(Conflict) as refused:
        services.admin_remove(campaign=league.campaign, by=league.admin, user=league.admin)
    assert refused.value.code == "last_admin"
    assert list(league.campaign.admins.all()) == [league.admin]
    assert not AdminAction.objects.filter(kind="admin.remove").exists()


def test_an_admin_removes_themselves_when_another_remains(league):
    helper = UserFactory(username="helga")
    services.admin_add(campaign=league.campaign, by=league.admin, account="helga")
    services.admin_remove(campaign=league.campaign, by=league.admin, user=league.admin)
    assert list(league.campaign.admins.all()) == [helper]
    entry = AdminAction.objects.get(kind="admin.remove")
    assert (entry.target, entry.actor, entry.public) == (league.admin.username, league.admin,
                                                         False)
    with pytest.raises(Conflict):  # now helga is the last one
        services.admin_remove(campaign=league.campaign, by=helper, user=helper)


def test_removing_someone_who_is_not_admin_is_refused(league):
    with pytest.raises(DomainError) as refused:
        services.admin_remove(campaign=league.campaign, by=league.admin, user=league.a.user)
    assert refused.value.code == "not_admin"


def test_account_deletion_refusal_points_to_the_members_tab(league):
    """The only admin is told where to name another (no longer "ask the site's
    administrator")."""
    with pytest.raises(Conflict) as refused:
        accounts.account_delete(user=league.admin)
    assert refused.value.code == "only_admin"
    assert "Members tab" in refused.value.message
    assert "site's administrator" not in refused.value.message
    with translation.override("de"), pytest.raises(Conflict) as german:
        accounts.account_delete(user=league.admin)
    assert "Reiter „Mitglieder“" in german.value.message
