"""Absences (R-RND-3) in the API: GET/POST /campaigns/{id}/absences/ and DELETE
/absences/{aid}/. Members see everyone's dates; a note only its player and the campaign
admins (null for others); a player adds their own, an admin anyone's; refusals are 4xx naming
R-RND-3 and ``absence_days``; the list takes the same queries for 2 or 20 absences."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns.models import Absence, Profile
from campaigns.selectors.absences import campaign_day
from tests.factories import PlayerFactory, UserFactory
from tests.worlds import api

pytestmark = pytest.mark.django_db


def today(lg):
    return campaign_day(lg.campaign, timezone.now())


def body(lg, start: int, days: int = 1, **extra) -> dict:
    first = today(lg) + timedelta(days=start)
    return {"starts_on": first.isoformat(),
            "ends_on": (first + timedelta(days=days - 1)).isoformat(), **extra}


def test_a_player_marks_their_days_and_everyone_sees_the_dates_not_the_note(league):
    lg = league
    response = api(lg.a.user).post(lg.url("absences/"), body(lg, 2, 3, note="Hospital visit"),
                                   format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert (created["player"], created["days"], created["note"]) == (lg.a.pk, 3,
                                                                     "Hospital visit")
    for user, note in ((lg.a.user, "Hospital visit"), (lg.admin, "Hospital visit"),
                       (lg.b.user, None)):
        (row,) = api(user).get(lg.url("absences/")).json()["results"]
        assert row["starts_on"] == body(lg, 2)["starts_on"] and row["note"] == note
    assert "Hospital visit" not in api(lg.b.user).get(lg.url("absences/")).content.decode()


def test_an_admin_marks_a_player_away_a_player_only_themselves(league):
    lg = league
    by_admin = api(lg.admin).post(lg.url("absences/"), body(lg, 1, player=lg.b.pk),
                                  format="json")
    assert by_admin.status_code == 201 and by_admin.json()["player"] == lg.b.pk
    refused = api(lg.a.user).post(lg.url("absences/"), body(lg, 1, player=lg.b.pk),
                                  format="json")
    assert refused.status_code == 403
    seatless = api(lg.admin).post(lg.url("absences/"), body(lg, 1), format="json")
    assert seatless.status_code == 400 and seatless.json()["errors"]["player"]


@pytest.mark.parametrize(("payload", "status", "code"), [
    ({"starts_on": "2020-01-01", "ends_on": "2020-01-02"}, 400, "absence_past"),
    ({"starts_on": "not a date", "ends_on": "2020-01-02"}, 400, "invalid"),
])
def test_bad_dates_are_400(league, payload, status, code):
    response = api(league.a.user).post(league.url("absences/"), payload, format="json")
    assert response.status_code == status and response.json()["code"] == code


def test_over_the_cap_or_off_is_409_naming_the_key(league):
    lg = league
    lg.set_rules(absence_days=2)
    assert api(lg.a.user).post(lg.url("absences/"), body(lg, 1, 2), format="json") \
        .status_code == 201
    over = api(lg.a.user).post(lg.url("absences/"), body(lg, 5), format="json")
    assert over.status_code == 409 and over.json()["code"] == "absence_days"
    assert "R-RND-3" in over.json()["detail"] and "absence_days" in over.json()["detail"]
    lg.set_rules(absence_days=0)
    off = api(lg.b.user).post(lg.url("absences/"), body(lg, 1), format="json")
    assert off.status_code == 409 and off.json()["code"] == "absences_off"


def test_delete_future_204_current_cut_200_others_403(league):
    lg = league
    future = Absence.objects.create(player=lg.a, starts_on=today(lg) + timedelta(days=4),
                                    ends_on=today(lg) + timedelta(days=5))
    current = Absence.objects.create(player=lg.a, starts_on=today(lg) - timedelta(days=2),
                                     ends_on=today(lg) + timedelta(days=2))
    assert api(lg.b.user).delete(lg.url(f"absences/{future.pk}/")).status_code == 403
    assert api(lg.a.user).delete(lg.url(f"absences/{future.pk}/")).status_code == 204
    cut = api(lg.a.user).delete(lg.url(f"absences/{current.pk}/"))
    assert cut.status_code == 200
    assert cut.json()["ends_on"] == (today(lg) - timedelta(days=1)).isoformat()
    again = api(lg.admin).delete(lg.url(f"absences/{current.pk}/"))
    assert again.status_code == 409 and again.json()["code"] == "absence_over"


def test_another_campaigns_absence_is_404(league):
    other = PlayerFactory(user=UserFactory(username="stranger"))
    absence = Absence.objects.create(player=other, starts_on=today(league) + timedelta(days=2),
                                     ends_on=today(league) + timedelta(days=2))
    response = api(league.admin).delete(league.url(f"absences/{absence.pk}/"))
    assert response.status_code == 404


def _list_queries(lg) -> int:
    client = api(lg.b.user)
    client.get(lg.url("absences/"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(lg.url("absences/"))
    assert response.status_code == 200
    return len(queries)


def test_the_list_takes_the_same_queries_for_2_or_20_absences(league):
    lg = league
    for i, player in enumerate(lg.players):
        Profile.objects.get_or_create(user=player.user, defaults={"display_name": f"P{i}"})
    start = today(lg) + timedelta(days=1)
    for player in lg.players[:2]:
        Absence.objects.create(player=player, starts_on=start, ends_on=start, note="x")
    few = _list_queries(lg)
    for player in lg.players:
        for week in range(1, 6):
            day = start + timedelta(days=7 * week)
            Absence.objects.create(player=player, starts_on=day, ends_on=day, note="y")
    assert Absence.objects.count() == 22
    assert _list_queries(lg) == few
