"""The audit log page (/campaigns/<id>/log/): named "Audit log" /
"Protokoll", linked from the campaign's tabs for members and from the manage page; members
read the public entries, admins all; filtered by kind group and round; every kind labelled in
English and German; "automatic" for entries without an actor; queries do not grow."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import AdminAction
from campaigns.services.admin_log import record
from tests.worlds import client_for, make_league
from web.presenters.admin_log import KIND_LABELS

pytestmark = pytest.mark.django_db
NEW_KINDS = ("result.enter", "result.correct", "dispute.settle", "campaign.update",
             "ruleset.update", "round.advance", "round.early_advance", "round.deadline",
             "round.extend", "campaign.pause", "campaign.resume", "nudge", "campaign.export",
             "sandbox.create", "absence.create", "absence.delete", "player.add",
             "player.remove")
DEADLINE = datetime(2026, 12, 2, 19, 0, tzinfo=UTC)  # 20:00 in Berlin


@pytest.fixture
def lg():
    lg = make_league()
    rnd = lg.start()
    c = lg.campaign
    record(campaign=c, actor=lg.admin, kind="result.correct", target="Alpha (1, 0): A – B",
           before={"outcome": "victory", "attacker_vp": 12, "defender_vp": 4,
                   "status": "confirmed"},
           after={"outcome": "draw", "attacker_vp": 8, "defender_vp": 8, "status": "confirmed"})
    record(campaign=c, actor=None, kind="round.early_advance", target="Round 1",
           before={"phase": "declare"}, after={"phase": "lists"})
    record(campaign=c, actor=lg.admin, kind="round.deadline", target="Round 1",
           before={"deadline": "2026-12-01T19:00:00+00:00"},
           after={"deadline": DEADLINE.isoformat()})
    record(campaign=c, actor=lg.admin, kind="nudge", target="anna", public=False,
           after={"players": ["anna"]})
    record(campaign=c, actor=lg.admin, kind="ruleset.update", target=c.name,
           before={"confirm_hours": 48}, after={"confirm_hours": 12}, round=rnd)
    return lg


def page(lg, user, query="", **headers):
    return client_for(user).get(f"/campaigns/{lg.campaign.pk}/log/{query}", **headers)


def test_every_kind_has_a_label_in_english_and_german():
    from django.utils import translation

    for kind in NEW_KINDS:
        assert kind in KIND_LABELS, kind
        with translation.override("de"):
            german = str(KIND_LABELS[kind])
        assert german != str(KIND_LABELS[kind]), f"{kind} is not translated"


def test_members_read_public_entries_worded(lg):
    html = page(lg, lg.b.user).content.decode()
    assert "Audit log" in html
    assert "Result corrected" in html and "Result: Victory 12 : 4 (confirmed) → Draw 8 : 8 " \
        "(confirmed)" in html
    assert "Phase advanced early" in html and "automatic" in html
    assert "Phase: Declare → Army lists" in html
    assert "Hours to confirm: 48 → 12" in html
    assert 'datetime="2026-12-02T19:00:00+00:00"' in html  # shown in the reader's zone
    assert "Players nudged" not in html  # admin-only


def test_admins_read_every_entry(lg):
    html = page(lg, lg.admin).content.decode()
    assert "Players nudged" in html and "(admins only)" in html


def test_german(lg):
    html = page(lg, lg.b.user, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Protokoll" in html and "Ergebnis korrigiert" in html and "automatisch" in html
    assert "Sieg 12 : 4" in html


def test_a_round_target_reads_in_the_readers_language(lg):
    """The round services write their target as "round N" (league/services/rounds.py)."""
    record(campaign=lg.campaign, actor=lg.admin, kind="round.advance", target="round 7",
           before={"phase": "declare"}, after={"phase": "fleets"})
    assert "Runde 7" in page(lg, lg.b.user, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "round 7" in page(lg, lg.b.user).content.decode()


def test_filters_by_group_and_round(lg):
    results = page(lg, lg.admin, "?kind=results").content.decode()
    assert "Result corrected" in results and "Ruleset changed" not in results
    settings = page(lg, lg.admin, "?kind=settings&round=1").content.decode()
    assert "Ruleset changed" in settings and "Result corrected" not in settings
    assert page(lg, lg.admin, "?round=7").status_code == 200  # an unknown round: all
    assert page(lg, lg.admin, "?kind=nonsense").status_code == 200


def test_linked_from_the_tabs_and_the_manage_page(lg):
    url = f"/campaigns/{lg.campaign.pk}/log/"
    assert url in client_for(lg.b.user).get(f"/campaigns/{lg.campaign.pk}/").content.decode()
    assert url in client_for(lg.admin).get(f"/campaigns/{lg.campaign.pk}/manage/") \
        .content.decode()


def _queries(lg, count: int) -> int:
    AdminAction.objects.filter(campaign=lg.campaign).delete()
    AdminAction.objects.bulk_create(
        AdminAction(campaign=lg.campaign, actor=lg.admin if n % 2 else None,
                    round=lg.campaign.rounds.first(), kind="result.correct", target=f"T{n}",
                    before={"outcome": "victory", "attacker_vp": n, "defender_vp": 0,
                            "status": "confirmed"}, after=None)
        for n in range(count))
    client = client_for(lg.admin)
    client.get(f"/campaigns/{lg.campaign.pk}/log/")  # warm the per-process caches
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/campaigns/{lg.campaign.pk}/log/?kind=results").status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_the_entries(lg):
    assert _queries(lg, 5) == _queries(lg, 50)


def test_facts_of_the_other_kinds_read_naturally():
    from django.utils import translation

    from web.presenters.admin_log import change_rows

    with translation.override("en"):
        [resumed] = change_rows({"paused_at": "2026-12-01T19:00:00+00:00"}, None,
                                "campaign.resume")
        assert resumed["field"] == "Paused since" and resumed["before_at"] == datetime(
            2026, 12, 1, 19, tzinfo=UTC) and resumed["after"] == "—"
        extended = change_rows(None, {"hours": 24, "deadline": DEADLINE.isoformat(),
                                      "left_seconds": 3700}, "round.extend")
        assert [r["field"] for r in extended] == ["Hours", "Deadline", "Time left"]
        assert extended[0]["after"] == "24" and extended[1]["after_at"] == DEADLINE
        assert extended[2]["after"] == "1 h 01 min"
        [started] = change_rows({"phase": None}, {"phase": "declare"}, "round.advance")
        assert (started["before"], started["after"]) == ("—", "Declare")
    with translation.override("de"):
        away = change_rows(None, {"from": "2026-12-01", "to": "2026-12-03"}, "absence.create")
        assert [(r["field"], r["after"]) for r in away] == [("Von", "Di. 1. Dez. 2026"),
                                                           ("Bis", "Do. 3. Dez. 2026")]
        [rules] = change_rows({"unplayed_outcome": "defender_holds"},
                              {"unplayed_outcome": "attacker_wins"}, "ruleset.update")
        assert rules["before"] != "defender_holds"  # the form's label, translated
