"""Members pages: the admin's invitations and join requests, the
invitation page behind a link (anonymous, logged in, unusable), asking to join; English and
German."""


import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Campaign, Invitation, JoinRequest, Player
from campaigns.services import invitations as services
from campaigns.site import site_url
from tests.factories import UserFactory
from tests.worlds import client_for, unusable_invitation

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _members(lg) -> str:
    return reverse("campaigns:manage-members", args=[lg.campaign.pk])


def test_members_page_is_for_the_admin_only(league, outsider):
    assert client_for(league.admin).get(_members(league)).status_code == 200
    assert client_for(league.a.user).get(_members(league)).status_code == 403
    assert client_for(outsider).get(_members(league)).status_code == 404
    hidden = client_for().get(_members(league))  # private: to the login page, as if missing
    assert hidden.status_code == 302 and hidden["Location"].startswith("/accounts/login/?next=")


def test_admin_invites_by_email_from_the_page(league, django_capture_on_commit_callbacks):
    client = client_for(league.admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("campaigns:manage-invite", args=[league.campaign.pk]),
                               {"emails": "neu@example.org\nzwei@example.org; neu@example.org",
                                "faction": "", "colour": "", "expires_at": ""}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Invitations sent: 2." in html and "neu@example.org" in html
    assert sorted(m.to[0] for m in mail.outbox) == ["neu@example.org", "zwei@example.org"]


def test_a_bad_address_comes_back_next_to_the_field(league):
    response = client_for(league.admin).post(
        reverse("campaigns:manage-invite", args=[league.campaign.pk]),
        {"emails": "ok@example.org, kaputt"})
    assert response.status_code == 400
    assert "Not an e-mail address: kaputt." in response.content.decode()
    assert not Invitation.objects.exists()


def test_link_is_shown_once_then_revoked_from_the_page(league, settings):
    client = client_for(league.admin)
    response = client.post(reverse("campaigns:manage-invite-link", args=[league.campaign.pk]),
                           {"max_uses": "3"}, follow=True)
    html = response.content.decode()
    assert f"{site_url()}/invite/" in html and "shown only once" in html
    invitation = Invitation.objects.get()
    assert invitation.max_uses == 3
    again = client.get(_members(league)).content.decode()
    assert f"{site_url()}/invite/" not in again  # the token is never shown again
    client.post(reverse("campaigns:manage-invitation-revoke",
                        args=[league.campaign.pk, invitation.pk]), {"confirm": "yes"})
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_anonymous_invitee_gets_login_and_signup_links_back_here(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    url = reverse("campaigns:invitation", args=[token])
    response = client_for().get(url)
    html = response.content.decode()
    assert response.status_code == 200 and league.campaign.name in html
    assert f"{reverse('login')}?next={url}" in html
    assert f"{reverse('signup')}?next={url}" in html


def test_logged_in_invitee_chooses_faction_and_joins(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    url = reverse("campaigns:invitation", args=[token])
    newcomer = UserFactory(username="newcomer")
    client = client_for(newcomer)
    assert 'name="faction"' in client.get(url).content.decode()
    missing = client.post(url, {"faction": "", "colour": "#00aa00"})
    assert missing.status_code == 400
    response = client.post(url, {"faction": "Orks", "colour": "#00aa00"})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[league.campaign.pk])
    player = Player.objects.get(user=newcomer)
    assert (player.faction, player.colour) == ("Orks", "#00aa00")
    again = client.post(url, {"faction": "Eldar", "colour": "#000000"})
    assert again.status_code == 200 and "You already play in this campaign as Orks" in \
        again.content.decode()
    assert Player.objects.filter(user=newcomer).count() == 1
    assert Invitation.objects.get().uses == 1


def test_preset_faction_is_taken(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin,
                                               faction="Orks", colour="#00aa00")
    client = client_for(UserFactory(username="newcomer"))
    url = reverse("campaigns:invitation", args=[token])
    assert 'name="faction"' not in client.get(url).content.decode()
    assert client.post(url, {}).status_code == 302
    assert Player.objects.get(user__username="newcomer").faction == "Orks"


@pytest.mark.parametrize(("state", "english", "german"), [
    ("revoked", "This invitation was revoked", "Diese Einladung wurde"),
    ("expired", "This invitation has expired", "Diese Einladung ist abgelaufen"),
    ("used_up", "This invitation has been used up", "Diese Einladung ist aufgebraucht"),
])
def test_unusable_links_say_so_in_english_and_german(league, state, english, german):
    invitation, token = unusable_invitation(league, state)
    url = reverse("campaigns:invitation", args=[token])
    client = client_for(UserFactory(username="late"))
    response = client.get(url)
    assert response.status_code == 410 and english in response.content.decode()
    assert german in client.get(url, **DE).content.decode()
    assert client.post(url, {"faction": "Orks"}).status_code == 410
    assert not Player.objects.filter(user__username="late").exists()


def test_unknown_link_is_a_404_page(league):
    response = client_for().get(reverse("campaigns:invitation", args=["nichts"]))
    assert response.status_code == 404 and "not valid" in response.content.decode()


def test_invitation_page_in_german(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    html = client_for().get(reverse("campaigns:invitation", args=[token]), **DE)
    text = html.content.decode()
    assert "Einladung zu" in text and "Registrieren" in text


def test_members_page_in_german(league):
    html = client_for(league.admin).get(_members(league), **DE).content.decode()
    assert "Per E-Mail einladen" in html and "Beitrittsanfragen" in html


# --- join requests ---------------------------------------------------------------------------

def test_ask_to_join_and_the_admin_accepts(league, django_capture_on_commit_callbacks):
    Campaign.objects.filter(pk=league.campaign.pk).update(visibility="public")
    admin = client_for(league.admin)
    admin.post(reverse("campaigns:manage-join-settings", args=[league.campaign.pk]),
               {"join_requests_open": "on"})
    league.campaign.refresh_from_db()
    assert league.campaign.join_requests_open
    asker = UserFactory(username="asker", email="asker@example.org")
    client = client_for(asker)
    detail = client.get(reverse("campaigns:detail", args=[league.campaign.pk]))
    assert 'id="ask-to-join"' in detail.content.decode()
    join = reverse("campaigns:join", args=[league.campaign.pk])
    response = client.post(join, {"message": "Hallo"}, follow=True)
    assert 'id="join-pending"' in response.content.decode()
    request = JoinRequest.objects.get()
    page = admin.get(_members(league)).content.decode()
    assert "asker" in page and "Hallo" in page
    with django_capture_on_commit_callbacks(execute=True):
        accepted = admin.post(reverse("campaigns:manage-join-accept",
                                      args=[league.campaign.pk, request.pk]),
                              {f"r{request.pk}-faction": "Orks",
                               f"r{request.pk}-colour": "#00aa00"})
    assert accepted.status_code == 302
    assert Player.objects.get(user=asker).faction == "Orks"
    assert mail.outbox[-1].to == ["asker@example.org"]


def test_join_page_when_closed_says_so_in_german(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(visibility="public")
    client = client_for(UserFactory(username="asker"))
    html = client.get(reverse("campaigns:join", args=[league.campaign.pk]), **DE)
    assert "nimmt keine Beitrittsanfragen an" in html.content.decode()
    refused = client.post(reverse("campaigns:join", args=[league.campaign.pk]), {})
    assert refused.status_code == 400
    assert "This campaign does not take join requests." in refused.content.decode()
    assert not JoinRequest.objects.exists()


def test_from_the_invitation_mail_through_sign_up_to_player(
        league, settings, django_capture_on_commit_callbacks):
    """A person with only an e-mail address: the mail's link, sign up (sign-up is
    closed; the invitation opens it), back to the invitation, choose a faction, play."""
    settings.OPEN_SIGNUP = False
    with django_capture_on_commit_callbacks(execute=True):
        services.invitations_create(campaign=league.campaign, by=league.admin,
                                    emails="neu@example.org")
    link = next(x for x in mail.outbox[0].body.split() if "/invite/" in x)
    path = link.removeprefix(site_url())
    client = client_for()
    page = client.get(path).content.decode()
    signup = f"{reverse('signup')}?next={path}"
    assert signup in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(signup, {
            "username": "neu", "email": "neu@example.org", "password1": "correct horse 42",
            "password2": "correct horse 42", "language": "de", "time_zone": "Europe/Berlin",
            "next": path})
    confirm = next(x for x in mail.outbox[-1].body.split() if "/signup/confirm/" in x)
    response = client.post(confirm.removeprefix(site_url()))  # the link mailed to sign up
    assert response.status_code == 302 and response["Location"] == path, response.content[:500]
    joined = client.post(path, {"faction": "Orks", "colour": "#00aa00"})
    assert joined.status_code == 302
    assert Player.objects.get(user__username="neu").faction == "Orks"
