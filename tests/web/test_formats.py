"""One format for dates, times and numbers per language (``campaigns.formats``): English
``Wed 6 Jan 2027, 17:25 CET``, German ``Mi. 6. Jan. 2027, 17:25 MEZ``; relative times next to
deadlines; percentages in the reader's locale; counts in sentences with their plural.

The German texts of strings added with these formats (plurals, "no conquest rolls") come from
the compiled catalogue: those assertions pass once ``compilemessages`` has run."""

import re
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import timezone, translation

from campaigns import formats, webhooks
from campaigns.models import Campaign, Round
from campaigns.templatetags.mailtext import mail_time
from tests.worlds import client_for
from web.presenters.numbers import percent, svg_number
from web.presenters.times import date_element, time_element
from web.templatetags.feldzug import exact_chance
from web.templatetags.feldzug import percent as percent_filter

BERLIN = "Europe/Berlin"
WINTER = datetime(2027, 1, 6, 16, 25, tzinfo=UTC)  # Wednesday, 17:25 in Berlin (CET, UTC+1)
SUMMER = datetime(2027, 7, 6, 15, 25, tzinfo=UTC)  # Tuesday, 17:25 in Berlin (CEST, UTC+2)
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def shown(language: str, zone: str, function, *args, **kwargs) -> str:
    with translation.override(language), timezone.override(zone):
        return function(*args, **kwargs)


# --- dates and times -------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "winter", "summer"), [
    ("en", "Wed 6 Jan 2027, 17:25 CET", "Tue 6 Jul 2027, 17:25 CEST"),
    ("de", "Mi. 6. Jan. 2027, 17:25 MEZ", "Di. 6. Juli 2027, 17:25 MESZ"),
])
def test_one_long_format_per_language_in_winter_and_summer(language, winter, summer):
    assert shown(language, BERLIN, formats.datetime_text, WINTER) == winter
    assert shown(language, BERLIN, formats.datetime_text, SUMMER) == summer


@pytest.mark.parametrize(("language", "this_year", "other_year"), [
    ("en", "6 Jan, 17:25 CET", "6 Jan 2027, 17:25 CET"),
    ("de", "6. Jan., 17:25 MEZ", "6. Jan. 2027, 17:25 MEZ"),
])
def test_the_short_format_drops_weekday_and_this_year(language, this_year, other_year):
    assert shown(language, BERLIN, formats.datetime_text, WINTER, "short",
                 now=WINTER + timedelta(days=30)) == this_year
    assert shown(language, BERLIN, formats.datetime_text, WINTER, "short",
                 now=WINTER + timedelta(days=400)) == other_year


def test_zones_are_named_by_abbreviation_else_by_their_offset_from_utc():
    assert shown("en", "America/New_York", formats.datetime_text, WINTER).endswith("11:25 EST")
    assert shown("de", "Europe/London", formats.datetime_text, SUMMER).endswith("16:25 BST")
    assert shown("de", "UTC", formats.datetime_text, WINTER).endswith("16:25 UTC")
    assert shown("en", "Asia/Dubai", formats.datetime_text, WINTER).endswith("20:25 UTC+4")
    assert shown("en", "Asia/Kathmandu", formats.datetime_text, WINTER).endswith("UTC+5:45")


def test_days_have_the_same_format_and_never_iso():
    day = date(2027, 1, 6)
    assert shown("en", BERLIN, formats.date_text, day) == "Wed 6 Jan 2027"
    assert shown("de", BERLIN, formats.date_text, day) == "Mi. 6. Jan. 2027"
    assert shown("de", BERLIN, formats.date_text, day, "medium") == "6. Jan. 2027"
    assert shown("en", BERLIN, formats.date_text, day, "short", today=date(2027, 5, 1)) == "6 Jan"
    assert shown("de", BERLIN, date_element, day) == (
        '<time datetime="2027-01-06">Mi. 6. Jan. 2027</time>')


def test_the_time_element_keeps_the_utc_instant_for_machines():
    html = shown("de", BERLIN, time_element, WINTER)
    assert html == ('<time datetime="2027-01-06T16:25:00+00:00" title="Europe/Berlin">'
                    "Mi. 6. Jan. 2027, 17:25 MEZ</time>")


def test_mail_names_the_zone_in_the_recipient_s_language():
    assert shown("de", BERLIN, mail_time, SUMMER) == (
        "Di. 6. Juli 2027, 17:25 MESZ (Europe/Berlin)")
    assert shown("en", "UTC", mail_time, WINTER) == "Wed 6 Jan 2027, 16:25 UTC"


@pytest.mark.parametrize(("language", "ahead", "behind"), [
    ("en", "in 2 days", "3 hours ago"), ("de", "in 2 Tagen", "vor 3 Stunden")])
def test_relative_times(language, ahead, behind):
    now = WINTER - timedelta(days=2)
    assert shown(language, BERLIN, formats.relative_text, WINTER, now) == ahead
    now = WINTER + timedelta(hours=3)
    assert shown(language, BERLIN, formats.relative_text, WINTER, now) == behind


# --- numbers ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "share", "small", "chance"), [
    ("en", "58.3%", "0.3%", "21/36 (58.3%)"),
    ("de", "58,3\u00a0%", "0,3\u00a0%", "21/36 (58,3\u00a0%)"),
])
def test_percent_in_the_reader_s_locale(language, share, small, chance):
    with translation.override(language):
        assert percent(21 / 36) == share and percent(0.003) == small
        assert f"{exact_chance(21 / 36)} ({percent_filter(21 / 36)})" == chance
        assert svg_number(58.33) == "58.3"  # SVG and CSS numbers stay locale-independent


# --- pages -----------------------------------------------------------------------------------

def test_a_german_page_shows_the_deadline_in_mez_with_a_relative_time(page_world):
    Campaign.objects.filter(pk=page_world.campaign.pk).update(time_zone=BERLIN)
    anna = page_world.lg.a.user
    winter = datetime(timezone.now().year + 1, 1, 6, 16, 25, tzinfo=UTC)  # 17:25 MEZ
    Round.objects.filter(pk=page_world.rnd.pk).update(phase_deadline=winter)
    html = client_for(anna).get(page_world.url(), **GERMAN).content.decode()
    weekday = shown("de", BERLIN, formats.date_text, winter.date())[:3]
    assert (f'<span class="deadline">Frist: <time datetime="{winter.isoformat()}" '
            f'title="Europe/Berlin">{weekday} 6. Jan. {winter.year}, 17:25 MEZ</time>') in html
    soon = timezone.now().replace(microsecond=0) + timedelta(days=2, hours=1)
    Round.objects.filter(pk=page_world.rnd.pk).update(phase_deadline=soon)
    html = client_for(anna).get(page_world.url(), **GERMAN).content.decode()
    assert ">in 2 Tagen</strong>" in html  # shown until the script's live countdown runs
    assert soon.isoformat() not in re.sub(r'(datetime|data-countdown)="[^"]*"', "", html)


# --- plurals ---------------------------------------------------------------------------------

def _owed(language: str, bought: int, standing: int) -> str:
    item = {"kind": "declare", "bought": bought, "unused": bought, "standing": standing}
    with translation.override(language):
        html = render_to_string("web/_owed.html", {"item": item,
                                                   "campaign": SimpleNamespace(pk=1)})
    return " ".join(html.split())


def test_counts_in_a_sentence_take_their_plural_in_english():
    assert "1 of 1 army unused, 1 declaration standing." in _owed("en", 1, 1)
    assert "2 of 2 armies unused, 2 declarations standing." in _owed("en", 2, 2)
    assert "no attack army bought yet, no declaration yet." in _owed("en", 0, 0)


def test_counts_in_a_sentence_take_their_plural_in_german():
    one, two = _owed("de", 1, 1), _owed("de", 2, 2)
    assert "1 von 1 Armee ungenutzt, 1 bestehende Angriffserklärung." in one
    assert "2 von 2 Armeen ungenutzt, 2 bestehende Angriffserklärungen." in two
    assert "1 Angriffserklärungen" not in one


def _summary(language: str, kind: str, **data) -> str:
    stored = {"event": kind, "data": {"round": 3, **data},
              "campaign": {"time_zone": BERLIN}}
    with translation.override(language):
        return webhooks.summary(stored)


def test_webhook_summaries_count_with_plurals_and_never_say_0_of_0():
    assert _summary("en", "battles_created", battles=[{}]) == "Round 3: 1 battle."
    assert _summary("en", "battles_created", battles=[{}, {}]) == "Round 3: 2 battles."
    assert _summary("en", "conquest_results", rolls=[]) == "Round 3: no conquest rolls."
    assert _summary("de", "battles_created", battles=[{}]) == "Runde 3: 1 Schlacht."
    assert _summary("de", "battles_created", battles=[{}, {}]) == "Runde 3: 2 Schlachten."
    assert _summary("de", "conquest_results", rolls=[{"success": True}]) == (
        "Runde 3: 1 von 1 Eroberungswurf erfolgreich.")
    assert _summary("de", "conquest_results", rolls=[{"success": True}, {}]) == (
        "Runde 3: 1 von 2 Eroberungswürfen erfolgreich.")
    assert _summary("de", "conquest_results", rolls=[]) == "Runde 3: keine Eroberungswürfe."


def test_an_entered_wall_clock_time_is_shown_in_the_reader_s_format_not_iso():
    entered = datetime(2026, 10, 25, 2, 30)  # happens twice in Berlin: the form says so
    assert shown("de", BERLIN, formats.datetime_text, entered) == "So. 25. Okt. 2026, 02:30"
    assert shown("en", BERLIN, formats.datetime_text, entered) == "Sun 25 Oct 2026, 02:30"
