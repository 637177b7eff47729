"""The organiser hears by mail when someone joins with an invitation or a link, or takes over
a seat: each admin in their own language, the new player named, a link to the members page;
English and German."""

import pytest
from django.core import mail

from campaigns.mail import absolute
from campaigns.models import Profile
from campaigns.services import invitations as services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admins(league):
    """orga reads English; a second admin, gerda, reads German."""
    league.admin.email = "orga@example.org"
    league.admin.save(update_fields=["email"])
    gerda = UserFactory(username="gerda", email="gerda@example.org")
    Profile.objects.create(user=gerda, language="de")
    league.campaign.admins.add(gerda)
    return league


def _newcomer():
    user = UserFactory(username="neu", email="neu@example.org")
    Profile.objects.create(user=user, display_name="Nora Neu")
    return user


def _joined_mail(capture, league, user, token):
    mail.outbox.clear()
    with capture(execute=True):
        player = services.invitation_accept(token=token, user=user, faction="Orks",
                                            colour="#00aa00")
    return player, {m.to[0]: m for m in mail.outbox}


def test_a_player_joining_by_link_is_mailed_to_each_admin_in_their_language(
        admins, django_capture_on_commit_callbacks):
    _, token = services.invitation_link_create(campaign=admins.campaign, by=admins.admin)
    player, by_address = _joined_mail(django_capture_on_commit_callbacks, admins, _newcomer(),
                                      token)
    assert set(by_address) == {"orga@example.org", "gerda@example.org"}  # not the joiner
    link = absolute(f"/campaigns/{admins.campaign.pk}/manage/members/#player-{player.pk}")
    english, german = by_address["orga@example.org"], by_address["gerda@example.org"]
    assert "Nora Neu joined as Orks" in english.subject
    assert "Nora Neu accepted an invitation and now plays in the campaign" in english.body
    assert link in english.body
    assert "Nora Neu spielt jetzt als Orks mit" in german.subject
    assert "Die Mitglieder der Kampagne:" in german.body and link in german.body


def test_accepting_again_mails_nobody(admins, django_capture_on_commit_callbacks):
    user = _newcomer()
    _, token = services.invitation_link_create(campaign=admins.campaign, by=admins.admin)
    _joined_mail(django_capture_on_commit_callbacks, admins, user, token)
    _, again = _joined_mail(django_capture_on_commit_callbacks, admins, user, token)
    assert again == {}


def test_an_admin_joining_is_not_told_of_it(admins, django_capture_on_commit_callbacks):
    _, token = services.invitation_link_create(campaign=admins.campaign, by=admins.admin)
    _, by_address = _joined_mail(django_capture_on_commit_callbacks, admins, admins.admin,
                                 token)
    assert set(by_address) == {"gerda@example.org"}


def test_taking_over_a_seat_is_mailed_too(admins, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_invitation_create(player=admins.a, by=admins.admin,
                                        email="neu@example.org")
    token = next(x for x in mail.outbox[-1].body.split() if "/invite/" in x)
    token = token.rstrip("/").rsplit("/", 1)[-1]
    _, by_address = _joined_mail(django_capture_on_commit_callbacks, admins, _newcomer(),
                                 token)
    faction = admins.a.faction
    assert f"Nora Neu took over {faction}" in by_address["orga@example.org"].subject
    assert f"Nora Neu hat {faction} übernommen" in by_address["gerda@example.org"].subject
    assert "Einladung für den Platz angenommen" in by_address["gerda@example.org"].body
