"""Invitations and join requests: the services behind the pages
and the API."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Campaign, Invitation, InvitationUse, JoinRequest, Player
from campaigns.selectors.invitations import (
    invitation_by_token,
    invitation_state,
    invitations_of_user,
    token_hash,
)
from campaigns.services import invitations as services
from tests.factories import UserFactory
from tests.worlds import unusable_invitation

pytestmark = pytest.mark.django_db


def _token_from(message) -> str:
    line = next(x for x in message.body.splitlines() if "/invite/" in x)
    return line.strip().rstrip("/").rsplit("/", 1)[-1]


def test_pasted_addresses_are_split_validated_and_merged():
    text = "a@example.org, B@example.org;\nb@example.org\n\n c@example.org ; A@EXAMPLE.ORG"
    assert services.parse_addresses(text) == ["a@example.org", "b@example.org",
                                              "c@example.org"]
    with pytest.raises(RuleViolation) as caught:
        services.parse_addresses("a@example.org, not-an-address; x@")
    assert caught.value.field == "emails" and "not-an-address" in caught.value.message
    with pytest.raises(RuleViolation):
        services.parse_addresses(" ,; ")


def test_email_invitations_mail_an_absolute_link_after_commit(
        league, settings, django_capture_on_commit_callbacks):
    settings.SITE_URL = "https://feldzug.example"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        created = services.invitations_create(
            campaign=league.campaign, by=league.admin,
            emails="neu@example.org\nneu@example.org; zwei@example.org", faction="Orks")
        assert mail.outbox == []  # nothing before commit
    assert len(callbacks) == 2 and len(created) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["neu@example.org", "zwei@example.org"]
    message = mail.outbox[0]
    assert "https://feldzug.example/invite/" in message.body
    assert league.campaign.name in message.subject and "Orks" in message.body
    token = _token_from(message)
    invitation = invitation_by_token(token)
    assert invitation is not None and invitation.token_hash == token_hash(token)
    assert token not in {inv.token_hash for inv in Invitation.objects.all()}  # only hashes
    assert invitation.max_uses == 1 and invitation.expires_at > timezone.now()


def test_inviting_an_address_again_resends_instead_of_duplicating(
        league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first, = services.invitations_create(campaign=league.campaign, by=league.admin,
                                             emails="neu@example.org")
    old_token = _token_from(mail.outbox[0])
    with django_capture_on_commit_callbacks(execute=True):
        again, = services.invitations_create(campaign=league.campaign, by=league.admin,
                                             emails="NEU@example.org")
    assert again.pk == first.pk and Invitation.objects.count() == 1
    assert invitation_by_token(old_token) is None  # a fresh link; the old one is dead
    assert invitation_by_token(_token_from(mail.outbox[1])).pk == first.pk


def test_accepting_makes_a_player_with_the_preset_faction_and_never_an_admin(league):
    invitation, token = services.invitation_link_create(
        campaign=league.campaign, by=league.admin, faction="Orks", colour="#00AA00")
    newcomer = UserFactory(username="newcomer")
    player = services.invitation_accept(token=token, user=newcomer, faction="Ignored",
                                        colour="#ffffff")
    assert (player.faction, player.colour) == ("Orks", "#00aa00")
    assert player.requisition == league.campaign.ruleset["starting_requisition"]
    assert not league.campaign.admins.filter(pk=newcomer.pk).exists()
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_accepting_twice_changes_nothing(league):
    invitation, token = services.invitation_link_create(campaign=league.campaign,
                                                        by=league.admin, max_uses=5)
    newcomer = UserFactory(username="newcomer")
    first = services.invitation_accept(token=token, user=newcomer, faction="Orks")
    second = services.invitation_accept(token=token, user=newcomer, faction="Eldar",
                                        colour="#123456")
    assert first.pk == second.pk and second.faction == "Orks"
    invitation.refresh_from_db()
    assert invitation.uses == 1 and InvitationUse.objects.count() == 1
    assert Player.objects.filter(user=newcomer).count() == 1


def test_a_one_use_email_invitation_accepted_twice_by_its_user_still_answers(league):
    """The second click of a used-up e-mail invitation by the one who used it is no error."""
    invitation, token = services.invitation_link_create(campaign=league.campaign,
                                                        by=league.admin, max_uses=1)
    newcomer = UserFactory(username="newcomer")
    services.invitation_accept(token=token, user=newcomer, faction="Orks")
    assert services.invitation_accept(token=token, user=newcomer).faction == "Orks"


@pytest.mark.parametrize("state", ["revoked", "expired", "used_up"])
def test_an_unusable_invitation_says_why(league, state):
    invitation, token = unusable_invitation(league, state)
    invitation.refresh_from_db()
    assert invitation_state(invitation) == state
    with pytest.raises(services.InvitationUnusable) as caught:
        services.invitation_accept(token=token, user=UserFactory(username="late"),
                                   faction="Orks")
    assert caught.value.code == state and caught.value.status == 410
    assert not Player.objects.filter(user__username="late").exists()


def test_an_unknown_token_is_not_found(league):
    with pytest.raises(services.NotFound):
        services.invitation_accept(token="x" * 43, user=UserFactory(), faction="Orks")


def test_a_faction_is_needed_unless_preset(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    with pytest.raises(RuleViolation) as caught:
        services.invitation_accept(token=token, user=UserFactory(username="newcomer"))
    assert caught.value.field == "faction"
    assert not Player.objects.filter(user__username="newcomer").exists()


def test_link_limits_are_checked(league):
    with pytest.raises(RuleViolation):
        services.invitation_link_create(campaign=league.campaign, by=league.admin, max_uses=0)
    with pytest.raises(RuleViolation):
        services.invitation_link_create(campaign=league.campaign, by=league.admin,
                                        expires_at=timezone.now() - timedelta(hours=1))
    with pytest.raises(RuleViolation):
        services.invitation_link_create(campaign=league.campaign, by=league.admin,
                                        colour="red")


def test_resend_gives_a_fresh_link_and_refuses_links_and_revoked(
        league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        invitation, = services.invitations_create(campaign=league.campaign, by=league.admin,
                                                  emails="neu@example.org")
        services.invitation_resend(invitation=invitation, by=league.admin)
    assert len(mail.outbox) == 2
    old, new = (_token_from(m) for m in mail.outbox)
    assert old != new and invitation_by_token(old) is None
    invitation.refresh_from_db()
    assert invitation.send_count == 2
    link, _ = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    with pytest.raises(Conflict):
        services.invitation_resend(invitation=link, by=league.admin)
    services.invitation_revoke(invitation=invitation)
    with pytest.raises(services.InvitationUnusable):
        services.invitation_resend(invitation=invitation, by=league.admin)


def test_a_user_sees_only_invitations_to_their_address(league):
    services.invitations_create(campaign=league.campaign, by=league.admin,
                                emails="mine@example.org, other@example.org")
    me = UserFactory(username="me", email="Mine@Example.org")
    assert [inv.email for inv in invitations_of_user(me)] == ["mine@example.org"]
    assert not invitations_of_user(UserFactory(username="noaddress")).exists()


def test_no_invitations_to_a_finished_campaign(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(status=Campaign.Status.FINISHED)
    league.campaign.refresh_from_db()
    with pytest.raises(Conflict):
        services.invitation_link_create(campaign=league.campaign, by=league.admin)


# --- join requests ---------------------------------------------------------------------------

@pytest.fixture
def open_league(league):
    league.campaign.visibility = Campaign.Visibility.PUBLIC
    league.campaign.join_requests_open = True
    league.campaign.save()
    league.admin.email = "orga@example.org"
    league.admin.save()
    return league


def test_join_requests_are_off_by_default_and_only_for_public_campaigns(league):
    assert Campaign().join_requests_open is False
    user = UserFactory(username="asker")
    with pytest.raises(Conflict) as caught:
        services.join_request_create(campaign=league.campaign, user=user)
    assert caught.value.code == "join_requests_closed"
    league.campaign.join_requests_open = True  # still private
    league.campaign.save()
    with pytest.raises(Conflict):
        services.join_request_create(campaign=league.campaign, user=user)


def test_join_request_accept_mails_both_sides(open_league, django_capture_on_commit_callbacks):
    asker = UserFactory(username="asker", email="asker@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        request = services.join_request_create(campaign=open_league.campaign, user=asker,
                                               message="Ich spiele Orks.")
        again = services.join_request_create(campaign=open_league.campaign, user=asker)
    assert again.pk == request.pk
    assert [m.to for m in mail.outbox] == [["orga@example.org"]]
    assert "asker" in mail.outbox[0].subject and "Ich spiele Orks." in mail.outbox[0].body
    assert "/manage/members/" in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        player = services.join_request_accept(join_request=request, by=open_league.admin,
                                              faction="Orks", colour="#00aa00")
    assert player.user == asker and player.faction == "Orks"
    assert mail.outbox[-1].to == ["asker@example.org"] and "Orks" in mail.outbox[-1].body
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.ACCEPTED and request.player == player
    with pytest.raises(Conflict) as caught:
        services.join_request_decline(join_request=request, by=open_league.admin)
    assert caught.value.code == "join_request_decided"
    with pytest.raises(Conflict) as caught:
        services.join_request_create(campaign=open_league.campaign, user=asker)
    assert caught.value.code == "already_player"


def test_join_request_decline_mails_the_user(open_league, django_capture_on_commit_callbacks):
    asker = UserFactory(username="asker", email="asker@example.org")
    request = services.join_request_create(campaign=open_league.campaign, user=asker)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_request_decline(join_request=request, by=open_league.admin)
    assert [m.to for m in mail.outbox] == [["asker@example.org"]]
    assert not Player.objects.filter(user=asker).exists()
    # a declined user may ask again later
    assert services.join_request_create(campaign=open_league.campaign, user=asker).pk != \
        request.pk


def test_join_answers_are_mailed_in_the_users_language(
        open_league, django_capture_on_commit_callbacks):
    from campaigns.models import Profile

    asker = UserFactory(username="asker", email="asker@example.org")
    Profile.objects.create(user=asker, language="de")
    request = services.join_request_create(campaign=open_league.campaign, user=asker)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_request_decline(join_request=request, by=open_league.admin)
    assert "Deine Beitrittsanfrage wurde abgelehnt" in mail.outbox[-1].subject


def test_an_invitation_to_a_known_german_address_is_in_german(
        league, django_capture_on_commit_callbacks):
    from campaigns.models import Profile

    known = UserFactory(username="bekannt", email="bekannt@example.org")
    Profile.objects.create(user=known, language="de")
    with django_capture_on_commit_callbacks(execute=True):
        services.invitations_create(campaign=league.campaign, by=league.admin,
                                    emails="Bekannt@example.org, fremd@example.org")
    by_address = {m.to[0]: m for m in mail.outbox}
    assert "Du bist zum Mitspielen eingeladen" in by_address["bekannt@example.org"].subject
    assert "You are invited to play" in by_address["fremd@example.org"].subject


# --- concurrency (PostgreSQL row locks) --------------------------------------------------------

def _race(calls) -> list:
    import threading

    from django.db import connection

    barrier = threading.Barrier(len(calls))
    outcomes = []

    def run(call):
        barrier.wait()
        try:
            outcomes.append(call())
        except services.InvitationUnusable as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def _postgres_only():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_two_users_racing_for_the_last_use_one_gets_it(league):
    _postgres_only()
    invitation, token = services.invitation_link_create(campaign=league.campaign,
                                                        by=league.admin, max_uses=1)
    users = [UserFactory(username=name) for name in ("racer1", "racer2")]
    outcomes = _race([lambda u=u: services.invitation_accept(token=token, user=u,
                                                             faction="Orks").pk
                      for u in users])
    assert sorted(map(str, outcomes))[-1] == "used_up" and len(outcomes) == 2
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert Player.objects.filter(user__in=users).count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_user_accepting_twice_at_once_joins_once(league):
    _postgres_only()
    invitation, token = services.invitation_link_create(campaign=league.campaign,
                                                        by=league.admin)
    user = UserFactory(username="doubleclick")
    outcomes = _race([lambda: services.invitation_accept(token=token, user=user,
                                                         faction="Orks").pk] * 2)
    assert len(set(outcomes)) == 1 and isinstance(outcomes[0], int)
    invitation.refresh_from_db()
    assert invitation.uses == 1 and Player.objects.filter(user=user).count() == 1
