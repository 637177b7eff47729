"""The organiser's dashboard and manage page say when the clock that advances deadlines last
ran (R-RND-2), and plainly, in English and German, when it has not run for 3 minutes or never
did, with what to do; never an environment variable."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.services.clock import clock_beat_record
from tests.worlds import client_for

pytestmark = pytest.mark.django_db
PAGES = ("manage/dashboard/", "manage/")


def _page(world, rest, **headers) -> str:
    response = client_for(world.lg.admin).get(world.url(rest), **headers)
    assert response.status_code == 200
    return response.content.decode()


def _beat(seconds_ago: float) -> None:
    clock_beat_record(name="in-process", due_rounds=0,
                      now=timezone.now() - timedelta(seconds=seconds_ago))


@pytest.mark.parametrize("rest", PAGES)
def test_r_rnd_2_the_page_says_when_the_clock_last_ran(page_world, rest):
    _beat(40)
    html = _page(page_world, rest)
    assert re.search(r'id="clock">Clock last ran 4\d seconds ago\.<', html)
    assert 'id="clock-late"' not in html


@pytest.mark.parametrize("rest", PAGES)
def test_r_rnd_2_a_late_clock_is_said_plainly_with_what_to_do(page_world, rest):
    _beat(12 * 60)
    html = _page(page_world, rest)
    late = html[html.index('id="clock-late"'):html.index("</div>", html.index('id="clock-late"'))]
    assert "The clock that moves rounds on at their deadlines last ran 12 minutes ago" in late
    assert "deadlines pass but no phase moves on by itself" in late
    assert "the server's background process is not running" in late
    assert "Ask whoever runs the server to start it" in late and "make run" in late
    assert "<time" in late  # when, in the reader's zone
    assert "CLOCK" not in late and "REDIS" not in late and "Clock last ran" not in html


@pytest.mark.parametrize("rest", PAGES)
def test_r_rnd_2_a_clock_that_never_ran_is_said_too(page_world, rest):
    html = _page(page_world, rest)
    assert "The clock that moves rounds on at their deadlines has not run yet." in html


@pytest.mark.parametrize("rest", PAGES)
def test_r_rnd_2_the_late_clock_in_german(page_world, rest):
    _beat(5 * 60)
    html = _page(page_world, rest, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert '<html lang="de">' in html
    assert "Die Uhr, die Runden bei ihren Fristen weiterschaltet, lief zuletzt vor 5 Minuten" \
        in html
    assert "Der Hintergrundprozess des Servers läuft nicht." in html
    assert "Bitte die Person, die den Server betreibt, ihn zu starten." in html


def test_r_rnd_2_the_clock_in_german_when_it_runs(page_world):
    _beat(1)
    html = _page(page_world, "manage/dashboard/", HTTP_ACCEPT_LANGUAGE="de")
    assert re.search(r"Die Uhr lief zuletzt vor \d+ Sekunden?\.", html)


def test_the_time_since_reads_in_whole_units():
    from django.utils import translation

    from web.presenters.clock import ago_text

    assert [ago_text(s) for s in (1, 40, 60, 179, 7200, 3 * 86400)] == [
        "1 second ago", "40 seconds ago", "1 minute ago", "2 minutes ago", "2 hours ago",
        "3 days ago"]
    with translation.override("de"):
        assert ago_text(90) == "vor 1 Minute" and ago_text(7200) == "vor 2 Stunden"
