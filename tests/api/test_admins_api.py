"""API: a campaign's admins (nothing needs the Django admin): list, name
by account, remove; campaign admins only (players 403, a hidden campaign 404); the last admin
stays (409 last_admin)."""

import pytest

from campaigns.models import AdminAction
from tests.factories import UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db


def test_admin_lists_names_and_removes_admins(league):
    UserFactory(username="helga", email="helga@example.org")
    client = api(league.admin)
    listed = client.get(league.url("admins/"))
    assert listed.status_code == 200
    assert [a["username"] for a in listed.json()] == [league.admin.username]
    named = client.post(league.url("admins/"), {"account": "helga@example.org"}, format="json")
    assert named.status_code == 201, named.content
    helga = named.json()
    assert helga["username"] == "helga" and set(helga) == {"id", "username", "display_name"}
    gone = client.delete(league.url(f"admins/{helga['id']}/"))
    assert gone.status_code == 204
    assert list(league.campaign.admins.all()) == [league.admin]
    assert list(AdminAction.objects.order_by("pk").values_list("kind", "public")) == [
        ("admin.add", False), ("admin.remove", False)]


def test_refusals_have_the_error_shape(league):
    client = api(league.admin)
    unknown = client.post(league.url("admins/"), {"account": "nobody"}, format="json")
    assert unknown.status_code == 400 and "account" in unknown.json()["errors"]
    missing = client.post(league.url("admins/"), {}, format="json")
    assert missing.status_code == 400 and "account" in missing.json()["errors"]
    twice = client.post(league.url("admins/"), {"account": league.admin.username},
                        format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "already_admin"
    last = client.delete(league.url(f"admins/{league.admin.pk}/"))
    assert last.status_code == 409 and last.json()["code"] == "last_admin"
    not_admin = client.delete(league.url(f"admins/{league.a.user.pk}/"))
    assert not_admin.status_code == 404
    assert list(league.campaign.admins.all()) == [league.admin]


def test_players_get_403_and_strangers_404(league, outsider):
    UserFactory(username="helga")
    player = api(league.a.user)
    assert player.get(league.url("admins/")).status_code == 403
    assert player.post(league.url("admins/"), {"account": "helga"},
                       format="json").status_code == 403
    assert player.delete(league.url(f"admins/{league.admin.pk}/")).status_code == 403
    stranger = api(outsider)
    assert stranger.get(league.url("admins/")).status_code == 404
    assert stranger.post(league.url("admins/"), {"account": "helga"},
                         format="json").status_code == 404
    assert list(league.campaign.admins.all()) == [league.admin]
