"""API: GET /campaigns/{id}/dashboard/ and POST /campaigns/{id}/nudges/,
campaign admins only; the same facts as the page (owed items as codes with battle ids, done,
away, last nudge, reliability) and nudges that say who was skipped and why."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from battles.services.results import battle_result_enter
from campaigns.models import Absence, Nudge, PhaseDone
from campaigns.selectors.absences import campaign_day
from tests.battles.tabletop import WIN
from tests.factories import PlayerFactory, UserFactory
from tests.worlds import advance_to, api, duel, make_league, with_emails

pytestmark = pytest.mark.django_db


def rows(response) -> dict[str, dict]:
    assert response.status_code == 200, response.content
    return {row["username"]: row for row in response.json()["players"]}


def test_dashboard_lists_owed_codes_done_away_and_reliability(lg):
    battle = duel(lg, "lists")
    PhaseDone.objects.create(round=battle.round, player=lg.b, phase="lists")
    today = campaign_day(lg.campaign, timezone.now())
    Absence.objects.create(player=lg.c, starts_on=today, ends_on=today)
    response = api(lg.admin).get(lg.url("dashboard/"))
    body = response.json()
    assert (body["round"], body["phase"], body["paused"]) == (1, "lists", False)
    players = rows(response)
    assert players["anna"]["owed"] == [{"kind": "army_list", "waits": True,
                                        "battle": battle.pk, "count": None, "answer": False}]
    assert players["anna"]["owes"] is True and players["anna"]["nudged_at"] is None
    assert players["ben"]["done"] is True and players["carl"]["away"] is True
    assert players["anna"]["reliability"] == {"on_time": 1, "defaulted": 0, "away": 0}
    assert players["carl"]["reliability"] == {"on_time": 0, "defaulted": 1, "away": 0}
    assert [a["player"] for a in body["absences"]] == [lg.c.pk]


def test_conquest_choices_are_visible(lg):
    battle = duel(lg, "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
    advance_to(battle.round, "conquest")
    players = rows(api(lg.admin).get(lg.url("dashboard/")))
    assert players["anna"]["owed"][0]["kind"] == "conquest_choice"
    assert players["anna"]["owed"][0]["count"] == 1 and players["ben"]["owed"] == []


def test_only_admins(lg, outsider):
    assert api(lg.a.user).get(lg.url("dashboard/")).status_code == 403
    assert api(outsider).get(lg.url("dashboard/")).status_code == 404
    assert api().get(lg.url("dashboard/")).status_code == 401
    assert api(lg.a.user).post(lg.url("nudges/"), {}, format="json").status_code == 403
    assert Nudge.objects.count() == 0


def test_nudges_answer_who_was_nudged_and_skipped(lg, django_capture_on_commit_callbacks):
    with_emails(lg)
    battle = duel(lg, "lists")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        first = api(lg.admin).post(lg.url("nudges/"), {"players": [lg.a.pk]}, format="json")
    assert first.status_code == 200, first.content
    assert first.json()["nudged"] == [lg.a.pk] and first.json()["phase"] == "lists"
    again = api(lg.admin).post(lg.url("nudges/"), {}, format="json").json()
    assert again["nudged"] == [lg.b.pk]
    [skipped] = again["skipped"]
    assert (skipped["player"], skipped["reason"]) == (lg.a.pk, "recently")
    assert skipped["until"] is not None
    assert len(mail.outbox) == 1  # the second call's mail waits for a commit in this test
    assert Nudge.objects.filter(round=battle.round).count() == 2


@pytest.mark.parametrize("body", [{"players": "anna"}, {"players": [0]}, {"players": [999999]},
                                  []])
def test_bad_nudge_input_is_a_400(lg, body):
    duel(lg, "lists")
    response = api(lg.admin).post(lg.url("nudges/"), body, format="json")
    assert response.status_code == 400, response.content
    assert "code" in response.json()


def test_nudges_outside_a_waiting_phase_or_paused_are_409(lg):
    assert api(lg.admin).post(lg.url("nudges/"), {}, format="json").status_code == 409
    lg.start()
    lg.campaign.paused_at = timezone.now()
    lg.campaign.save(update_fields=["paused_at"])
    response = api(lg.admin).post(lg.url("nudges/"), {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "paused"


def league_of(count: int):
    lg = make_league(players=tuple(f"q{count}-{i}" for i in range(count)), name=f"Q{count}")
    lg.start()
    return lg


def test_dashboard_queries_do_not_grow_with_players(django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for count in (2, 8):
        lg = league_of(count)
        for player in lg.players:
            Absence.objects.create(player=player, starts_on=campaign_day(
                lg.campaign, timezone.now()) + timedelta(days=1),
                ends_on=campaign_day(lg.campaign, timezone.now()) + timedelta(days=2))
        client = api(lg.admin)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(lg.url("dashboard/")).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    extra = PlayerFactory(campaign=lg.campaign, user=UserFactory(username="late"))
    assert extra.pk
    with django_assert_max_num_queries(counts[1]):
        api(lg.admin).get(lg.url("dashboard/"))
