"""API: managing players: the player detail with its holders, PATCH and
DELETE by the campaign admin, POST .../replace/ by account or seat invitation; a player can
neither edit nor replace others; the old holder loses the campaign, the new one acts at once."""

import re

import pytest
from django.core import mail

from campaigns.models import Invitation, Player
from campaigns.services.accounts import profile_update
from tests.factories import UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db


def _url(lg, player, rest: str = "") -> str:
    return lg.url(f"players/{player.pk}/{rest}")


def test_detail_lists_the_holders(page_world):
    lg = page_world.lg
    body = api(lg.b.user).get(_url(lg, lg.a)).json()
    assert body["username"] == "anna" and body["faction"] == "Mechanicus"
    assert body["requisition"] is None  # another seat's requisition stays hidden
    assert [(h["username"], h["until"]) for h in body["holders"]] == [("anna", None)]


def test_admin_edits_faction_and_colour(league):
    response = api(league.admin).patch(_url(league, league.a),
                                       {"faction": "Tau", "colour": "#00FF00"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["faction"], response.json()["colour"]) == ("Tau", "#00ff00")


def test_a_bad_colour_is_a_400_naming_the_field(league):
    response = api(league.admin).patch(_url(league, league.a), {"colour": "green"},
                                       format="json")
    assert response.status_code == 400
    assert "colour" in response.json()["errors"]


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_a_player_cannot_edit_or_remove_a_seat_not_even_their_own(league, method):
    for seat in (league.a, league.b):
        response = getattr(api(league.a.user), method)(_url(league, seat),
                                                       {"faction": "Mine"}, format="json")
        assert response.status_code == 403
    assert Player.objects.get(pk=league.b.pk).faction != "Mine"


def test_remove_before_the_start_then_refused_once_running(league, page_world):
    assert api(league.admin).delete(_url(league, league.a)).status_code == 204
    assert not Player.objects.filter(pk=league.a.pk).exists()
    lg = page_world.lg
    response = api(lg.admin).delete(_url(lg, lg.a))
    assert response.status_code == 409 and response.json()["code"] == "campaign_started"


def test_replace_by_account_then_the_new_holder_acts_and_the_old_one_is_out(page_world):
    """The seat passes at once: the new holder buys in the current (declare) phase, the old
    holder no longer sees the private campaign (404) and cannot act for the seat."""
    lg = page_world.lg
    nina = UserFactory(username="nina")
    profile_update(user=nina, display_name="Nina")
    response = api(lg.admin).post(_url(lg, lg.a, "replace/"), {"account": "nina"},
                                  format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["username"], body["display_name"]) == ("nina", "Nina")
    assert [h["username"] for h in body["holders"]][-1] == "nina"
    assert body["holders"][-1]["until"] is None and body["holders"][-1]["round_number"] == 1

    bought = api(nina).post(lg.url("rounds/1/purchases/"), {"attack_armies": 1},
                            format="json")
    assert bought.status_code == 201, bought.content
    anna = lg.a.user
    assert api(anna).get(lg.url("")).status_code == 404
    assert api(anna).post(lg.url("rounds/1/purchases/"), {"attack_armies": 1},
                          format="json").status_code == 404
    standings = api(nina).get(lg.url("standings/")).json()["rows"]
    mine = next(row for row in standings if row["player"] == lg.a.pk)
    assert (mine["username"], mine["display_name"]) == ("nina", "Nina")


def test_replace_by_email_mails_a_seat_invitation_accepted_over_the_api(
        page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    with django_capture_on_commit_callbacks(execute=True):
        response = api(lg.admin).post(_url(lg, lg.a, "replace/"),
                                      {"email": "nina@example.org"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["invitation"]["seat"] == lg.a.pk
    token = re.search(r"/invite/([\w-]+)/", mail.outbox[-1].body)[1]
    nina = UserFactory(username="nina", email="nina@example.org")
    accepted = api(nina).post(f"/api/v1/invitations/{token}/", {}, format="json")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["id"] == lg.a.pk
    assert Player.objects.get(pk=lg.a.pk).user == nina
    assert not lg.campaign.admins.filter(pk=nina.pk).exists()  # never admin rights
    again = api(nina).post(f"/api/v1/invitations/{token}/", {}, format="json")
    assert again.status_code == 200 and again.json()["id"] == lg.a.pk


@pytest.mark.parametrize("body", [{}, {"account": "nina", "email": "n@example.org"},
                                  {"email": "not an address"}])
def test_replace_needs_exactly_one_of_account_or_email(page_world, body):
    lg = page_world.lg
    response = api(lg.admin).post(_url(lg, lg.a, "replace/"), body, format="json")
    assert response.status_code == 400
    assert not Invitation.objects.exists()


def test_replace_refusals_name_the_account(page_world):
    lg = page_world.lg
    unknown = api(lg.admin).post(_url(lg, lg.a, "replace/"), {"account": "nobody"},
                                 format="json")
    assert unknown.status_code == 400 and "account" in unknown.json()["errors"]
    playing = api(lg.admin).post(_url(lg, lg.a, "replace/"), {"account": "ben"},
                                 format="json")
    assert playing.status_code == 409 and playing.json()["code"] == "already_player"


def test_a_player_cannot_replace_anyone(page_world):
    lg = page_world.lg
    UserFactory(username="nina")
    for seat in (lg.a, lg.b):
        response = api(lg.a.user).post(_url(lg, seat, "replace/"), {"account": "nina"},
                                       format="json")
        assert response.status_code == 403
    assert Player.objects.get(pk=lg.b.pk).user.username == "ben"


def test_another_campaigns_seat_is_not_found(league, page_world):
    lg = page_world.lg
    response = api(lg.admin).patch(lg.url(f"players/{league.a.pk}/"), {"faction": "X"},
                                   format="json")
    assert response.status_code == 404

