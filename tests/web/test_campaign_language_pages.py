"""The campaign's language on the pages (``campaigns.languages``, ``web.middleware``): an
anonymous reader who chose no language (switcher cookie) and whose browser asks for none the
site offers reads a campaign's pages, its invitation page and its public Atom feed in the
language its organiser chose; a language the reader asked for wins; signed-in members keep
their own. The organiser chooses it when creating the campaign and on the manage page."""

from datetime import UTC, datetime

import feedparser
import pytest
from django.conf import settings
from django.utils import translation

from battles.services.feeds import calendar_token_of
from campaigns.models import Campaign, Profile
from campaigns.services import invitations
from league.services.pause import campaign_pause
from tests.worlds import client_for, make_league

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _site_language_after():
    yield
    translation.deactivate()


@pytest.fixture
def german():
    """A public campaign whose organiser chose German."""
    lg = make_league(visibility="public", name="Nordmark")
    Campaign.objects.filter(pk=lg.campaign.pk).update(language="de")
    lg.campaign.refresh_from_db()
    return lg


def _lang(response) -> str:
    assert response.status_code == 200, response.status_code
    return response["Content-Language"]


def test_an_anonymous_reader_who_asks_for_nothing_reads_the_campaign_s_language(german):
    page = client_for().get(f"/campaigns/{german.campaign.pk}/")
    assert _lang(page) == "de" and b'<html lang="de">' in page.content
    assert _lang(client_for().get(f"/campaigns/{german.campaign.pk}/standings/")) == "de"


def test_accept_language_wins_over_the_campaign_s_language(german):
    client, url = client_for(), f"/campaigns/{german.campaign.pk}/"
    assert _lang(client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")) == "en"
    # a language the site does not offer says nothing: the campaign's
    assert _lang(client.get(url, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")) == "de"
    assert _lang(client.get(url, HTTP_ACCEPT_LANGUAGE="*")) == "de"


def test_the_switcher_s_choice_wins_over_everything(german):
    client = client_for()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = f"/campaigns/{german.campaign.pk}/"
    assert _lang(client.get(url, HTTP_ACCEPT_LANGUAGE="de")) == "en"
    assert _lang(client.get(url)) == "en"


def test_an_english_campaign_is_english_for_a_german_browser(german):
    Campaign.objects.filter(pk=german.campaign.pk).update(language="en")
    url = f"/campaigns/{german.campaign.pk}/"
    assert _lang(client_for().get(url)) == "en"
    assert _lang(client_for().get(url, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")) == "de"


def test_a_signed_in_member_keeps_the_site_s_way(german):
    """Members chose their language (profile, set as the cookie at login); the campaign's
    language is for those the site does not know."""
    page = client_for(german.a.user).get(f"/campaigns/{german.campaign.pk}/")
    assert _lang(page) == settings.LANGUAGE_CODE


def test_the_invitation_page_and_sign_up_speak_the_campaign_s_language_to_a_stranger(
        german, settings):
    settings.OPEN_SIGNUP = False  # sign-up still opens for the invited
    _invitation, token = invitations.invitation_link_create(campaign=german.campaign,
                                                           by=german.admin)
    page = client_for().get(f"/invite/{token}/")
    assert _lang(page) == "de"
    assert _lang(client_for().get(f"/invite/{token}/", HTTP_ACCEPT_LANGUAGE="en")) == "en"
    signup = client_for().get(f"/accounts/signup/?next=/invite/{token}/")
    assert _lang(signup) == "de"
    assert b'<option value="de" selected>' in signup.content  # the account's suggested language


def test_the_public_atom_feed_is_in_the_campaign_s_language(german):
    campaign_pause(campaign=german.campaign, by=german.admin, reason="Winterpause", now=T0)
    answer = client_for().get(f"/campaigns/{german.campaign.pk}/feed.atom",
                              HTTP_ACCEPT_LANGUAGE="en")  # a feed is the campaign's, not the
    assert answer.status_code == 200                          # fetching program's
    parsed = feedparser.parse(answer.content)
    assert parsed.feed.title == "Nordmark: Neuigkeiten"
    assert parsed.feed.language == "de"
    entry = next(e for e in parsed.entries if e.title == "Kampagne pausiert")
    assert "Die Kampagnenleitung hat die Kampagne pausiert." in entry.summary


def test_a_member_s_own_atom_feed_is_in_their_language(german):
    campaign_pause(campaign=german.campaign, by=german.admin, reason="Winterpause", now=T0)
    Profile.objects.create(user=german.a.user, language="en")
    token = calendar_token_of(user=german.a.user, now=T0).token
    answer = client_for().get(f"/campaigns/{german.campaign.pk}/feed.atom?token={token}")
    parsed = feedparser.parse(answer.content)
    assert parsed.feed.title == "Nordmark: news"
    assert any(e.title == "Campaign paused" for e in parsed.entries)
    Profile.objects.filter(user=german.b.user).delete()  # ben chose nothing: the campaign's
    token = calendar_token_of(user=german.b.user, now=T0).token
    answer = client_for().get(f"/campaigns/{german.campaign.pk}/feed.atom?token={token}")
    assert feedparser.parse(answer.content).feed.title == "Nordmark: Neuigkeiten"


def test_the_organiser_sets_the_language_on_the_manage_page(german):
    client = client_for(german.admin)
    page = client.get(f"/campaigns/{german.campaign.pk}/manage/")
    assert page.status_code == 200 and b'name="language"' in page.content
    answer = client.post(f"/campaigns/{german.campaign.pk}/manage/settings/", {
        "name": "Nordmark", "visibility": "public", "time_zone": "Europe/Berlin",
        "language": "en"})
    assert answer.status_code == 302, answer.content[:500]
    assert Campaign.objects.get(pk=german.campaign.pk).language == "en"
    refused = client.post(f"/campaigns/{german.campaign.pk}/manage/settings/", {
        "name": "Nordmark", "visibility": "public", "language": "tlh"})
    assert refused.status_code == 400
    assert Campaign.objects.get(pk=german.campaign.pk).language == "en"


def test_the_organiser_chooses_the_language_when_creating_a_campaign(german):
    german.admin.is_staff = True
    german.admin.save()
    client = client_for(german.admin)
    form = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert b'name="language"' in form.content
    answer = client.post("/campaigns/new/", {"name": "Südmark", "visibility": "private",
                                             "time_zone": "Europe/Berlin", "language": "de"})
    assert answer.status_code == 302, answer.content[:500]
    assert Campaign.objects.get(name="Südmark").language == "de"
