"""R-BAT-2: agreeing on a battle's date and place, and the iCalendar feeds parsed back with
``icalendar``: stable UIDs, SEQUENCE growing when a date moves, the secret-token feed."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from battles.models import Battle, ScheduleProposal
from campaigns.models import Round
from league.services.rounds import round_advance, round_set_deadline
from tests.battles.tabletop import events
from tests.factories import UserFactory
from tests.worlds import advance_to, api, declare, duel, row, tile

pytestmark = pytest.mark.django_db
HOST = settings.SITE_HOST  # UIDs carry the site's host


@pytest.fixture
def battle(lg):
    return duel(lg)


def later(days: float) -> datetime:
    return (timezone.now() + timedelta(days=days)).replace(microsecond=0)


def whole(at: datetime) -> datetime:
    """ICalendar times have whole seconds."""
    return at.replace(microsecond=0)


def propose(lg, battle, user, at: datetime, place: str = "Club house, table 2"):
    return api(user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                          {"proposed_at": at.isoformat(), "place": place}, format="json")


def accept(lg, battle, user, **body):
    return api(user).post(lg.url(f"battles/{battle.pk}/schedule/accept/"), body, format="json")


def feed(lg, user):
    response = api(user).get(lg.url("calendar.ics"))
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/calendar")
    return events(response.content)


def test_r_bat_2_propose_counter_and_accept(lg, battle):
    first = propose(lg, battle, lg.a.user, later(2))
    assert first.status_code == 201
    assert first.json()["proposed_by"] == lg.a.pk and first.json()["status"] == "proposed"
    shown = api(lg.c.user).get(lg.url(f"battles/{battle.pk}/")).json()["schedule_proposal"]
    assert shown["id"] == first.json()["id"] and shown["place"] == "Club house, table 2"
    counter = propose(lg, battle, lg.b.user, later(3), "Ben's garage")
    assert counter.status_code == 201
    assert ScheduleProposal.objects.get(pk=first.json()["id"]).status == "superseded"
    stale = accept(lg, battle, lg.b.user, proposal=first.json()["id"])
    assert stale.status_code == 409 and stale.json()["code"] == "proposal_superseded"
    own = accept(lg, battle, lg.b.user)
    assert own.status_code == 400 and own.json()["code"] == "R-BAT-2"
    done = accept(lg, battle, lg.a.user, proposal=counter.json()["id"])
    assert done.status_code == 200
    body = done.json()
    assert body["place"] == "Ben's garage" and body["schedule_proposal"] is None
    assert abs(datetime.fromisoformat(body["scheduled_at"]) - later(3)) < timedelta(seconds=5)
    assert accept(lg, battle, lg.a.user).json()["code"] == "no_proposal"


@pytest.mark.parametrize("payload", [
    {}, {"proposed_at": "tomorrow", "place": "Club"}, {"place": "Club"},
    {"proposed_at": "2020-01-01T18:00:00Z", "place": "Club"},
    {"proposed_at": "9999-12-31T23:59:59-14:00", "place": "Club"},
    {"proposed_at": "PLACEHOLDER", "place": "   "},
    {"proposed_at": "PLACEHOLDER", "place": "x" * 201},
    {"proposed_at": "PLACEHOLDER", "place": ["Club"]}, [],
])
def test_r_bat_2_bad_proposals_are_400(lg, battle, payload):
    if isinstance(payload, dict) and payload.get("proposed_at") == "PLACEHOLDER":
        payload = {**payload, "proposed_at": later(1).isoformat()}
    response = api(lg.a.user).post(lg.url(f"battles/{battle.pk}/schedule/"), payload,
                                   format="json")
    assert response.status_code == 400, response.content
    assert not ScheduleProposal.objects.exists()


def test_r_bat_2_who_and_when(lg, battle):
    url = lg.url(f"battles/{battle.pk}/schedule/")
    good = {"proposed_at": later(1).isoformat(), "place": "Club"}
    assert api().post(url, good, format="json").status_code == 401
    assert api(UserFactory()).post(url, good, format="json").status_code == 404
    assert api(lg.c.user).post(url, good, format="json").status_code == 403
    assert api(lg.admin).post(url, good, format="json").status_code == 403
    Round.objects.filter(pk=battle.round_id).update(phase="conquest")
    assert api(lg.a.user).post(url, good, format="json").status_code == 409


def test_r_bat_2_a_neutral_garrison_has_nobody_to_agree_with(lg):
    lg.set_rules(neutral_needs_battle=True)
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, None))
    advance_to(attack.round, "lists")
    battle = Battle.objects.get(attack=attack)
    response = propose(lg, battle, lg.a.user, later(1))
    assert response.status_code == 409 and response.json()["code"] == "no_opponent"


def test_r_bat_2_campaign_feed_has_the_battle_with_a_stable_uid_and_growing_sequence(lg,
                                                                                    battle):
    uid = f"battle-{battle.pk}@{HOST}"
    assert uid not in feed(lg, lg.c.user)  # not agreed yet
    propose(lg, battle, lg.a.user, later(2))
    accept(lg, battle, lg.b.user)
    event = feed(lg, lg.c.user)[uid]
    assert event.decoded("SEQUENCE") == 0
    agreed = Battle.objects.get(pk=battle.pk).scheduled_at
    assert event.decoded("DTSTART") == whole(agreed).astimezone(UTC)
    assert str(event["LOCATION"]) == "Club house, table 2"
    assert "anna vs ben" in str(event["SUMMARY"])
    # the same date and place again changes nothing
    propose(lg, battle, lg.b.user, datetime.fromisoformat(
        Battle.objects.get(pk=battle.pk).scheduled_at.isoformat()))
    accept(lg, battle, lg.a.user)
    assert feed(lg, lg.c.user)[uid].decoded("SEQUENCE") == 0
    # a new date: same UID, higher SEQUENCE, new start
    propose(lg, battle, lg.b.user, later(4), "Elsewhere")
    accept(lg, battle, lg.a.user)
    moved = feed(lg, lg.c.user)[uid]
    assert moved.decoded("SEQUENCE") == 1 and str(moved["LOCATION"]) == "Elsewhere"
    assert moved.decoded("DTSTART") > event.decoded("DTSTART")


def test_r_bat_2_feeds_carry_phase_deadlines_that_update(lg, battle):
    rnd = Round.objects.get(pk=battle.round_id)
    uid = f"deadline-{rnd.pk}-lists@{HOST}"
    first = feed(lg, lg.a.user)[uid]
    assert first.decoded("DTSTART") == whole(rnd.phase_deadline)
    assert first.decoded("SEQUENCE") == 0
    assert f"deadline-{rnd.pk}-declare@{HOST}" in feed(lg, lg.a.user)  # kept after the phase
    moved = rnd.phase_deadline + timedelta(hours=6)
    round_set_deadline(rnd=rnd, deadline=moved)
    again = feed(lg, lg.a.user)[uid]
    assert again.decoded("DTSTART") == whole(moved) and again.decoded("SEQUENCE") == 1
    assert feed(lg, lg.a.user)[uid].decoded("SEQUENCE") == 1  # reading twice bumps nothing
    early = timezone.now()
    round_advance(round_id=rnd.pk, expected_phase="lists", now=early)
    ended = feed(lg, lg.a.user)[uid]
    assert ended.decoded("DTSTART") == whole(early) and ended.decoded("SEQUENCE") == 2
    assert f"deadline-{rnd.pk}-battles@{HOST}" in feed(lg, lg.a.user)


def test_r_bat_2_campaign_feed_is_for_members(lg, battle):
    url = lg.url("calendar.ics")
    assert api().get(url).status_code == 401
    assert api(UserFactory()).get(url).status_code == 404
    assert api(lg.admin).get(url).status_code == 200
    lg.campaign.visibility = "public"
    lg.campaign.save()
    assert api(UserFactory()).get(url).status_code == 403
    response = api(lg.a.user).get(url, HTTP_ACCEPT="text/calendar")
    assert response.status_code == 200 and b"BEGIN:VCALENDAR" in response.content
    error = api().get(url, HTTP_ACCEPT="text/calendar")
    assert error.status_code == 401 and error.json()["code"] == "not_authenticated"


def test_r_bat_2_personal_feed_by_secret_token_without_login(lg, battle):
    propose(lg, battle, lg.a.user, later(2))
    accept(lg, battle, lg.b.user)
    mine = api(lg.b.user).get("/api/v1/me/calendar-token/").json()
    assert len(mine["token"]) >= 40 and mine["url"].endswith(f"token={mine['token']}")
    assert api(lg.b.user).get("/api/v1/me/calendar-token/").json()["token"] == mine["token"]
    response = api().get("/api/v1/me/calendar.ics", {"token": mine["token"]})
    assert response.status_code == 200
    found = events(response.content)
    assert f"battle-{battle.pk}@{HOST}" in found
    assert f"deadline-{battle.round_id}-lists@{HOST}" in found
    # carl plays in the campaign but not in this battle: deadlines only
    carl = api(lg.c.user).get("/api/v1/me/calendar-token/").json()["token"]
    carls = events(api().get("/api/v1/me/calendar.ics", {"token": carl}).content)
    assert f"battle-{battle.pk}@{HOST}" not in carls
    assert f"deadline-{battle.round_id}-lists@{HOST}" in carls
    # the token also opens the campaign feed for a calendar client
    assert api().get(lg.url("calendar.ics"), {"token": carl}).status_code == 200
    stranger = api(UserFactory()).get("/api/v1/me/calendar-token/").json()["token"]
    assert api().get(lg.url("calendar.ics"), {"token": stranger}).status_code == 404


@pytest.mark.parametrize("token", ["", "nope", "x" * 43, "x" * 5000])
def test_r_bat_2_a_bad_token_is_404(lg, battle, token):
    assert api().get("/api/v1/me/calendar.ics", {"token": token}).status_code == 404
    assert api().get(lg.url("calendar.ics"), {"token": token}).status_code == 404


def test_r_bat_2_no_token_is_404_and_regenerating_retires_the_old_one(lg, battle):
    assert api().get("/api/v1/me/calendar.ics").status_code == 404
    assert api().get("/api/v1/me/calendar-token/").status_code == 401
    old = api(lg.a.user).get("/api/v1/me/calendar-token/").json()["token"]
    new = api(lg.a.user).post("/api/v1/me/calendar-token/").json()["token"]
    assert new != old
    assert api().get("/api/v1/me/calendar.ics", {"token": old}).status_code == 404
    assert api().get("/api/v1/me/calendar.ics", {"token": new}).status_code == 200
