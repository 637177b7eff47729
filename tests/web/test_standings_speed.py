"""The standings (page and API) and the campaign list at league scale. The standings
are kept per campaign revision (``league.selectors.standings.standings``), so a second look
costs no standings queries, yet a confirmed result, a conquest or a new display name shows on
the very next request; and none of the three needs more queries as the league grows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns import cache
from campaigns.models import Round
from campaigns.services.accounts import profile_update
from fleets.models import NavalBattle
from tests.factories import (
    AreaFactory,
    AttackFactory,
    BattleFactory,
    FleetFactory,
    PlayerFactory,
    ShipFactory,
    TileFactory,
)
from tests.worlds import (
    advance_to,
    api,
    client_for,
    declare,
    make_league,
    page_duel,
    row,
    sure_conquest,
)

pytestmark = pytest.mark.django_db


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return len(queries)


def _cold_and_warm(client, url: str) -> tuple[int, int]:
    cache.clear()
    return _count(client, url), _count(client, url)


def _grow(lg, rnd: Round, players: int) -> None:
    """``players`` more seats, each holding tiles, a fleet of two ships, a confirmed battle won
    against anna and a naval battle."""
    planet = lg.planet("Gamma")
    area = AreaFactory(campaign=lg.campaign)
    for index in range(players):
        player = PlayerFactory(campaign=lg.campaign, faction=f"Faction {index}")
        row(planet, player, range(3), r=index)
        fleet = FleetFactory(area=area, owner=player)
        ShipFactory(fleet=fleet)
        ShipFactory(fleet=fleet)
        attack = AttackFactory(round=rnd, player=player,
                               tile=TileFactory(planet=planet, q=10, r=index, owner=lg.a))
        BattleFactory(attack=attack, defender=lg.a, outcome=Battle.Outcome.VICTORY,
                      attacker_vp=4, defender_vp=1, result_status=Battle.ResultStatus.CONFIRMED)
        NavalBattle.objects.create(round=rnd, area=area, sequence=index + 1, engine="dark_force",
                                   attacker=player, defender=lg.a, attacker_vp=2, sides=[],
                                   outcome={}, events=[])


def test_standings_api_and_list_queries_stay_constant_from_2_to_10_players(db):
    lg = make_league(players=("anna", "ben"), visibility="public")
    row(lg.planet("Alpha"), lg.a, range(2))
    rnd = lg.start()
    page, rest = client_for(lg.b.user), api(lg.b.user)
    urls = [(page, f"/campaigns/{lg.campaign.pk}/standings/"), (rest, lg.url("standings/")),
            (page, "/")]
    for client, url in urls:
        client.get(url)  # the session's first request may set it up
    small = [_cold_and_warm(client, url) for client, url in urls]
    _grow(lg, rnd, 8)
    large = [_cold_and_warm(client, url) for client, url in urls]
    assert large == small
    rows = {row["username"]: row for row in rest.get(lg.url("standings/")).json()["rows"]}
    assert len(rows) == 10 and rows["anna"]["battles_lost"] == 8
    grown = next(row for row in rows.values() if row["faction"] == "Faction 7")
    assert (grown["tiles"], grown["battles_won"], grown["victory_points"], grown["fleets"],
            grown["ships"]) == (3, 1, 6, 1, 2)


def test_a_second_look_at_the_standings_costs_no_standings_queries(page_world):
    page, rest = client_for(page_world.lg.a.user), api(page_world.lg.a.user)
    url = page_world.url("standings/")
    page.get(url)
    cold, warm = _cold_and_warm(page, url)
    assert warm <= 3 < cold  # session, user, the campaign with round, seat and zone
    cold, warm = _cold_and_warm(rest, page_world.lg.url("standings/"))
    assert warm <= 1 < cold  # the campaign (the test client skips session and user)


def _page_row(world, player) -> list[str]:
    """The player's name, then the figures of the player's row on the standings page."""
    html = client_for(world.lg.d.user).get(world.url("standings/")).content.decode()
    row_html = re.search(rf'<tr data-player-id="{player.pk}">.*?</tr>', html).group(0)
    name = re.search(r'<span class="muted">\((.*?)\)</span>', row_html).group(1)
    return [name, *re.findall(r"<td>([^<]*)</td>", row_html)[1:]]  # rank left out


def _api_row(world, player) -> dict:
    rows = api(world.lg.d.user).get(world.lg.url("standings/")).json()["rows"]
    return next(row for row in rows if row["player"] == player.pk)


def test_a_confirmed_result_shows_at_once(page_world):
    battle = page_duel(page_world, "battles")
    ben = page_world.lg.b
    assert _page_row(page_world, ben)[3:5] == ["0/0/0", "0"]  # now kept for this revision
    assert _api_row(page_world, ben)["battles_won"] == 0
    battle_result_enter(battle=battle, by_admin_user=page_world.lg.admin, outcome="victory",
                        attacker_vp=7, defender_vp=2)
    assert _page_row(page_world, ben)[3:5] == ["1/0/0", "7"]
    assert _api_row(page_world, ben)["battles_won"] == 1
    assert _api_row(page_world, page_world.lg.a)["battles_lost"] == 1


def test_a_conquest_shows_at_once(page_world):
    anna, rnd = page_world.lg.a, page_world.rnd
    attack = declare(anna, rnd, page_world.tiles["free"])
    advance_to(rnd, Round.Phase.CONQUEST)
    assert _page_row(page_world, anna)[1:3] == ["2", "1"]  # tiles, planets
    assert _api_row(page_world, anna)["tiles"] == 2
    sure_conquest(rnd, attack)
    advance_to(rnd, Round.Phase.CLOSED)
    assert _page_row(page_world, anna)[1:3] == ["3", "1"]
    assert _api_row(page_world, anna)["tiles"] == 3


def test_a_new_display_name_shows_at_once(page_world):
    carl = page_world.lg.c
    assert _page_row(page_world, carl)[0] == "carl"
    assert _api_row(page_world, carl)["display_name"] == ""
    profile_update(user=carl.user, display_name="Carl the Bold")
    assert _page_row(page_world, carl)[0] == "Carl the Bold"
    assert _api_row(page_world, carl)["display_name"] == "Carl the Bold"
