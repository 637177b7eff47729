"""Calendar feeds name their times as text in the reader's zone (their own,
else the campaign's), the zone named; DTSTART stays UTC (R-BAT-2). The last Sunday of October
2026 is 25 October (Europe/Berlin: CEST before, CET after)."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import timezone, translation

from battles.calendar import local_time_text
from battles.models import Battle
from battles.services.feeds import calendar_token_of
from campaigns.models import Campaign, Round
from campaigns.services.accounts import profile_update
from tests.battles.tabletop import events
from tests.worlds import api, duel

pytestmark = pytest.mark.django_db

BEFORE_CHANGE = datetime(2026, 10, 24, 18, 0, tzinfo=UTC)  # 20:00 CEST
AFTER_CHANGE = datetime(2026, 10, 26, 19, 0, tzinfo=UTC)  # 20:00 CET


@pytest.fixture
def dated(lg):
    """Anna attacks ben; the battle is agreed for 24 October 2026 18:00 UTC, the lists deadline
    is 26 October 2026 19:00 UTC."""
    battle = duel(lg)
    Battle.objects.filter(pk=battle.pk).update(scheduled_at=BEFORE_CHANGE, place="Club",
                                               schedule_changed_at=timezone.now())
    Round.objects.filter(pk=battle.round_id).update(phase_deadline=AFTER_CHANGE)
    return battle


def _feed(user, lg) -> dict:
    response = api(user).get(lg.url("calendar.ics"))
    assert response.status_code == 200, response.content
    return events(response.content)


def _battle(feed: dict, battle) -> object:
    return feed[f"battle-{battle.pk}@{settings.SITE_HOST}"]


def _deadline(feed: dict) -> object:
    return next(e for uid, e in feed.items() if uid.startswith("deadline-"))


def test_local_time_text_names_the_zone_across_the_october_change():
    from zoneinfo import ZoneInfo

    berlin = ZoneInfo("Europe/Berlin")
    with translation.override("en"):
        assert local_time_text(BEFORE_CHANGE, berlin) == \
            "Sat 24 Oct 2026, 20:00 CEST (Europe/Berlin)"
        assert local_time_text(AFTER_CHANGE, berlin) == "Mon 26 Oct 2026, 20:00 CET (Europe/Berlin)"
        assert local_time_text(AFTER_CHANGE, ZoneInfo("UTC")) == "Mon 26 Oct 2026, 19:00 UTC"
    with translation.override("de"):
        assert local_time_text(BEFORE_CHANGE, berlin) == \
            "Sa. 24. Okt. 2026, 20:00 MESZ (Europe/Berlin)"


def test_the_campaign_feed_describes_times_in_the_reader_s_zone(lg, dated):
    profile_update(user=lg.c.user, time_zone="Europe/Berlin")
    feed = _feed(lg.c.user, lg)
    event = _battle(feed, dated)
    assert "Starts: Sat 24 Oct 2026, 20:00 CEST (Europe/Berlin)" in str(event["DESCRIPTION"])
    assert event.decoded("DTSTART") == BEFORE_CHANGE  # still written in UTC
    assert event["DTSTART"].to_ical() == b"20261024T180000Z"
    assert "ends at Mon 26 Oct 2026, 20:00 CET (Europe/Berlin)" in str(
        _deadline(feed)["DESCRIPTION"])


def test_a_reader_without_a_zone_gets_the_campaign_s(lg, dated):
    Campaign.objects.filter(pk=lg.campaign.pk).update(time_zone="Asia/Tokyo")
    event = _battle(_feed(lg.d.user, lg), dated)
    assert "Starts: Sun 25 Oct 2026, 03:00 JST (Asia/Tokyo)" in str(event["DESCRIPTION"])


def test_the_personal_feed_uses_its_owner_s_zone(lg, dated):
    profile_update(user=lg.a.user, time_zone="Europe/Berlin")
    token = calendar_token_of(user=lg.a.user, now=timezone.now()).token
    response = api().get(f"/api/v1/me/calendar.ics?token={token}")
    assert response.status_code == 200
    feed = events(response.content)
    assert "20:00 CEST (Europe/Berlin)" in str(_battle(feed, dated)["DESCRIPTION"])
    assert "20:00 CET (Europe/Berlin)" in str(_deadline(feed)["DESCRIPTION"])
