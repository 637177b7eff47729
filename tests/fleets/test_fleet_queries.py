"""The fleet endpoints read in a constant number of queries, whatever the number of fleets,
ships, orders, markers, hazards and battles."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Round
from campaigns.services.campaigns import campaign_update
from fleets.models import FleetMarker, FleetOrder, NavalBattle
from tests.factories import FleetFactory, SeaHazardFactory, ShipFactory
from tests.worlds import api


@pytest.fixture
def world(fleet_world):
    w = fleet_world
    campaign_update(campaign=w.league.campaign, visibility="public")
    Round.objects.filter(pk=w.rnd.pk).update(phase="lists")  # its naval battles show (R-FLT-7)
    return w


def grow(w, n: int) -> None:
    """n more fleets per player with three ships, an order and a marker each; hazards and
    battles too."""
    lg = w.league
    for owner in (lg.a, lg.b, lg.c):
        for _ in range(n):
            fleet = FleetFactory(campaign=lg.campaign, owner=owner, area=w.sea)
            for position in (1, 2, 3):
                ShipFactory(fleet=fleet, position=position,
                            cargo=[{"name": "d", "points": 100}], crew=[{"name": "c", "cp": 6}])
            FleetOrder.objects.create(round=w.rnd, fleet=fleet, path=[w.coast.pk])
            FleetMarker.objects.create(round=w.rnd, fleet=fleet, kind="avoid")
            SeaHazardFactory(area=w.sea, owner=None)
            NavalBattle.objects.create(round=w.rnd, area=w.sea, sequence=fleet.pk,
                                       engine="dark_force", attacker=owner, defender=lg.d,
                                       events=[{"rule": "R-INT-6", "step": "battle"}])


def count(user, url) -> int:
    """Queries of one GET by a fresh user object (``campaigns.access`` caches on it)."""
    client = api(None if user is None else User.objects.get(pk=user.pk))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(queries)


@pytest.mark.parametrize("who", ["owner", "other", "admin", "public"])
@pytest.mark.parametrize("path", ["fleets/?page_size=500", "fleets/{fleet}/",
                                  "naval-battles/?page_size=500", "hazards/?page_size=500",
                                  "standings/", "map/"])
def test_fleet_endpoints_query_count_is_constant(world, who, path):
    lg = world.league
    user = {"owner": lg.a.user, "other": lg.d.user, "admin": lg.admin, "public": None}[who]
    if user is None and path.split("/")[0] == "hazards":
        pytest.skip("members only")
    url = lg.url(path.format(fleet=world.anna_fleet.pk))
    grow(world, 1)
    small = count(user, url)
    grow(world, 6)
    assert count(user, url) == small
