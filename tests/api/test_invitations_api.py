"""Invitations and join requests over the API: every step, including
expired, revoked, used-up and reused links, double accept, who may invite and who sees which
invitations."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from campaigns.models import Campaign, Invitation, JoinRequest, Player
from tests.factories import UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db


def _invitations(lg) -> str:
    return f"/api/v1/campaigns/{lg.campaign.pk}/invitations/"


def _link(lg, client=None, **body):
    response = (client or api(lg.admin)).post(_invitations(lg) + "links/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_admin_invites_by_email_and_lists(league, django_capture_on_commit_callbacks):
    client = api(league.admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_invitations(league), {
            "emails": "neu@example.org;\nzwei@example.org, neu@example.org",
            "faction": "Orks"}, format="json")
    assert response.status_code == 201, response.content
    created = response.json()["invitations"]
    assert [i["email"] for i in created] == ["neu@example.org", "zwei@example.org"]
    assert {i["state"] for i in created} == {"active"} and created[0]["faction"] == "Orks"
    assert "token" not in created[0]
    assert len(mail.outbox) == 2 and "/invite/" in mail.outbox[0].body
    listing = client.get(_invitations(league)).json()
    assert listing["count"] == 2


def test_bad_addresses_are_a_400_naming_them(league):
    response = api(league.admin).post(_invitations(league), {"emails": "ok@example.org, nope"},
                                      format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_email" and "nope" in body["errors"]["emails"][0]
    assert not Invitation.objects.exists()


def test_only_json_bodies(league):
    response = api(league.admin).post(_invitations(league), "emails=a%40example.org",
                                      content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


def test_non_admins_can_not_invite_nor_list(league, outsider):
    player = league.a.user
    for user, status in ((None, 401), (player, 403), (outsider, 404)):
        client = api(user)
        assert client.get(_invitations(league)).status_code == status
        assert client.post(_invitations(league), {"emails": "x@example.org"},
                           format="json").status_code == status
        assert client.post(_invitations(league) + "links/", {},
                           format="json").status_code == status
    assert not Invitation.objects.exists()


def test_link_accept_flow_and_double_accept(league):
    created = _link(league, max_uses=2, faction="", colour="")
    assert created["link"].endswith(f"/invite/{created['token']}/")
    assert created["link"].startswith("http")
    url = f"/api/v1/invitations/{created['token']}/"
    state = api().get(url).json()
    assert state == {"campaign": league.campaign.pk, "campaign_name": league.campaign.name,
                     "state": "active", "faction": "", "colour": "", "expires_at": None}
    assert api().post(url, {"faction": "Orks"}, format="json").status_code == 401
    newcomer = UserFactory(username="newcomer")
    client = api(newcomer)
    assert client.post(url, {}, format="json").status_code == 400  # faction needed
    first = client.post(url, {"faction": "Orks", "colour": "#00aa00"}, format="json")
    assert first.status_code == 200, first.content
    assert first.json()["username"] == "newcomer" and first.json()["faction"] == "Orks"
    second = client.post(url, {"faction": "Eldar"}, format="json")
    assert second.status_code == 200 and second.json() == first.json()
    assert Invitation.objects.get().uses == 1
    assert Player.objects.filter(user=newcomer).count() == 1
    assert not league.campaign.admins.filter(pk=newcomer.pk).exists()


def test_used_up_link_is_a_410_for_the_next_user(league):
    created = _link(league, max_uses=1)
    url = f"/api/v1/invitations/{created['token']}/"
    assert api(UserFactory(username="first")).post(url, {"faction": "Orks"},
                                                   format="json").status_code == 200
    late = api(UserFactory(username="late")).post(url, {"faction": "Orks"}, format="json")
    assert late.status_code == 410 and late.json()["code"] == "used_up"
    assert api().get(url).json()["state"] == "used_up"
    # the one who used it may click again: nothing changes
    assert api(Player.objects.get(user__username="first").user).post(
        url, {}, format="json").status_code == 200


def test_revoked_link_is_a_410_and_the_admin_revokes(league):
    created = _link(league)
    url = f"/api/v1/invitations/{created['token']}/"
    revoke = f"{_invitations(league)}{created['id']}/revoke/"
    assert api(league.a.user).post(revoke, {}, format="json").status_code == 403
    response = api(league.admin).post(revoke, {}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "revoked"
    refused = api(UserFactory(username="late")).post(url, {"faction": "Orks"}, format="json")
    assert refused.status_code == 410 and refused.json()["code"] == "revoked"
    assert "revoked" in refused.json()["detail"]


def test_expired_link_is_a_410(league):
    created = _link(league, expires_at=(timezone.now() + timedelta(hours=1)).isoformat())
    Invitation.objects.filter(pk=created["id"]).update(
        expires_at=timezone.now() - timedelta(minutes=1))
    url = f"/api/v1/invitations/{created['token']}/"
    assert api().get(url).json()["state"] == "expired"
    refused = api(UserFactory(username="late")).post(url, {"faction": "Orks"}, format="json")
    assert refused.status_code == 410 and refused.json()["code"] == "expired"


def test_an_expiry_in_the_past_is_refused(league):
    response = api(league.admin).post(_invitations(league) + "links/", {
        "expires_at": (timezone.now() - timedelta(hours=1)).isoformat()}, format="json")
    assert response.status_code == 400 and "expires_at" in response.json()["errors"]


def test_unknown_token_is_a_404(league):
    assert api().get("/api/v1/invitations/not-a-token/").status_code == 404
    response = api(UserFactory()).post("/api/v1/invitations/not-a-token/", {"faction": "X"},
                                       format="json")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_resend_email_invitation_gives_a_fresh_link(league, django_capture_on_commit_callbacks):
    client = api(league.admin)
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(_invitations(league), {"emails": "neu@example.org"},
                              format="json").json()["invitations"][0]
        resent = client.post(f"{_invitations(league)}{created['id']}/resend/", {},
                             format="json")
    assert resent.status_code == 200 and len(mail.outbox) == 2
    old, new = ([x for x in m.body.split() if "/invite/" in x][0] for m in mail.outbox)
    assert old != new
    old_token = old.rstrip("/").rsplit("/", 1)[-1]
    assert api().get(f"/api/v1/invitations/{old_token}/").status_code == 404
    link = _link(league)
    refused = client.post(f"{_invitations(league)}{link['id']}/resend/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "not_an_email_invitation"


def test_a_player_sees_only_invitations_to_their_own_address(league):
    api(league.admin).post(_invitations(league), {"emails": "anna@example.org, b@example.org"},
                           format="json")
    anna = league.a.user
    anna.email = "anna@example.org"
    anna.save()
    mine = api(anna).get("/api/v1/invitations/").json()
    assert [(row["campaign"], row["state"]) for row in mine] == [(league.campaign.pk, "active")]
    assert api(league.b.user).get("/api/v1/invitations/").json() == []
    assert api().get("/api/v1/invitations/").status_code == 401
    # and never another campaign's list
    assert api(anna).get(_invitations(league)).status_code == 403


def test_another_campaigns_invitation_is_not_found(league):
    from tests.worlds import make_league

    other = make_league(name="Other", admin="otheradmin", players=("zed",))
    created = _link(other, api(other.admin))
    response = api(league.admin).post(f"{_invitations(league)}{created['id']}/revoke/", {},
                                      format="json")
    assert response.status_code == 404


def test_invitation_endpoints_are_throttled(league, settings):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "invitations": "3/min"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        client = api(UserFactory(username="guesser"))
        answers = [client.post(f"/api/v1/invitations/guess{n}/", {"faction": "X"},
                               format="json").status_code for n in range(4)]
    assert answers == [404, 404, 404, 429]


# --- join requests ---------------------------------------------------------------------------

def _requests(lg) -> str:
    return f"/api/v1/campaigns/{lg.campaign.pk}/join-requests/"


def test_join_request_flow(league, django_capture_on_commit_callbacks):
    asker = UserFactory(username="asker", email="asker@example.org")
    client = api(asker)
    closed = client.post(_requests(league), {}, format="json")
    assert closed.status_code == 404  # private: not even visible
    patch = api(league.admin).patch(f"/api/v1/campaigns/{league.campaign.pk}/",
                                    {"visibility": "public", "join_requests_open": True},
                                    format="json")
    assert patch.status_code == 200 and patch.json()["join_requests_open"] is True
    league.admin.email = "orga@example.org"
    league.admin.save()
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(_requests(league), {"message": "Hallo"}, format="json")
    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    assert mail.outbox[-1].to == ["orga@example.org"]
    request_id = asked.json()["id"]
    # the asker sees their own request; another player sees none; the admin all
    assert [r["id"] for r in client.get(_requests(league)).json()["results"]] == [request_id]
    assert api(league.a.user).get(_requests(league)).json()["count"] == 0
    assert api(league.admin).get(_requests(league)).json()["count"] == 1
    accept = f"{_requests(league)}{request_id}/accept/"
    assert api(league.a.user).post(accept, {"faction": "Orks"},
                                   format="json").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        accepted = api(league.admin).post(accept, {"faction": "Orks", "colour": "#00aa00"},
                                          format="json")
    assert accepted.status_code == 200 and accepted.json()["username"] == "asker"
    assert mail.outbox[-1].to == ["asker@example.org"]
    again = api(league.admin).post(f"{_requests(league)}{request_id}/decline/", {},
                                   format="json")
    assert again.status_code == 409 and again.json()["code"] == "join_request_decided"
    assert JoinRequest.objects.get().status == "accepted"


def test_join_requests_closed_by_default_on_public_campaigns(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(visibility="public")
    response = api(UserFactory(username="asker")).post(_requests(league), {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "join_requests_closed"
    assert api().post(_requests(league), {}, format="json").status_code == 401
