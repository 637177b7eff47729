"""R-BAT-2 calendar feeds in the reader's language: a member's personal feed in their profile
language and zone; the campaign's feed in the reader's language, else the campaign's. Phases by
their label (``campaigns.labels.phase_label``), never their code; named tiles by their name;
times in the language's one format.

German strings added with this test need the lead's compilemessages before they pass."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import timezone, translation

from battles.models import Battle
from battles.services.feeds import calendar_token_of
from campaigns.models import Campaign, Profile, Round, Tile
from tests.battles.tabletop import events
from tests.worlds import api, duel

pytestmark = pytest.mark.django_db

DATE = datetime(2026, 10, 24, 18, 0, tzinfo=UTC)  # Saturday, 20:00 in Berlin (CEST)
DEADLINE = datetime(2026, 10, 26, 19, 0, tzinfo=UTC)  # Monday, 20:00 in Berlin (CET)


@pytest.fixture(autouse=True)
def _site_language_after():
    yield
    translation.deactivate()


@pytest.fixture
def dated(lg):
    """Anna attacks ben on the tile the organiser named "Grauer Pass"; the battle is agreed
    for Saturday, the lists deadline is on Monday."""
    battle = duel(lg)
    Tile.objects.filter(pk=battle.tile_id).update(name="Grauer Pass")
    Battle.objects.filter(pk=battle.pk).update(scheduled_at=DATE, place="Club",
                                               schedule_changed_at=timezone.now())
    Round.objects.filter(pk=battle.round_id).update(phase_deadline=DEADLINE)
    return battle


def _texts(content: bytes, battle) -> tuple[str, str, str, str]:
    feed = events(content)
    fight = feed[f"battle-{battle.pk}@{settings.SITE_HOST}"]
    deadline = next(e for uid, e in feed.items() if uid.startswith("deadline-"))
    return (str(fight["SUMMARY"]), str(fight["DESCRIPTION"]), str(deadline["SUMMARY"]),
            str(deadline["DESCRIPTION"]))


def _personal(user) -> bytes:
    token = calendar_token_of(user=user, now=timezone.now()).token
    response = api().get(f"/api/v1/me/calendar.ics?token={token}")
    assert response.status_code == 200
    return response.content


def test_r_bat_2_a_german_member_s_personal_feed_is_german(lg, dated):
    Profile.objects.create(user=lg.a.user, language="de", time_zone="Europe/Berlin")
    battle, about, deadline, when = _texts(_personal(lg.a.user), dated)
    planet = dated.tile.planet.name
    assert battle == f"Schlacht: anna gegen ben (Grauer Pass ({planet}))"
    assert "Feld: Grauer Pass" in about and "Runde 1" in about
    assert "Beginn: Sa. 24. Okt. 2026, 20:00 MESZ (Europe/Berlin)" in about
    assert deadline.endswith("Runde 1: Ende der Phase „Armeelisten“")
    assert when == "Die Phase „Armeelisten“ endet am Mo. 26. Okt. 2026, 20:00 MEZ " \
                   "(Europe/Berlin)."
    assert "lists" not in deadline + when  # no phase code


def test_r_bat_2_an_english_member_s_feed_names_the_phase_by_its_label(lg, dated):
    Campaign.objects.filter(pk=lg.campaign.pk).update(language="de")  # theirs wins
    Profile.objects.create(user=lg.a.user, language="en", time_zone="Europe/Berlin")
    battle, about, deadline, when = _texts(_personal(lg.a.user), dated)
    assert battle.startswith("Battle: anna vs ben (Grauer Pass (")
    assert deadline.endswith("Round 1: end of the “Army lists” phase")
    assert when == "The “Army lists” phase ends at Mon 26 Oct 2026, 20:00 CET (Europe/Berlin)."
    assert "Starts: Sat 24 Oct 2026, 20:00 CEST (Europe/Berlin)" in about


def test_r_bat_2_the_campaign_feed_is_in_the_campaign_s_language_for_a_reader_without_one(
        lg, dated):
    Campaign.objects.filter(pk=lg.campaign.pk).update(language="de", time_zone="Europe/Berlin")
    response = api(lg.c.user).get(lg.url("calendar.ics"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Language"] == "de"
    battle, about, deadline, when = _texts(response.content, dated)
    assert battle.startswith("Schlacht: anna gegen ben")
    assert "Ende der Phase „Armeelisten“" in deadline
    assert "MEZ" in when
    Profile.objects.create(user=lg.c.user, language="en")  # a reader's own language wins
    battle, *_rest = _texts(api(lg.c.user).get(lg.url("calendar.ics")).content, dated)
    assert battle.startswith("Battle: anna vs ben")


def test_r_bat_2_a_personal_feed_without_a_chosen_language_is_in_the_site_s(lg, dated):
    """A personal feed spans campaigns: without the member's own language, the site's."""
    Campaign.objects.filter(pk=lg.campaign.pk).update(language="de")
    assert settings.LANGUAGE_CODE == "en"
    battle, _about, deadline, _when = _texts(_personal(lg.a.user), dated)
    assert battle.startswith("Battle: anna vs ben")
    assert deadline.endswith("Round 1: end of the “Army lists” phase")


def test_r_bat_2_a_new_campaign_language_bumps_the_events_so_clients_take_the_new_text(lg,
                                                                                        dated):
    """Calendar clients keep an event unless its SEQUENCE grows: a new campaign language
    rewrites the texts of readers without their own, so it bumps them, as a rename does."""
    from campaigns.services.campaigns import campaign_update

    def sequences() -> dict:
        content = api(lg.c.user).get(lg.url("calendar.ics")).content
        return {uid: int(e.decoded("SEQUENCE")) for uid, e in events(content).items()}

    before = sequences()
    campaign_update(campaign=lg.campaign, language="de", actor=lg.admin)
    after = sequences()
    assert before.keys() == after.keys() and all(after[k] == before[k] + 1 for k in before)
    campaign_update(campaign=lg.campaign, language="de", actor=lg.admin)  # no change
    assert sequences() == after
