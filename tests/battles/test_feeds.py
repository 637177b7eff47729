"""Calendar feeds (R-BAT-2) as calendar clients meet them: battles decided before
their date are cancelled, a campaign rename reaches every event, conditional GETs, any Accept
a calendar client sends, UIDs qualified with the site's host, the schema declaring the feed a
string, and a query count that does not grow with the battles."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from battles.apps import site_host_check
from battles.models import Battle, CalendarDeadline, ResultChange
from battles.services.feeds import deadlines_sync
from battles.services.results import battle_result_enter
from battles.services.schedule import schedule_accept, schedule_propose
from campaigns.models import Campaign, Player, Round
from campaigns.services.campaigns import campaign_update
from config.settings import first_host
from tests.battles.ics import text_values
from tests.battles.tabletop import WIN, events
from tests.factories import AttackFactory, BattleFactory, PlayerFactory, TileFactory
from tests.worlds import advance_to, api, duel, make_league

pytestmark = pytest.mark.django_db


def later(days: float) -> datetime:
    return (timezone.now() + timedelta(days=days)).replace(microsecond=0)


def whole(at: datetime) -> datetime:
    return at.replace(microsecond=0).astimezone(UTC)


def uid(battle: Battle) -> str:
    return f"battle-{battle.pk}@{settings.SITE_HOST}"


def agree(lg, battle: Battle, at: datetime, place: str = "Club") -> Battle:
    assert api(lg.a.user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                               {"proposed_at": at.isoformat(), "place": place},
                               format="json").status_code == 201
    assert api(lg.b.user).post(lg.url(f"battles/{battle.pk}/schedule/accept/"), {},
                               format="json").status_code == 200
    return Battle.objects.get(pk=battle.pk)


def campaign_feed(lg, **headers):
    return api(lg.c.user).get(lg.url("calendar.ics"), **headers)


def event_of(lg, battle: Battle):
    response = campaign_feed(lg)
    assert response.status_code == 200, response.content
    return events(response.content)[uid(battle)]


def report(lg, battle: Battle, user, action: str = "", body=None):
    path = f"battles/{battle.pk}/result/" + (f"{action}/" if action else "")
    response = api(user).post(lg.url(path), body or {}, format="json")
    assert response.status_code == 200, response.content
    return response


@pytest.fixture
def dated(lg):
    """Anna attacks ben; they agreed on a date two days ahead, an hour ago (so a change now
    has a later DTSTAMP: iCalendar times have whole seconds)."""
    battle = agree(lg, duel(lg), later(2))
    hour_ago = timezone.now() - timedelta(hours=1)
    Battle.objects.filter(pk=battle.pk).update(schedule_changed_at=hour_ago)
    CalendarDeadline.objects.update(changed_at=hour_ago)
    return Battle.objects.get(pk=battle.pk)


# --- a battle decided before its date ---------------------------------------------------------

def test_r_bat_2_a_battle_decided_before_its_date_is_cancelled_with_a_higher_sequence(lg, dated):
    planned = event_of(lg, dated)
    assert str(planned["STATUS"]) == "CONFIRMED" and planned.decoded("SEQUENCE") == 0
    advance_to(dated.round, "battles")
    assert event_of(lg, dated).decoded("SEQUENCE") == 0  # a phase change is no event change
    report(lg, dated, lg.a.user, body=WIN)  # played early: the date will not happen
    first = ResultChange.objects.filter(battle=dated).earliest("at").at
    cancelled = event_of(lg, dated)
    assert str(cancelled["STATUS"]) == "CANCELLED" and str(cancelled["TRANSP"]) == "TRANSPARENT"
    assert cancelled.decoded("SEQUENCE") == 1
    assert cancelled.decoded("DTSTAMP") == cancelled.decoded("LAST-MODIFIED") == whole(first)
    assert cancelled.decoded("DTSTAMP") > planned.decoded("DTSTAMP")
    assert cancelled.decoded("DTSTART") == planned.decoded("DTSTART")
    assert "Decided before this date" in str(cancelled["DESCRIPTION"])
    assert "victory" not in campaign_feed(lg).content.decode().lower()  # no result shown
    # confirming, then correcting, changes the result but not the event: SEQUENCE stays
    report(lg, dated, lg.b.user, "confirm")
    battle_result_enter(battle=dated, by_admin_user=lg.admin, outcome="victory",
                        attacker_vp=13, defender_vp=4)
    again = event_of(lg, dated)
    assert again.decoded("SEQUENCE") == 1 and again.decoded("DTSTAMP") == whole(first)


def test_r_bat_2_a_battle_played_on_its_date_stays_as_it_was(lg):
    battle = duel(lg)
    past = timezone.now() - timedelta(days=3)
    at = (timezone.now() - timedelta(hours=1)).replace(microsecond=0)
    schedule_propose(battle=battle, player=lg.a, proposed_at=at, place="Club", now=past)
    schedule_accept(battle=battle, player=lg.b, now=past)
    advance_to(battle.round, "battles")
    before = event_of(lg, battle)
    report(lg, battle, lg.a.user, body=WIN)  # reported after the battle began
    after = event_of(lg, battle)
    assert str(after["STATUS"]) == "CONFIRMED" and str(after["TRANSP"]) == "OPAQUE"
    assert after.decoded("SEQUENCE") == before.decoded("SEQUENCE") == 0
    assert after.decoded("DTSTAMP") == before.decoded("DTSTAMP")


def test_r_rnd_3_a_battle_defaulted_before_its_date_is_cancelled(lg):
    """A date after the battles deadline: the deadline gives the unplayed battle its default
    result (R-RND-3) before the date, so the date is off."""
    battle = agree(lg, duel(lg), later(60))
    advance_to(battle.round, "closed")  # the default is a defeat: no conquest phase opens
    event = event_of(lg, battle)
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.DONE
    assert str(event["STATUS"]) == "CANCELLED" and event.decoded("SEQUENCE") == 1


# --- renaming the campaign ----------------------------------------------------------------------

def test_r_bat_2_renaming_the_campaign_bumps_every_event(lg, dated):
    rnd = Round.objects.get(pk=dated.round_id)
    deadline = f"deadline-{rnd.pk}-lists@{settings.SITE_HOST}"
    before = events(campaign_feed(lg).content)
    campaign_update(campaign=lg.campaign, name="Liga; Nord, 2025")
    renamed_at = Campaign.objects.get(pk=lg.campaign.pk).name_changed_at
    response = campaign_feed(lg)
    after = events(response.content)
    assert text_values(response.content, "X-WR-CALNAME") == ["Liga; Nord, 2025"]
    for key in (uid(dated), deadline):
        assert after[key].decoded("SEQUENCE") == before[key].decoded("SEQUENCE") + 1
        assert after[key].decoded("DTSTAMP") == whole(renamed_at) > before[key].decoded("DTSTAMP")
    assert "Campaign: Liga; Nord, 2025" in str(after[uid(dated)]["DESCRIPTION"])
    assert str(after[deadline]["SUMMARY"]).startswith("Liga; Nord, 2025: ")
    # the same name again, or another setting, is no rename
    campaign_update(campaign=lg.campaign, name="Liga; Nord, 2025", visibility="public")
    assert campaign_feed(lg).content == response.content
    # a second rename bumps again: SEQUENCE only grows
    campaign_update(campaign=lg.campaign, name="Liga Süd")
    assert events(campaign_feed(lg).content)[uid(dated)].decoded("SEQUENCE") == 2


def test_r_bat_2_the_api_rename_counts_too(lg, dated):
    response = api(lg.admin).patch(lg.url(""), {"name": "Neu, Nord"}, format="json")
    assert response.status_code == 200, response.content
    assert event_of(lg, dated).decoded("SEQUENCE") == 1


# --- conditional GET --------------------------------------------------------------------------

def personal_feed(lg, **headers):
    token = api(lg.a.user).get("/api/v1/me/calendar-token/").json()["token"]
    return api().get("/api/v1/me/calendar.ics", {"token": token}, **headers)


@pytest.mark.parametrize("fetch", [campaign_feed, personal_feed], ids=["campaign", "personal"])
def test_r_bat_2_feeds_answer_conditional_gets_with_304(lg, dated, fetch):
    first = fetch(lg)
    assert first.status_code == 200
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag.startswith('"') and etag.endswith('"')
    assert fetch(lg)["ETag"] == etag  # the same data: the same validator
    for headers in ({"HTTP_IF_NONE_MATCH": etag}, {"HTTP_IF_MODIFIED_SINCE": modified},
                    {"HTTP_IF_NONE_MATCH": f'"other", {etag}'},
                    {"HTTP_IF_NONE_MATCH": f"W/{etag}"}):
        unchanged = fetch(lg, **headers)
        assert unchanged.status_code == 304, headers
        assert unchanged.content == b""
        assert unchanged["ETag"] == etag and unchanged["Last-Modified"] == modified
    older = http_date((datetime.fromisoformat("2020-01-01T00:00:00+00:00")).timestamp())
    assert fetch(lg, HTTP_IF_MODIFIED_SINCE=older).status_code == 200
    assert fetch(lg, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    # If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)
    assert fetch(lg, HTTP_IF_NONE_MATCH='"other"',
                 HTTP_IF_MODIFIED_SINCE=modified).status_code == 200
    # a new date: a new ETag, and the old validators get the whole feed
    agree(lg, dated, later(5), "Elsewhere")
    changed = fetch(lg, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert b"Elsewhere" in changed.content


def test_r_bat_2_joining_a_campaign_moves_the_personal_feeds_last_modified(lg, dated):
    """A campaign joined later brings deadlines set long before: If-Modified-Since must not
    hide them, so the personal feed's Last-Modified counts the user's joins."""
    other = make_league(name="Second", admin="orga2", players=("zoe", "yan"))
    other.start()
    long_ago = timezone.now() - timedelta(days=30)
    CalendarDeadline.objects.filter(round__campaign=other.campaign).update(changed_at=long_ago)
    Campaign.objects.filter(pk=other.campaign.pk).update(created_at=long_ago)
    first = personal_feed(lg)
    assert b"Second" not in first.content
    PlayerFactory(campaign=other.campaign, user=lg.a.user)
    Player.objects.filter(campaign=other.campaign, user=lg.a.user).update(
        joined_at=timezone.now() + timedelta(seconds=2))  # HTTP dates have whole seconds
    again = personal_feed(lg, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 200
    assert "Second: Round 1: end of the “Declare” phase" in {
        str(event["SUMMARY"]) for event in events(again.content).values()}


# --- Accept -----------------------------------------------------------------------------------

@pytest.mark.parametrize("accept", [None, "text/calendar", "application/ics", "text/plain",
                                    "*/*", "text/*", "text/calendar; charset=utf-8",
                                    "application/json", "text/html,application/xhtml+xml"])
@pytest.mark.parametrize("fetch", [campaign_feed, personal_feed], ids=["campaign", "personal"])
def test_r_bat_2_any_accept_gets_the_calendar(lg, dated, fetch, accept):
    response = fetch(lg, **({"HTTP_ACCEPT": accept} if accept else {}))
    assert response.status_code == 200, (accept, response.content)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response.content.startswith(b"BEGIN:VCALENDAR")


def test_r_bat_2_errors_stay_json_whatever_is_accepted(lg):
    error = api().get(lg.url("calendar.ics"), HTTP_ACCEPT="application/ics")
    assert error.status_code == 401 and error.json()["code"] == "not_authenticated"
    missing = api().get("/api/v1/me/calendar.ics", {"token": "x" * 43}, HTTP_ACCEPT="text/plain")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"


# --- UIDs -------------------------------------------------------------------------------------

@override_settings(SITE_HOST="club.example.org", ALLOWED_HOSTS=["club.example.org", "10.0.0.5"])
def test_r_bat_2_uids_carry_the_configured_host_however_the_client_connects(lg, dated):
    rnd = Round.objects.get(pk=dated.round_id)
    for host in ("club.example.org", "10.0.0.5"):
        found = events(api(lg.c.user).get(lg.url("calendar.ics"), HTTP_HOST=host).content)
        assert f"battle-{dated.pk}@club.example.org" in found
        assert f"deadline-{rnd.pk}-lists@club.example.org" in found
        assert not any(key.endswith("@feldzug") or key.endswith("@10.0.0.5") for key in found)


@pytest.mark.parametrize("hosts, expected", [
    (["feldzug.example.org", "localhost"], "feldzug.example.org"),
    ([".example.org"], "example.org"), (["*", "Club.Example.org"], "club.example.org"),
    (["*"], "localhost"), ([], "localhost"),
])
def test_r_bat_2_the_site_host_defaults_to_the_first_allowed_host(hosts, expected):
    assert first_host(hosts) == expected


# --- the schema -------------------------------------------------------------------------------

def test_r_bat_2_the_schema_declares_the_feeds_as_strings(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/v1/campaigns/{campaign_id}/calendar.ics", "/api/v1/me/calendar.ics"):
        get = schema["paths"][path]["get"]
        assert get["responses"]["200"]["content"] == {"text/calendar": {"schema": {
            "type": "string"}}}
        assert "304" in get["responses"] and "content" not in get["responses"]["304"]
        headers = {p["name"] for p in get["parameters"] if p["in"] == "header"}
        assert headers == {"If-None-Match", "If-Modified-Since"}


# --- query count ------------------------------------------------------------------------------

def more_battles(lg, battle: Battle, count: int) -> None:
    """``count`` more dated battles in ``battle``'s round, every other one decided early."""
    for index in range(count):
        target = TileFactory(planet=battle.tile.planet, q=20 + index, r=0, owner=lg.c)
        attack = AttackFactory(round=battle.round, player=lg.a, tile=target, order=10 + index)
        other = BattleFactory(attack=attack, defender=lg.c, scheduled_at=later(3),
                              place="Club", schedule_changed_at=timezone.now())
        if index % 2:
            ResultChange.objects.create(battle=other, by=None, old=None, new={"x": 1})


@pytest.mark.parametrize("fetch", [campaign_feed, personal_feed], ids=["campaign", "personal"])
def test_r_bat_2_a_feed_takes_the_same_queries_however_many_battles(lg, dated, fetch):
    fetch(lg)  # first use: the token and the deadline rows are made

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert fetch(lg).status_code == 200
        return len(queries)

    few = count()
    more_battles(lg, dated, 6)
    assert len(events(fetch(lg).content)) >= 7
    assert count() == few


def test_r_bat_2_a_feed_writes_a_deadline_only_where_it_moved(lg):
    """Bringing the deadlines of many rounds up to date is one read, and a write
    only for a deadline that moved (its sequence grows once) or is missing."""
    rounds = [make_league(name=f"Side {i}", admin="orga", players=(f"p{i}",)).start()
              for i in range(3)]
    now = timezone.now()

    def sync() -> int:
        with CaptureQueriesContext(connection) as queries:
            deadlines_sync(Round.objects.filter(pk__in=[r.pk for r in rounds]), now)
        return len(queries)

    def published(rnd) -> tuple:
        row = CalendarDeadline.objects.get(round=rnd, phase="declare")
        return row.at, row.sequence

    assert sync() == 2  # the rounds and their published deadlines: nothing moved
    moved = later(9)
    Round.objects.filter(pk=rounds[1].pk).update(phase_deadline=moved)
    CalendarDeadline.objects.filter(round=rounds[2]).delete()
    sync()
    assert published(rounds[0])[1] == 0 and published(rounds[1]) == (moved, 1)
    assert published(rounds[2]) == (rounds[2].phase_deadline, 0)
    assert sync() == 2 and published(rounds[1]) == (moved, 1)


@pytest.mark.parametrize("host, errors", [("club.example.org", 0), ("[::1]", 0),
                                          ("https://club.example.org/", 1), ("a b", 1)])
def test_r_bat_2_manage_py_check_refuses_a_site_host_that_makes_no_uid(host, errors):
    with override_settings(SITE_HOST=host):
        found = site_host_check()
    assert len(found) == errors and all(e.id == "battles.E001" for e in found)
