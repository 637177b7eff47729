"""No page needs more queries as the campaign grows (see ``tests/web/queries.py``)."""

import pytest

from tests.web.queries import assert_constant_queries, grow, play_a_round
from tests.worlds import client_for, declare


@pytest.fixture
def played(page_world):
    """Round 1 played and closed; round 2 open in declare with one declaration of anna."""
    play_a_round(page_world)
    rnd = page_world.campaign.rounds.get(number=2)
    declare(page_world.lg.a, rnd, page_world.tiles["far"])
    return page_world


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
