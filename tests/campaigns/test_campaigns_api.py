"""Campaigns and players through the API (API.md "Campaigns, map, standings"; R-SEC, R-ECO-1,
R-MRK-1, Ruleset keys)."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign, MarkerType, Player, Round
from campaigns.services.campaigns import campaign_create, campaign_update, player_add
from rules.ruleset import defaults
from tests.factories import CampaignFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/campaigns/"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def staff():
    return UserFactory(username="orga", is_staff=True)


@pytest.fixture
def league(staff):
    """A private campaign administered by ``staff`` with two players."""
    campaign = campaign_create(creator=staff, name="Sector Gothicus")
    alice = player_add(campaign=campaign, user=UserFactory(username="alice"), faction="Orks",
                       colour="#00aa00")
    bob = player_add(campaign=campaign, username=UserFactory(username="bob").username,
                     faction="Eldar", colour="#0000AA")
    return campaign, alice, bob


def _round(campaign, number, phase="declare"):
    return Round.objects.create(campaign=campaign, number=number, phase=phase,
                                server_seed=bytes(32), seed_commitment="0" * 64)


# --- create ---

def test_staff_creates_a_campaign_and_administers_it(staff):
    response = api(staff).post(URL, {"name": "Armageddon", "visibility": "public",
                                     "ruleset": {"income_base": 3}}, format="json")
    assert response.status_code == 201
    body = response.json()
    campaign = Campaign.objects.get(pk=body["id"])
    assert campaign.admins.filter(pk=staff.pk).exists()
    assert body["name"] == "Armageddon" and body["visibility"] == "public"
    assert body["status"] == "setup" and body["current_round"] is None
    assert body["ruleset"] == {**defaults(), "income_base": 3}  # stored normalized
    assert campaign.ruleset == body["ruleset"]


def test_r_mrk_1_new_campaign_has_the_default_marker_types(staff):
    campaign = campaign_create(creator=staff, name="C")
    types = {t.code: (t.army_points_bonus, t.conquest_modifier, t.radius)
             for t in MarkerType.objects.filter(campaign=campaign)}
    assert types == {"manufactorum": (50, 0, 0), "shield_generator": (0, -1, 1)}


def test_create_defaults_to_private_with_the_default_ruleset(staff):
    body = api(staff).post(URL, {"name": "Quiet"}, format="json").json()
    assert body["visibility"] == "private" and body["ruleset"] == defaults()


def test_only_staff_create_campaigns():
    assert api().post(URL, {"name": "x"}, format="json").status_code == 401
    response = api(UserFactory()).post(URL, {"name": "x"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(("ruleset", "key"), [
    ({"phase_hours": {"declare": 0}}, "ruleset.phase_hours.declare"),
    ({"phase_hours": {"lunch": 1}}, "ruleset.phase_hours.lunch"),
    ({"starting_requisition": True}, "ruleset.starting_requisition"),
    ({"bonus_scope": "galaxy"}, "ruleset.bonus_scope"),
    ({"no_such_key": 1}, "ruleset.no_such_key"),
    ({"base_army_points": 10**30}, "ruleset.base_army_points"),
])
def test_ruleset_errors_name_the_key(staff, ruleset, key):
    response = api(staff).post(URL, {"name": "x", "ruleset": ruleset}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert list(body["errors"]) == [key]
    assert body["detail"] and body["code"]
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("body", [
    {}, {"name": ""}, {"name": "x" * 121}, {"name": 5, "visibility": "secret"},
    {"name": "Two\nlines"}, {"name": "Carriage\rreturn"},
    {"name": "x", "ruleset": [1, 2]}, {"name": "x", "ruleset": "strict"}, [], "name",
])
def test_create_rejects_bad_input_with_400(staff, body):
    response = api(staff).post(URL, body, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"detail", "code", "errors"}


def test_a_campaign_name_is_one_line_on_create_and_rename(staff, league):
    response = api(staff).post(URL, {"name": "Liga\nNord"}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["name"]
    campaign = league[0]
    url = f"{URL}{campaign.pk}/"
    assert api(staff).patch(url, {"name": "A\r\nB"}, format="json").status_code == 400
    campaign.refresh_from_db()
    assert "\n" not in campaign.name


def test_malformed_and_deeply_nested_json_are_400(staff):
    client = api(staff)
    assert client.post(URL, "{not json", content_type="application/json").status_code == 400
    deep = '{"name": "x", "ruleset": ' + "[" * 50_000 + "]" * 50_000 + "}"
    assert client.post(URL, deep, content_type="application/json").status_code == 400


# --- list and detail ---

def test_list_shows_public_campaigns_and_own_memberships(league):
    campaign, alice, _ = league
    public = CampaignFactory(visibility="public", name="Open league")
    CampaignFactory(visibility="private", name="Someone else's")
    names = lambda client: {c["name"] for c in client.get(URL).json()["results"]}  # noqa: E731
    assert names(api()) == {"Open league"}
    assert names(api(UserFactory())) == {"Open league"}
    assert names(api(alice.user)) == {"Open league", campaign.name}
    assert names(api(campaign.admins.get())) == {"Open league", campaign.name}
    body = api().get(URL).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 1 and body["results"][0]["id"] == public.pk


def test_list_is_paginated():
    CampaignFactory.create_batch(3, visibility="public")
    body = api().get(URL, {"page_size": 2}).json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert len(api().get(body["next"]).json()["results"]) == 1
    assert api().get(URL, {"page": 99}).status_code == 404


def test_detail_shows_the_current_round(league):
    campaign, alice, _ = league
    _round(campaign, 1, "closed")
    latest = _round(campaign, 2, "lists")
    body = api(alice.user).get(f"{URL}{campaign.pk}/").json()
    assert set(body) == {"id", "name", "visibility", "status", "current_round", "ruleset",
                         "join_requests_open", "time_zone",  # the campaign's zone
                         "language",  # for readers the site does not know
                         "paused", "paused_at", "pause_reason",
                         } | ({"is_sandbox", "sandbox_of"} & set(body))
    assert body["current_round"] == {"number": 2, "phase": "lists", "phase_deadline": None}
    assert body["ruleset"] == defaults()
    listed = api(alice.user).get(URL).json()["results"][0]
    assert listed["current_round"]["number"] == latest.number


def test_private_campaign_is_404_for_outsiders(league):
    campaign, *_ = league
    for client in (api(), api(UserFactory())):
        response = client.get(f"{URL}{campaign.pk}/")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert api().get(f"{URL}999999/").status_code == 404
    assert api().get(f"{URL}{2**70}/").status_code == 404


def test_public_campaign_is_readable_anonymously(league):
    campaign, *_ = league
    campaign_update(campaign=campaign, visibility="public")
    assert api().get(f"{URL}{campaign.pk}/").json()["visibility"] == "public"


# --- patch ---

def test_admin_edits_name_visibility_and_ruleset(league):
    campaign, *_ = league
    admin = campaign.admins.get()
    url = f"{URL}{campaign.pk}/"
    response = api(admin).patch(url, {"name": "Renamed", "visibility": "public",
                                      "ruleset": {"phase_hours": {"declare": 24}}},
                                format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Renamed" and body["visibility"] == "public"
    assert body["ruleset"]["phase_hours"] == {"declare": 24, "lists": 24, "battles": 72,
                                              "conquest": 24}
    # A later PATCH merges: the earlier change stays.
    body = api(admin).patch(url, {"ruleset": {"income_base": 5}}, format="json").json()
    assert body["ruleset"]["phase_hours"]["declare"] == 24
    assert body["ruleset"]["income_base"] == 5
    campaign.refresh_from_db()
    assert campaign.ruleset == body["ruleset"]


def test_patch_ruleset_error_names_the_key_and_changes_nothing(league):
    campaign, *_ = league
    admin = campaign.admins.get()
    response = api(admin).patch(f"{URL}{campaign.pk}/",
                                {"name": "New", "ruleset": {"phase_hours": {"declare": 721}}},
                                format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["ruleset.phase_hours.declare"]
    campaign.refresh_from_db()
    assert campaign.name == "Sector Gothicus" and campaign.ruleset == defaults()


def test_patch_permissions(league):
    campaign, alice, _ = league
    url = f"{URL}{campaign.pk}/"
    assert api().patch(url, {"name": "x"}, format="json").status_code == 401
    assert api(UserFactory()).patch(url, {"name": "x"}, format="json").status_code == 404
    assert api(alice.user).patch(url, {"name": "x"}, format="json").status_code == 403
    campaign_update(campaign=campaign, visibility="public")
    assert api(UserFactory()).patch(url, {"name": "x"}, format="json").status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "Sector Gothicus"


# --- players ---

def test_r_eco_1_admin_adds_players_with_the_starting_requisition(league):
    campaign, *_ = league
    admin = campaign.admins.get()
    api(admin).patch(f"{URL}{campaign.pk}/", {"ruleset": {"starting_requisition": 7}},
                     format="json")
    carol = UserFactory(username="carol")
    response = api(admin).post(f"{URL}{campaign.pk}/players/",
                               {"user": carol.pk, "faction": "Necrons", "colour": "#A0B0C0"},
                               format="json")
    assert response.status_code == 201
    assert response.json() == {"id": response.json()["id"], "username": "carol",
                               "display_name": "",  # the holder's own name
                               "faction": "Necrons", "colour": "#a0b0c0", "requisition": 7}
    dave = UserFactory(username="dave")
    response = api(admin).post(f"{URL}{campaign.pk}/players/",
                               {"username": "dave", "faction": "Tau"}, format="json")
    assert response.status_code == 201
    assert Player.objects.get(campaign=campaign, user=dave).requisition == 7


@pytest.mark.parametrize(("body", "field"), [
    ({"username": "alice", "faction": "Orks"}, "username"),  # joins once
    ({"username": "nobody", "faction": "Orks"}, "username"),
    ({"user": 10**9, "faction": "Orks"}, "user"),
    ({"user": 10**30, "faction": "Orks"}, "user"),
    ({"user": "abc", "faction": "Orks"}, "user"),
    ({"faction": "Orks"}, "user"),
    ({"username": "zed", "user": 1, "faction": "Orks"}, "user"),
    ({"username": "zed", "faction": "Orks", "colour": "red"}, "colour"),
    ({"username": "zed", "faction": "Orks", "colour": "#12345g"}, "colour"),
    ({"username": "zed", "faction": ""}, "faction"),
    ({"username": "zed"}, "faction"),
])
def test_player_add_rejects_bad_input(league, body, field):
    campaign, *_ = league
    UserFactory(username="zed")
    response = api(campaign.admins.get()).post(f"{URL}{campaign.pk}/players/", body,
                                               format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert Player.objects.filter(campaign=campaign).count() == 2


def test_player_add_permissions(league):
    campaign, alice, _ = league
    url = f"{URL}{campaign.pk}/players/"
    body = {"username": UserFactory().username, "faction": "Orks"}
    assert api().post(url, body, format="json").status_code == 401
    assert api(UserFactory()).post(url, body, format="json").status_code == 404
    assert api(alice.user).post(url, body, format="json").status_code == 403


def test_requisition_shows_on_own_row_and_to_the_admin_only(league):
    campaign, alice, bob = league
    Player.objects.filter(pk=alice.pk).update(requisition=4)
    url = f"{URL}{campaign.pk}/players/"

    def requisitions(user):
        rows = api(user).get(url).json()["results"]
        return {row["username"]: row["requisition"] for row in rows}

    assert requisitions(alice.user) == {"alice": 4, "bob": None}
    assert requisitions(bob.user) == {"alice": None, "bob": 1}
    assert requisitions(campaign.admins.get()) == {"alice": 4, "bob": 1}
    assert api(UserFactory()).get(url).status_code == 404
    campaign_update(campaign=campaign, visibility="public")
    assert requisitions(None) == {"alice": None, "bob": None}
    row = api().get(url).json()["results"][0]
    assert set(row) == {"id", "username", "display_name", "faction", "colour", "requisition"}


def test_a_user_plays_once_per_campaign_but_in_several_campaigns(league, staff):
    campaign, alice, _ = league
    other = campaign_create(creator=staff, name="Other")
    assert player_add(campaign=other, user=alice.user, faction="Orks").campaign == other
    assert PlayerFactory(campaign=campaign).campaign == campaign


# --- Django admin ---

def test_admin_pages_render_and_never_show_the_round_seed(league, client):
    campaign, alice, _ = league
    secret = bytes(range(32))
    rnd = Round.objects.create(campaign=campaign, number=1, server_seed=secret,
                               seed_commitment="c" * 64)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    for path in ("campaigns/campaign", "campaigns/player", "campaigns/tile",
                 "campaigns/round", "campaigns/markertype", "fleets/area", "fleets/fleet",
                 "fleets/ship"):
        assert client.get(f"/admin/{path}/").status_code == 200, path
    for url in (f"/admin/campaigns/round/{rnd.pk}/change/", "/admin/campaigns/round/",
                f"/admin/campaigns/campaign/{campaign.pk}/change/"):
        page = client.get(url).content.decode()
        assert "server_seed" not in page and secret.hex() not in page
