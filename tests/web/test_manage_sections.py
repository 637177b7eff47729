"""The manage page in sections one reaches directly: a section navigation at the top (one link
per section, and the members, webhooks, audit log and guide pages), each section folded into a
<details> that opens when needed: the round always, the players and the map before the first
round, a section whose form came back with errors, the results when a round is picked, the
pause while paused. Every form keeps its address."""

import re

import pytest

from tests.worlds import client_for

pytestmark = pytest.mark.django_db

SECTIONS = ["round", "pause", "players", "results", "map", "ruleset", "settings", "archive"]


def _open(html: str) -> set[str]:
    return set(re.findall(r'<details id="([a-z]+)" class="card fold"[^>]* open>', html))


def _sections(html: str) -> list[str]:
    return re.findall(r'<details id="([a-z]+)" class="card fold"', html)


def test_every_section_folds_and_the_navigation_reaches_each(page_world):
    html = client_for(page_world.lg.admin).get(page_world.url("manage/")).content.decode()
    assert _sections(html) == SECTIONS
    assert _open(html) == {"round"}  # a round runs: the rest folds to its heading
    nav = re.search(r'<nav class="section-nav".*?</nav>', html, re.S).group(0)
    assert re.findall(r'href="#([a-z]+)"', nav) == SECTIONS
    for page in ("manage/members/", "manage/webhooks/", "log/", "manage/guide/"):
        assert f'href="{page_world.url(page)}"' in nav, page
    for action in ("settings", "ruleset", "map", "players", "deadline", "advance", "pause"):
        assert f'action="{page_world.url(f"manage/{action}/")}"' in html, action


def test_before_the_first_round_the_players_and_the_map_are_open(league):
    html = client_for(league.admin).get(f"/campaigns/{league.campaign.pk}/manage/").content.decode()
    assert _open(html) == {"round", "players", "map"}


def test_a_form_with_errors_comes_back_in_its_open_section(page_world):
    admin = client_for(page_world.lg.admin)
    bad = admin.post(page_world.url("manage/settings/"),
                     {"name": "", "visibility": "private", "time_zone": "UTC"})
    assert bad.status_code == 400
    assert _open(bad.content.decode()) == {"round", "settings"}
    picked = admin.get(page_world.url("manage/") + "?round=1").content.decode()
    assert "results" in _open(picked)
