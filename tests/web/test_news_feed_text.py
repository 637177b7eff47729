"""The campaign's Atom feed carries member text (display names, planet names, a pause reason,
the campaign's name) as text: parsed by feedparser as a feed reader would, with and without its
HTML sanitiser, every value reads as written and nothing becomes an HTML element."""

from datetime import UTC, datetime

import feedparser
import pytest

from battles.services.campaign_events import result_confirmed_emit
from battles.services.feeds import calendar_token_of
from campaigns.models import Profile
from league.services.pause import campaign_pause
from tests.factories import BattleFactory, PlanetFactory, TileFactory
from tests.worlds import client_for, make_league

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
EVIL = "<img src=x onerror=alert(1)> &amp;"


def _feed(lg) -> bytes:
    token = calendar_token_of(user=lg.a.user, now=T0).token
    answer = client_for().get(f"/campaigns/{lg.campaign.pk}/feed.atom?token={token}")
    assert answer.status_code == 200
    return answer.content


@pytest.mark.django_db
def test_feed_shows_member_text_as_written_and_never_as_html():
    lg = make_league(name=f"Camp {EVIL}")
    Profile.objects.create(user=lg.a.user, display_name=f"Anna {EVIL}")
    planet = PlanetFactory(campaign=lg.campaign, name=f"World {EVIL}")
    battle = BattleFactory(attack__round__campaign=lg.campaign, attack__player=lg.a,
                           attack__tile=TileFactory(planet=planet), outcome="victory",
                           attacker_vp=3, defender_vp=1)
    result_confirmed_emit(battle=battle, change_id=1, now=T0)
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason=f"Why {EVIL}", now=T0)
    body = _feed(lg)
    for sanitize in (True, False):
        parsed = feedparser.parse(body, sanitize_html=sanitize)
        assert not parsed.bozo, parsed.bozo_exception
        assert parsed.feed.title == f"Camp {EVIL}: news"
        summaries = {entry.title: entry.summary for entry in parsed.entries}
        assert summaries["Campaign paused"] == \
            f"The campaign admin paused the campaign. Why {EVIL}"
        result = summaries["Battle result confirmed"]
        assert f"World {EVIL}" in result and f"Anna {EVIL}" in result
        for entry in parsed.entries:
            assert entry.summary_detail.type == "text/plain"
