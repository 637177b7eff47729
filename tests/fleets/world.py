"""A small campaign for the fleet API tests: anna's fleet on her coast, ben's in the open sea,
a pirate fleet, a hidden hazard, carl's island, round 1 in ``declare``. Hidden values carry
distinctive words so leak tests can search every response for them."""

from dataclasses import dataclass

from campaigns.models import Round, Tile
from fleets.models import Area, Fleet, SeaHazard
from tests.campaigns.league_map import League, make_league, tile
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory

SECRETS = {
    "anna": ("Vengeful Spirit", "Gloriana", "Tartaros Guard", "Captain Loken", "7D+2",
             "if_stronger", "Storm Lurker"),
    "ben": ("Gorkamorka", "Kill Kroozer", "Ardboyz Mob", "Kaptin Grimskull", "5D+1", "Wreckfin"),
    "pirates": ("Maelstrom Corsair", "Voidraider"),
    "hazard": ("Lurking Kraken",),
}


@dataclass
class World:
    league: League
    rnd: Round
    coast: Area
    sea: Area
    orbit: Area
    island: Area
    anna_fleet: Fleet
    ben_fleet: Fleet
    pirates: Fleet
    kraken: SeaHazard
    anna_tile: Tile

    def url(self, rest: str = "") -> str:
        return self.league.url(f"fleets/{rest}")


def datasheet(code: str, captain: str | None = None) -> dict:
    sheet = {"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": code,
             "shields": "2D", "hull": "3D"}
    if captain:
        sheet["captain"] = {"name": captain, "dice_system": "targeting", "pip_system": "speed"}
    return sheet


def build() -> World:
    league = make_league()
    campaign = league.campaign
    planet = league.planet("Terra")
    anna_tile = tile(planet, 0, 0, league.a)
    tile(planet, 1, 0, league.b)
    coast = AreaFactory(campaign=campaign, name="Anna's coast", kind="coastal")
    coast.borders_tiles.add(anna_tile)
    sea = AreaFactory(campaign=campaign, name="Open sea")
    orbit = AreaFactory(campaign=campaign, name="Terra orbit", kind="orbit", planet=planet)
    island = AreaFactory(campaign=campaign, name="Carl's isle", kind="island", owner=league.c)
    coast.adjacent.add(sea)
    sea.adjacent.add(orbit, island)
    anna = FleetFactory(campaign=campaign, owner=league.a, area=coast, name="Vengeful Spirit",
                        admiral_rating=2,
                        standing_orders={"interception": "if_stronger", "stance": "withdraw"})
    ShipFactory(fleet=anna, position=1, name="Gloriana", ship_class="Gloriana", capacity=2,
                crew=[{"name": "Captain Loken", "cp": 12}],
                cargo=[{"name": "Tartaros Guard", "points": 500}],
                datasheet=datasheet("7D+2", captain="Storm Lurker"))
    ShipFactory(fleet=anna, position=2, name="Escort", capacity=1)
    ben = FleetFactory(campaign=campaign, owner=league.b, area=sea, name="Wreckfin")
    ShipFactory(fleet=ben, position=1, name="Gorkamorka", ship_class="Kill Kroozer",
                crew=[{"name": "Kaptin Grimskull", "cp": 18}],
                cargo=[{"name": "Ardboyz Mob", "points": 400}], datasheet=datasheet("5D+1"))
    pirates = FleetFactory(campaign=campaign, owner=None, kind="pirate", area=sea,
                           name="Maelstrom Corsair")
    ShipFactory(fleet=pirates, position=1, name="Voidraider")
    kraken = SeaHazardFactory(area=sea, name="Lurking Kraken")
    rnd = league.start()
    return World(league, rnd, coast, sea, orbit, island, anna, ben, pirates, kraken, anna_tile)
