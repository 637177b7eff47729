"""A league on a small map for the page tests: two planets, four players, fleets with hidden
details, round 1 open in declare. ``page`` fetches a page as a user."""

from dataclasses import dataclass

import pytest
from django.test import Client

from campaigns.models import Planet, Round, Tile
from tests.campaigns.league_map import League, make_league, row, tile, transport
from tests.factories import AreaFactory, FleetFactory, ShipFactory, UserFactory

FACTIONS = ("Mechanicus", "Orks", "Cadia", "Aeldari")
SECRET_SHIP = "Secret Hulk of Ben"
SECRET_CARGO = "Hidden Detachment Zeta"
SECRET_CREW = "Warboss Grimskull"
SECRET_ORDER = "ambush-at-dawn"


@dataclass
class World:
    lg: League
    alpha: Planet
    beta: Planet
    tiles: dict[str, Tile]
    rnd: Round

    @property
    def campaign(self):
        return self.lg.campaign

    def url(self, rest: str = "") -> str:
        return f"/campaigns/{self.campaign.pk}/{rest}"


def build_world(visibility: str = "private") -> World:
    lg = make_league(visibility=visibility)
    for player, faction in zip((lg.a, lg.b, lg.c, lg.d), FACTIONS, strict=True):
        player.faction = faction
        player.save(update_fields=["faction"])
    alpha, beta = lg.planet("Alpha"), lg.planet("Beta")
    tiles = {"a-home": tile(alpha, 0, 0, lg.a, ("spaceport",)), "a-edge": tile(alpha, 1, 0, lg.a),
             "free": tile(alpha, 2, 0), "b-edge": tile(alpha, 3, 0, lg.b, ("mountain",)),
             "b-home": tile(alpha, 4, 0, lg.b, ("macropole", "defence")),
             "far": tile(alpha, 0, 3)}
    tiles.update(zip(("c1", "c2", "c3"), row(beta, lg.c, range(3)), strict=True))
    transport(beta, lg.a, (1500,))
    ocean = AreaFactory(campaign=lg.campaign, name="Deep Ocean")
    fleet = FleetFactory(area=ocean, owner=lg.b, name="Armada Obscura",
                         standing_orders={"retreat": SECRET_ORDER})
    ShipFactory(fleet=fleet, name=SECRET_SHIP, cargo=[{"name": SECRET_CARGO, "points": 500}],
                crew=[{"name": SECRET_CREW, "cp": 9}])
    return World(lg, alpha, beta, tiles, lg.start())


@pytest.fixture
def world(db) -> World:
    return build_world()


@pytest.fixture
def public_world(db) -> World:
    return build_world("public")


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")
