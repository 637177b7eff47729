"""GET /api/v1/campaigns/{id}/audit-log/: paginated like the other lists,
filters ``kind`` (a group or one kind) and ``round``; members read the public entries, the
campaign's admins all (with ``public``); queries do not grow with the entries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import AdminAction
from campaigns.services.admin_log import record
from tests.factories import UserFactory
from tests.worlds import api, make_league

pytestmark = pytest.mark.django_db
KEYS = {"id", "at", "actor", "kind", "target", "round", "before", "after", "reason"}


@pytest.fixture
def lg():
    lg = make_league()
    rnd = lg.start()
    c = lg.campaign
    record(campaign=c, actor=lg.admin, kind="result.enter", target="Alpha (1, 0)",
           before=None, after={"outcome": "draw", "attacker_vp": 1, "defender_vp": 1,
                               "status": "confirmed"}, round=rnd)
    record(campaign=c, actor=None, kind="round.advance", target="Round 1",
           before={"phase": "declare"}, after={"phase": "fleets"})
    record(campaign=c, actor=lg.admin, kind="hazard.create", target="Maw", public=False,
           after={"name": "Maw"})
    return lg


def log(lg, user, query=""):
    return api(user).get(lg.url(f"audit-log/{query}"))


def test_members_get_public_entries_without_the_public_flag(lg):
    body = log(lg, lg.b.user).json()
    assert body["count"] == 2 and {"next", "previous"} <= body.keys()
    kinds = [e["kind"] for e in body["results"]]
    assert kinds == ["round.advance", "result.enter"]  # newest first; no hazard
    advance, entered = body["results"]
    assert set(advance) == KEYS and advance["actor"] is None  # automatic
    assert entered["actor"] == "orga" and entered["round"] == 1
    assert entered["before"] is None and entered["after"]["outcome"] == "draw"


def test_admins_get_every_entry_with_the_public_flag(lg):
    results = log(lg, lg.admin).json()["results"]
    assert [(e["kind"], e["public"]) for e in results] == [
        ("hazard.create", False), ("round.advance", True), ("result.enter", True)]


def test_filters_by_group_kind_and_round(lg):
    assert [e["kind"] for e in log(lg, lg.admin, "?kind=results").json()["results"]] == [
        "result.enter"]
    assert [e["kind"] for e in log(lg, lg.admin, "?kind=round.advance").json()["results"]] \
        == ["round.advance"]
    assert log(lg, lg.admin, "?kind=map").json()["count"] == 1
    assert log(lg, lg.b.user, "?kind=map").json()["count"] == 0
    assert log(lg, lg.admin, "?round=1").json()["count"] == 3
    assert log(lg, lg.admin, "?round=2").json()["count"] == 0


@pytest.mark.parametrize("query", ["?kind=DROP%20TABLE", "?round=0", "?round=x",
                                   "?kind=" + "a" * 41])
def test_bad_filters_are_400(lg, query):
    response = log(lg, lg.admin, query)
    assert response.status_code == 400 and {"detail", "code"} <= response.json().keys()


def test_outsiders_do_not_read_it(lg):
    assert log(lg, UserFactory()).status_code == 404  # private campaign: not seen at all
    assert log(lg, None).status_code == 401
    public = make_league(visibility="public", name="Open", admin="orga2",
                         players=("p1", "p2"))
    assert log(public, UserFactory()).status_code == 403


def test_paginated(lg):
    AdminAction.objects.bulk_create(AdminAction(campaign=lg.campaign, kind="tile.update",
                                                target=f"T{n}") for n in range(7))
    body = log(lg, lg.admin, "?page_size=4&page=2").json()
    assert body["count"] == 10 and len(body["results"]) == 4 and body["previous"]


def _queries(lg, count: int) -> int:
    AdminAction.objects.filter(campaign=lg.campaign).delete()
    rnd = lg.campaign.rounds.first()
    AdminAction.objects.bulk_create(
        AdminAction(campaign=lg.campaign, actor=lg.admin if n % 2 else None, round=rnd,
                    kind="round.advance", target=f"T{n}", after={"phase": "lists"})
        for n in range(count))
    client = api(lg.admin)
    client.get(lg.url("audit-log/"))  # warm the per-process caches
    with CaptureQueriesContext(connection) as queries:
        assert client.get(lg.url("audit-log/")).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_the_entries(lg):
    # a first page shorter than the page size counts itself (one query fewer).
    assert _queries(lg, 5) + 1 == _queries(lg, 60) == _queries(lg, 200)
