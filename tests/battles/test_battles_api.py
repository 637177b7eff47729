"""The battles endpoints: list with filters, detail shape, visibility, constant query count
(API.md "Battles (tabletop)")."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns import cache
from tests.factories import BattleFactory, TileFactory, UserFactory
from tests.worlds import advance_to, api, declare, row, tile

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_battles(lg):
    """Round 1 in ``battles``: anna attacks ben's tile (result entered), carl attacks dora's."""
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    row(alpha, lg.c, (0,), r=3)
    ben, dora = tile(alpha, 1, 0, lg.b), tile(alpha, 1, 3, lg.d)
    rnd = lg.start()
    first, second = declare(lg.a, rnd, ben), declare(lg.c, rnd, dora)
    advance_to(rnd, "battles")
    battle = Battle.objects.get(attack=first)
    battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="defeat", attacker_vp=3,
                        defender_vp=9)
    return battle, Battle.objects.get(attack=second)


def _ids(response):
    assert response.status_code == 200, response.json()
    return [b["id"] for b in response.json()["results"]]


def test_battle_detail_shape(lg, two_battles):
    battle, _ = two_battles
    body = api(lg.c.user).get(lg.url(f"battles/{battle.pk}/")).json()
    assert set(body) == {"id", "round", "tile", "tile_name", "attacker", "defender", "neutral",
                         "chain_position", "chain_length", "status", "point_limits", "bonus",
                         "scheduled_at", "place", "schedule_proposal", "lists_submitted",
                         "lists_revealed", "result", "history", "chain_decision",
                         "chain_roll"}
    assert (body["round"], body["tile"], body["attacker"], body["defender"]) == (
        1, battle.tile_id, lg.a.pk, lg.b.pk)
    tile = battle.tile
    assert body["tile_name"] == f"{tile.planet.name} ({tile.q}, {tile.r})"  # unnamed: coordinates
    assert body["point_limits"] == {str(lg.a.pk): 1500, str(lg.b.pk): 1500}
    assert body["bonus"][str(lg.b.pk)] == {"base": 1500, "tiles": 0, "markers": 0,
                                           "total": 1500}
    assert body["schedule_proposal"] is None
    assert body["lists_submitted"] == {str(lg.a.pk): False, str(lg.b.pk): False}
    assert body["lists_revealed"] is True  # the lists phase is over
    assert body["result"] == {"outcome": "defeat", "attacker_vp": 3, "defender_vp": 9,
                              "status": "confirmed"}
    assert body["history"][0]["by"] == "orga"


def test_battles_list_filters(lg, two_battles):
    won_by_ben, open_one = two_battles
    url = lg.url("battles/")
    member = api(lg.d.user)
    assert _ids(member.get(url)) == [won_by_ben.pk, open_one.pk]
    assert _ids(member.get(url, {"round": 1})) == [won_by_ben.pk, open_one.pk]
    assert _ids(member.get(url, {"round": 2})) == []
    assert _ids(member.get(url, {"player": lg.b.pk})) == [won_by_ben.pk]  # as defender
    assert _ids(member.get(url, {"player": lg.c.pk})) == [open_one.pk]  # as attacker
    assert _ids(member.get(url, {"status": "open"})) == [open_one.pk]
    assert _ids(member.get(url, {"status": "done", "player": lg.a.pk})) == [won_by_ben.pk]
    assert member.get(url, {"page_size": 1}).json()["count"] == 2


@pytest.mark.parametrize("query", [{"round": "x"}, {"round": 0}, {"player": "ben"},
                                   {"status": "won"}, {"round": 10**20}])
def test_battles_list_rejects_bad_filters(lg, two_battles, query):
    response = api(lg.a.user).get(lg.url("battles/"), query)
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_battles_are_for_members(lg, two_battles):
    battle, _ = two_battles
    for path in ("battles/", f"battles/{battle.pk}/"):
        assert api().get(lg.url(path)).status_code == 401
        assert api(UserFactory()).get(lg.url(path)).status_code == 404
        assert api(lg.admin).get(lg.url(path)).status_code == 200
    lg.campaign.visibility = "public"
    lg.campaign.save()
    assert api(UserFactory()).get(lg.url("battles/")).status_code == 403


def test_unknown_or_foreign_battle_ids_are_404(lg, two_battles):
    foreign = BattleFactory()
    for bid in (foreign.pk, 999999, 10**15):
        assert api(lg.a.user).get(lg.url(f"battles/{bid}/")).status_code == 404
        assert api(lg.admin).post(lg.url(f"battles/{bid}/result/"), {},
                                  format="json").status_code == 404


def test_battles_list_query_count_is_constant(lg, two_battles):
    url = lg.url("battles/")

    def count_queries():
        client = api(User.objects.get(pk=lg.a.user_id))  # fresh: access checks cache per user
        cache.clear()  # the list's computing read, not its rows kept in memory
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries.captured_queries)

    small = count_queries()
    battle = two_battles[0]
    for n in range(12):
        more = BattleFactory(attack__round=battle.round, attack__player=lg.a,
                             attack__order=100 + n, defender=lg.b,
                             attack__tile=TileFactory(planet=battle.tile.planet, q=10 + n, r=7))
        battle_result_enter(battle=more, by_admin_user=lg.admin, outcome="draw", attacker_vp=1,
                            defender_vp=1)
        battle_result_enter(battle=more, by_admin_user=lg.admin, outcome="draw", attacker_vp=2,
                            defender_vp=2)
    assert api(lg.a.user).get(url).json()["count"] == 14
    assert count_queries() == small

