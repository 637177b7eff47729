"""No page needs more queries as the campaign grows (see ``tests/web/queries.py``)."""

import copy

import pytest

from tests.module_world import module_world
from tests.web.queries import assert_constant_queries, grow, play_a_round
from tests.worlds import build_page_world, client_for, declare


def _played():
    """Round 1 played and closed; round 2 open in declare with one declaration of anna."""
    world = build_page_world()
    play_a_round(world)
    rnd = world.campaign.rounds.get(number=2)
    declare(world.lg.a, rnd, world.tiles["far"])
    return world


played_once = module_world(_played)


@pytest.fixture
def played(played_once, db):
    """The world as built: ``grow`` moves its named tiles."""
    return copy.deepcopy(played_once)


@pytest.mark.parametrize("rest", ["", "map/", "standings/", "standings/?round=1",
                                  "rounds/1/audit/", "conquest/?round=1"])
@pytest.mark.parametrize("role", ["player", "admin"])
def test_page_queries_stay_constant(played, rest, role):
    lg = played.lg
    if role == "admin" and rest.startswith("conquest"):
        pytest.skip("the conquest page is for players")
    user = lg.a.user if role == "player" else lg.admin
    assert_constant_queries(client_for(user), played.url(rest), lambda: grow(played))


def test_the_list_queries_stay_constant(played):
    assert_constant_queries(client_for(played.lg.a.user), "/", lambda: grow(played))


def test_the_tile_check_queries_stay_constant(played):
    url = played.url(f"map/tiles/{played.tiles['b-home'].pk}/")
    client = client_for(played.lg.a.user)
    client.defaults["HTTP_HX_REQUEST"] = "true"
    assert_constant_queries(client, url, lambda: grow(played))
