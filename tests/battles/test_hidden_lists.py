"""R-ARM-3, R-SEC-2: an army list stays hidden from the opponent until both are in or the lists
deadline passed - checked on every endpoint that shows a battle, including error answers and
the calendar feeds. The opponent's list has unit names and a total found nowhere else."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import Battle
from tests.battles.tabletop import entries_list
from tests.worlds import api, duel

pytestmark = pytest.mark.django_db
SECRET = entries_list(("Zyxwar Titan", 1000), ("Quorvex Lancers", 234), name="Obsidian Host")
SECRET_WORDS = ("Zyxwar", "Quorvex", "Obsidian")
SECRET_TOTAL = re.compile(r"\b1234\b")


@pytest.fixture
def battle(lg):
    """Anna's list is in; ben's is not. A date is agreed, so the battle is in the feeds."""
    battle = duel(lg)
    assert api(lg.a.user).post(lg.url(f"battles/{battle.pk}/army-list/"), SECRET,
                               format="json").status_code == 201
    when = (timezone.now() + timedelta(days=2)).isoformat()
    assert api(lg.a.user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                               {"proposed_at": when, "place": "Club"},
                               format="json").status_code == 201
    assert api(lg.b.user).post(lg.url(f"battles/{battle.pk}/schedule/accept/"), {},
                               format="json").status_code == 200
    return battle


def leaks(response) -> bool:
    text = response.content.decode()
    return any(word in text for word in SECRET_WORDS) or bool(SECRET_TOTAL.search(text))


def every_view_of(lg, battle, client):
    """Each endpoint that shows the battle (or answers about it), as ``client`` sees it."""
    base = f"battles/{battle.pk}/"
    token = client.get("/api/v1/me/calendar-token/").json()["token"]
    return {
        "list": client.get(lg.url("battles/")),
        "list filtered": client.get(lg.url("battles/"), {"player": lg.a.pk}),
        "detail": client.get(lg.url(base)),
        "army lists": client.get(lg.url(base + "army-list/")),
        "over-limit error": client.post(lg.url(base + "army-list/"),
                                        entries_list(("Stompa", 1600)), format="json"),
        "bad input error": client.post(lg.url(base + "army-list/"), {"name": "x"},
                                       format="json"),
        "result error": client.post(lg.url(base + "result/"), {}, format="json"),
        "confirm error": client.post(lg.url(base + "result/confirm/"), {}, format="json"),
        "schedule": client.post(lg.url(base + "schedule/"), {"place": ""}, format="json"),
        "campaign feed": client.get(lg.url("calendar.ics")),
        "personal feed": api().get("/api/v1/me/calendar.ics", {"token": token}),
    }


def test_r_arm_3_nothing_shows_the_opponents_list_before_the_reveal(lg, battle):
    for client in (api(lg.b.user), api(lg.c.user)):
        views = every_view_of(lg, battle, client)
        assert all(r.status_code < 500 for r in views.values())
        leaking = [name for name, response in views.items() if leaks(response)]
        assert leaking == []
    detail = api(lg.b.user).get(lg.url(f"battles/{battle.pk}/")).json()
    assert detail["lists_submitted"] == {str(lg.a.pk): True, str(lg.b.pk): False}
    assert detail["lists_revealed"] is False
    assert api(lg.b.user).get(lg.url(f"battles/{battle.pk}/army-list/")).json() == {
        "lists": []}


def test_r_arm_3_the_owner_and_the_admin_see_it_meanwhile(lg, battle):
    url = lg.url(f"battles/{battle.pk}/army-list/")
    assert leaks(api(lg.a.user).get(url)) and leaks(api(lg.admin).get(url))


def test_r_arm_3_once_both_are_in_the_opponent_sees_it_and_only_there(lg, battle):
    url = lg.url(f"battles/{battle.pk}/army-list/")
    assert api(lg.b.user).post(url, entries_list(("Boyz", 100)), format="json").status_code \
        == 201
    assert leaks(api(lg.b.user).get(url))
    assert not leaks(api(lg.c.user).get(lg.url(f"battles/{battle.pk}/")))
    assert api(lg.c.user).get(url).status_code == 403  # not a participant
    views = every_view_of(lg, battle, api(lg.b.user))
    assert [name for name, r in views.items() if leaks(r)] == ["army lists"]


def test_r_arm_3_the_deadline_reveals_without_the_opponents_list(lg, battle):
    url = lg.url(f"battles/{battle.pk}/army-list/")
    assert not leaks(api(lg.b.user).get(url))
    Battle.objects.filter(pk=battle.pk).update(lists_revealed_at=timezone.now())
    assert leaks(api(lg.b.user).get(url))


def test_r_sec_2_an_admin_playing_the_battle_sees_only_what_a_player_sees(lg, battle):
    lg.campaign.admins.add(lg.b.user)
    url = lg.url(f"battles/{battle.pk}/army-list/")
    assert api(lg.b.user).get(url).json() == {"lists": []}
    assert leaks(api(lg.admin).get(url))
