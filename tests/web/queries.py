"""Query counting for page tests: a page must need the same number of queries however large
the campaign grows. Pattern for a new page::

    def test_my_page_queries_stay_constant(page_world):
        assert_constant_queries(client_for(user), page_world.url("my-page/"),
                                lambda: grow(page_world))
"""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns import cache
from tests.factories import PlayerFactory, ShipFactory, TileMarkerFactory
from tests.worlds import advance_to, declare, row, transport


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def assert_constant_queries(client, url: str, grow) -> None:
    """Count ``url``'s queries, call ``grow()``, count again: the two counts must match."""
    client.get(url)  # the first request of a session may set it up
    before = _cold_and_warm(client, url)
    grow()
    after = _cold_and_warm(client, url)
    assert after == before, f"{url}: {before} queries before the campaign grew, {after} after"


def _cold_and_warm(client, url: str) -> tuple[int, int]:
    """The queries of ``url`` computing its values afresh, then with the values kept under the
    campaign's revision (``campaigns/cache.py``): both must stay constant."""
    cache.clear()
    return count_queries(client, url), count_queries(client, url)


def play_a_round(world) -> None:
    """Every player attacks once; battles get results; the round closes (rolls, standings)."""
    lg, rnd = world.lg, world.campaign.rounds.order_by("-number").first()
    targets = {lg.a: world.tiles["free"], lg.b: world.tiles["a-edge"]}
    attacks = [declare(player, rnd, tile) for player, tile in targets.items()]
    advance_to(rnd, "battles")
    for battle in Battle.objects.filter(attack__in=attacks, status=Battle.Status.OPEN):
        battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="victory",
                            attacker_vp=5, defender_vp=1)
    advance_to(rnd, "closed")


def grow(world) -> None:
    """More of everything a page may list: planets, tiles, markers, players, fleets, ships,
    declarations, battles, rolls and closed rounds."""
    lg = world.lg
    gamma = lg.planet("Gamma")
    tiles = row(gamma, lg.d, range(6)) + row(gamma, None, range(6), r=1)
    for tile in tiles[:3]:
        TileMarkerFactory(tile=tile)
    for _ in range(2):
        PlayerFactory(campaign=world.campaign)
    for owner in (lg.a, lg.b, lg.d):
        fleet = transport(gamma, owner, (500, 1000))
        ShipFactory(fleet=fleet)
    world.tiles["free"] = tiles[-1]
    world.tiles["a-edge"] = tiles[0]
    play_a_round(world)
    rnd = world.campaign.rounds.order_by("-number").first()
    declare(lg.a, rnd, tiles[-2])
    declare(lg.d, rnd, tiles[-3])
