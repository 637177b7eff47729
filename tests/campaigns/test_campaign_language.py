"""The campaign's language (``campaigns.languages``): chosen by the organiser, the site's by
default, and used for people the site does not know yet - here, mail to an address without an
account and to members who chose no language of their own."""

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation

from campaigns import languages
from campaigns.errors import RuleViolation
from campaigns.models import AdminAction, Campaign, Profile
from campaigns.services import invitations
from campaigns.services.campaigns import campaign_create, campaign_update
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_language_after():
    yield
    translation.deactivate()


def test_a_new_campaign_takes_the_site_s_language_unless_the_organiser_chooses():
    orga = UserFactory(username="orga")
    plain = campaign_create(creator=orga, name="Plain")
    assert plain.language == settings.LANGUAGE_CODE
    german = campaign_create(creator=orga, name="Nordmark", language="de")
    assert Campaign.objects.get(pk=german.pk).language == "de"
    with pytest.raises(RuleViolation) as refused:
        campaign_create(creator=orga, name="Klingon", language="tlh")
    assert refused.value.field == "language"


def test_the_organiser_changes_the_language_in_the_settings_and_the_log_says_so(league):
    campaign_update(campaign=league.campaign, language="de", actor=league.admin)
    assert Campaign.objects.get(pk=league.campaign.pk).language == "de"
    logged = AdminAction.objects.filter(campaign=league.campaign, kind="campaign.update").get()
    assert logged.after == {"language": "de"}
    for wrong in ("xx", ["de"]):
        with pytest.raises(RuleViolation):
            campaign_update(campaign=league.campaign, language=wrong, actor=league.admin)


def test_campaign_language_falls_back_to_the_site_s_for_a_language_no_longer_offered():
    assert languages.campaign_language(Campaign(language="de")) == "de"
    assert languages.campaign_language(Campaign(language="fr")) == settings.LANGUAGE_CODE
    assert languages.campaign_language(None) == settings.LANGUAGE_CODE


def test_an_invitation_to_an_address_without_an_account_is_in_the_campaign_s_language(
        league, django_capture_on_commit_callbacks):
    """The inviter reads the site in English; the campaign is German, and so is the mail to
    someone the site does not know."""
    campaign_update(campaign=league.campaign, language="de", actor=league.admin)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        invitations.invitations_create(campaign=league.campaign, by=league.admin,
                                       emails="neu@example.org")
    message = mail.outbox[-1]
    assert message.to == ["neu@example.org"]
    assert "Du bist zum Mitspielen eingeladen" in message.subject
    assert "Du bist eingeladen" in message.body or "lädt dich" in message.body
    assert "You are invited" not in message.body


def test_an_account_s_own_language_beats_the_campaign_s(league, django_capture_on_commit_callbacks):
    campaign_update(campaign=league.campaign, language="de", actor=league.admin)
    known = UserFactory(username="known", email="known@example.org")
    Profile.objects.create(user=known, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invitations_create(campaign=league.campaign, by=league.admin,
                                       emails="known@example.org")
    assert "You are invited to play" in mail.outbox[-1].subject


def test_members_who_chose_no_language_hear_in_the_campaign_s(
        league, django_capture_on_commit_callbacks):
    """The admins hear that someone joined; an admin without a language of their own reads
    it in the campaign's language, not in the language of whoever triggered it."""
    campaign_update(campaign=league.campaign, language="de", actor=league.admin)
    league.admin.email = "orga@example.org"
    league.admin.save()
    newcomer = UserFactory(username="newcomer", email="new@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitations.invitations_create(campaign=league.campaign, by=league.admin,
                                                    emails="new@example.org")[0]
    token = next(x for x in mail.outbox[-1].body.splitlines() if "/invite/" in x) \
        .strip().rstrip("/").rsplit("/", 1)[-1]
    mail.outbox.clear()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        invitations.invitation_accept(token=token, user=newcomer, faction="Orks")
    assert invitation.pk
    to_admin = [m for m in mail.outbox if m.to == ["orga@example.org"]]
    assert to_admin, [m.to for m in mail.outbox]
    assert "newcomer" in to_admin[0].body
    assert "spielt" in to_admin[0].body and "accepted an invitation" not in to_admin[0].body
