"""The Admins section of the members page (nothing needs the Django
admin): list, name and remove campaign admins, in English and German; refusals come back as
form errors, never a 500."""

import pytest
from django.urls import reverse

from campaigns.models import AdminAction
from tests.factories import UserFactory
from tests.worlds import client_for

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _members(lg) -> str:
    return reverse("campaigns:manage-members", args=[lg.campaign.pk])


def _add(lg) -> str:
    return reverse("campaigns:manage-admin-add", args=[lg.campaign.pk])


def _remove(lg, user) -> str:
    return reverse("campaigns:manage-admin-remove", args=[lg.campaign.pk, user.pk])


def test_admins_are_listed_and_one_is_named_from_the_page(league):
    UserFactory(username="helga", email="helga@example.org")
    client = client_for(league.admin)
    html = client.get(_members(league)).content.decode()
    assert 'id="admins"' in html and "Name an admin" in html
    assert f'id="admin-{league.admin.pk}"' in html and league.admin.username in html
    assert "Remove as admin" not in html  # the only admin has no remove button
    response = client.post(_add(league), {"account": "helga@example.org"}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and "helga is now an admin of the campaign." in html
    assert "Remove as admin" in html
    assert league.campaign.admins.filter(username="helga").exists()


@pytest.mark.parametrize(("account", "status", "message"), [
    ("nobody", 400, "No account with this username or e-mail address."),
    ("", 400, "This field is required."),
])
def test_a_bad_account_comes_back_next_to_the_field(league, account, status, message):
    response = client_for(league.admin).post(_add(league), {"account": account})
    assert response.status_code == status
    assert message in response.content.decode()
    assert league.campaign.admins.count() == 1


def test_naming_an_admin_twice_is_a_409_form_error(league):
    response = client_for(league.admin).post(_add(league), {"account": league.admin.username})
    assert response.status_code == 409
    assert "already an admin of the campaign" in response.content.decode()


def test_remove_an_admin_with_the_confirm_field(league):
    helper = UserFactory(username="helga")
    league.campaign.admins.add(helper)
    client = client_for(league.admin)
    assert client.post(_remove(league, helper), {}).status_code == 400  # no confirm field
    assert league.campaign.admins.filter(pk=helper.pk).exists()
    response = client.post(_remove(league, helper), {f"admin{helper.pk}-admin": helper.pk},
                           follow=True)
    assert "is no longer an admin of the campaign." in response.content.decode()
    assert list(league.campaign.admins.all()) == [league.admin]
    assert AdminAction.objects.get(kind="admin.remove").target == "helga"


def test_the_last_admin_can_not_remove_themselves(league):
    response = client_for(league.admin).post(
        _remove(league, league.admin), {f"admin{league.admin.pk}-admin": league.admin.pk})
    assert response.status_code == 409
    assert "keeps at least one admin" in response.content.decode()
    assert list(league.campaign.admins.all()) == [league.admin]


def test_players_and_strangers_can_not_name_admins(league, outsider):
    UserFactory(username="helga")
    assert client_for(league.a.user).post(_add(league), {"account": "helga"}).status_code == 403
    assert client_for(outsider).post(_add(league), {"account": "helga"}).status_code == 404
    assert client_for(league.admin).post(_remove(league, league.a.user), {}).status_code == 404
    assert league.campaign.admins.count() == 1


def test_admins_section_in_german(league):
    client = client_for(league.admin)
    html = client.get(_members(league), **DE).content.decode()
    assert "Admin benennen" in html and "mindestens einen Admin" in html
    response = client.post(_add(league), {"account": "niemand"}, **DE)
    assert response.status_code == 400
    assert "Kein Konto mit diesem Benutzernamen" in response.content.decode()


def test_corrections_log_labels_admin_changes():
    from django.utils import translation

    from web.presenters.admin_log import kind_label
    with translation.override("en"):
        assert kind_label("admin.add") == "Admin named"
    with translation.override("de"):
        assert kind_label("admin.remove") == "Admin entfernt"


def test_an_admin_removes_themselves_and_lands_on_the_campaign(league):
    helper = UserFactory(username="helga")
    league.campaign.admins.add(helper)
    response = client_for(league.admin).post(
        _remove(league, league.admin), {f"admin{league.admin.pk}-admin": league.admin.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[league.campaign.pk])
    assert list(league.campaign.admins.all()) == [helper]
