"""The fleets job loads and stores in a constant number of queries, however many
fleets, ships, orders, hazards and battles there are, and however many ships sink and fleets
are destroyed (R-FLT-6, R-INT-6, R-SEA-2, R-NAV-7, R-FLT-1)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Round
from fleets.models import Fleet, FleetOrder, NavalBattle, Ship
from fleets.services.phase import fleet_phase_resolve
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory
from tests.worlds import make_league

pytestmark = pytest.mark.django_db


def arena(seas: int) -> Round:
    """A league in its fleets phase (a fixed seed) with a chain of ``seas`` seas: in each,
    anna's two heavy ships (no crew to board with) meet ben's weak ones, carl sails in from
    the sea before, and a hazard lurks."""
    lg = make_league()
    rnd = lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase="fleets", server_seed=bytes(range(32)))
    rnd.refresh_from_db()
    before = None
    for _ in range(seas):
        sea = AreaFactory(campaign=lg.campaign)
        SeaHazardFactory(area=sea)
        anna = FleetFactory(campaign=lg.campaign, owner=lg.a, area=sea)
        for position in (1, 2):
            ShipFactory(fleet=anna, position=position, attack=6, defence=9, agility=5)
        ben = FleetFactory(campaign=lg.campaign, owner=lg.b, area=sea,
                           standing_orders={"stance": "approach"})
        for position in (1, 2):
            ShipFactory(fleet=ben, position=position, attack=1, defence=1, agility=1,
                        cargo=[{"name": "Boyz", "points": 100}])
        if before is not None:
            sea.adjacent.add(before)
            carl = FleetFactory(campaign=lg.campaign, owner=lg.c, area=before)
            ShipFactory(fleet=carl, position=1)
            FleetOrder.objects.create(round=rnd, fleet=carl, path=[sea.pk])
        before = sea
    return rnd


def resolved(rnd: Round) -> tuple[int, int, int]:
    """Queries of the job; ships and fleets lost."""
    ships = Ship.objects.filter(fleet__campaign=rnd.campaign)
    fleets = Fleet.objects.filter(campaign=rnd.campaign)
    before = (ships.count(), fleets.count())
    with CaptureQueriesContext(connection) as queries:
        fleet_phase_resolve(round=rnd)
    return len(queries), before[0] - ships.count(), before[1] - fleets.count()


def test_the_fleets_job_query_count_is_constant():
    small, large = arena(1), arena(6)
    queries, ships_lost, fleets_lost = resolved(small)
    more_queries, more_ships_lost, more_fleets_lost = resolved(large)
    assert NavalBattle.objects.filter(round=large).count() >= 6
    assert 0 < ships_lost < more_ships_lost and 0 < fleets_lost < more_fleets_lost
    assert more_queries == queries
