"""The API at league scale: responses are gzip-compressed for clients that accept it
(conditional GETs still answer 304), the battles list builds its rows without a model per
battle and answers exactly as each battle's detail does, and the read endpoints' queries do
not grow with the campaign."""

import gzip

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.throttling import SimpleRateThrottle

from battles.models import ConquestRoll
from tests.factories import AttackFactory, BattleFactory, PlayerFactory, TileFactory
from tests.module_world import module_world
from tests.worlds import api, build_page_world, grow_battles, hand_in, page_duel

pytestmark = pytest.mark.django_db
READS = ("", "standings/", "map/", "battles/", "battles/?page_size=500", "rounds/")


def _world():
    world = build_page_world()
    battle = page_duel(world, "battles")
    hand_in(battle, world.lg.b, "Gargant")
    grow_battles(world, battle)
    ConquestRoll.objects.create(
        round=battle.round, attack=battle.attack, battle=battle, tile=battle.tile,
        player=world.lg.b, dice=[5, 2], modifiers=[{"rule": "R-CON-6", "value": 1}], total=8,
        threshold=7, threshold_rule="R-CON-1", k=None, success=True, immediate=True,
        counter=1)
    return world


world = module_world(_world)  # built once per module; each test's rows roll back


def test_api_answers_are_gzipped_when_the_client_accepts_it(world):
    client = api(world.lg.a.user)
    packed = client.get(world.lg.url("map/"), HTTP_ACCEPT_ENCODING="gzip")
    plain = client.get(world.lg.url("map/"))
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert not plain.has_header("Content-Encoding")


def test_answers_holding_a_secret_are_never_compressed(world, client):
    """BREACH: the API token, the account pages and the calendar page (feed tokens) and a
    webhook's page (signing secret) go out uncompressed even to a client asking for gzip."""
    user = world.lg.a.user
    token = api().post("/api/v1/auth/token/", {"username": user.username,
                                               "password": "correct horse 42"},  # factories
                       format="json", HTTP_ACCEPT_ENCODING="gzip")
    assert token.status_code == 200 and "Content-Encoding" not in token
    client.force_login(user)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and "Content-Encoding" not in page
    feed = client.post(f"/campaigns/{world.lg.campaign.pk}/battles/calendar/", {"show": "1"},
                       HTTP_ACCEPT_ENCODING="gzip")
    assert feed.status_code == 200 and b"feed-url" in feed.content
    assert "Content-Encoding" not in feed
    map_page = client.get(f"/campaigns/{world.lg.campaign.pk}/map/", HTTP_ACCEPT_ENCODING="gzip")
    assert map_page["Content-Encoding"] == "gzip"  # the others still are


def test_a_compressed_calendar_still_answers_304(world):
    """The ETag of the compressed copy is weak; If-None-Match compares weakly (RFC 9110)."""
    client, url = api(world.lg.a.user), world.lg.url("calendar.ics")
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    assert first["ETag"].startswith('W/"')
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_the_battles_list_answers_as_each_detail_does(world):
    """The list's light rows (battles.selectors.battle_rows) and a detail's Battle give the
    same answer: history, open proposal, lists handed in, limits, the chain roll."""
    client = api(world.lg.a.user)
    listed = client.get(world.lg.url("battles/")).json()["results"]
    assert len(listed) == 4
    assert any(row["history"] for row in listed) and any(row["chain_roll"] for row in listed)
    assert any(row["schedule_proposal"] for row in listed)
    for row in listed:
        assert row == client.get(world.lg.url(f"battles/{row['id']}/")).json()


def _queries(client, url: str) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def _grow(world, n: int) -> None:
    """``n`` more players, each with a tile and a battle over it in the round."""
    rnd, taken = world.rnd, world.rnd.attacks.count()
    for index in range(n):
        player = PlayerFactory(campaign=world.campaign)
        target = TileFactory(planet=world.alpha, q=20 + taken + index, r=0, owner=player)
        attack = AttackFactory(round=rnd, player=world.lg.a, tile=target,
                               order=taken + index + 1)
        BattleFactory(attack=attack, defender=player,
                      point_limits={str(world.lg.a.pk): 1500, str(player.pk): 1500})


@pytest.mark.parametrize("read", READS)
def test_read_queries_do_not_grow_with_the_league(world, read):
    client = api(world.lg.a.user)
    _grow(world, 60)  # past the default page: the list counts its rows either way
    before = _queries(client, world.lg.url(read))
    _grow(world, 40)
    assert _queries(client, world.lg.url(read)) == before


def test_the_battles_list_needs_no_count_query(world):
    """The battles list pages its rows in memory (api/battle_list.py): no COUNT, however many
    battles, on the first page and the next."""
    client = api(world.lg.a.user)
    short = _queries(client, world.lg.url("battles/"))
    _grow(world, 60)
    assert _queries(client, world.lg.url("battles/")) == short
    assert _queries(client, world.lg.url("battles/?page=2")) == short
    assert client.get(world.lg.url("battles/")).json()["count"] == 64
    assert client.get(world.lg.url("battles/?page_size=500")).json()["count"] == 64


def test_the_campaign_detail_and_lists_take_few_queries(world):
    """With a token or a forced login (no session read): the campaign detail reads its current
    round with the campaign; the rounds and battles lists answer from memory after their first
    read."""
    client = api(world.lg.a.user)
    assert _queries(client, world.lg.url("")) == 1
    assert _queries(client, world.lg.url("rounds/")) == 1
    assert _queries(client, world.lg.url("battles/")) == 1
    assert _queries(client, world.lg.url("battles/?page_size=500")) == 1


def test_reads_are_throttled_in_process_memory_writes_site_wide(world, monkeypatch):
    """A signed-in user's GETs count in each process's memory (no Redis round trip per read,
    api/throttling.py); their writes still count in the shared cache."""
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "user": "2/min"})
    user, key = world.lg.a.user, f"throttle_user_{world.lg.a.user.pk}"
    cache.delete(key)
    client = api(user)
    assert [client.get(world.lg.url("rounds/")).status_code for _ in range(3)] == [200, 200, 429]
    assert caches["local"].get(key) and cache.get(key) is None
    client.post(world.lg.url("advance/"), {}, format="json")
    assert cache.get(key)
