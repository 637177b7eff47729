"""One round's fleet phase with everything in it, on scripted dice: a pirate interception, an
avoided combat, a withdrawal, a two-fleet battle with a capture by boarding, a retreat, a sea
hazard and an island conquest. ``build()`` sets it up in ``declare`` with the orders given;
``check()`` asserts the expected outcome once the phase ran.

Map (areas in creation order, so ids ascend): O1-O2 | S1-X, S2-X | T1-Tz | W1-W2-Dc |
Y1-Y-Cc | O5-I1. Dc borders dora's tile, Cc carl's; I1 is carl's island with his Kraken.
Every fleet but D2 and D1 has the interception policy ``never``; the ruleset allows one
battle round (R-NAV-11)."""

from contextlib import contextmanager
from dataclasses import dataclass

from campaigns.models import Round
from fleets.models import Area, Fleet, FleetMarker, FleetPhase, NavalBattle, SeaHazard, Ship
from fleets.services.orders import fleet_set_orders
from rules.dice import ScriptedDice
from tests.campaigns.league_map import League, make_league, tile
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory

FACES = [
    1, 1, 1,  # R-FLT-6: d4, d3, d2 -> anna, ben, carl, dora
    6, 1,  # A1 enters O2: the pirates win the INT DR, more CF -> a) (R-INT-5)
    6, 1,  # B2 enters W2: D2 wins and withdraws to Dc, dora's coast (R-INT-4 d)
    4, 3,  # B4 enters I1: the Kraken hits the flagship 4, takes 3 (R-SEA-2)
    6, 1,  # C1 enters Tz: D1 wins and avoids combat (R-INT-4 c)
    6, 5,  # battle in O2 at far: A1 misses; the pirates hit with 5 <= 5 + 1 - 1 (R-NAV-9)
    1, 6, 1, 1, 8, 8, 1, 1, 8,  # battle in X: Iron Fist boards and takes the Merchant Prince
    6, 1,  # battle in Y: C2 withdraws at far and retreats to Cc (R-NAV-12)
]


@dataclass
class Scenario:
    league: League
    rnd: Round
    areas: dict[str, Area]
    fleets: dict[str, Fleet]
    ships: dict[str, Ship]
    kraken: SeaHazard


def scripted(faces=None):
    """A dice factory for ``fleets.services.phase`` that checks every face was read."""

    @contextmanager
    def factory(rnd):
        dice = ScriptedDice(FACES if faces is None else faces)
        yield dice
        assert dice.remaining == 0, f"{dice.remaining} scripted faces were not read"

    return factory


def _areas(league: League) -> dict[str, Area]:
    planet = league.planet("Gaia")
    dora_tile, carl_tile = tile(planet, 0, 0, league.d), tile(planet, 1, 0, league.c)
    tile(planet, 2, 0, league.a)
    tile(planet, 3, 0, league.b)
    kinds = {"Dc": "coastal", "Cc": "coastal", "I1": "island"}
    areas = {}
    for name in ("O1", "O2", "S1", "S2", "X", "T1", "Tz", "W1", "W2", "Dc", "Y1", "Y", "Cc",
                 "O5", "I1"):
        areas[name] = AreaFactory(campaign=league.campaign, name=name,
                                  kind=kinds.get(name, "ocean"),
                                  owner=league.c if name == "I1" else None)
    for a, b in (("O1", "O2"), ("S1", "X"), ("S2", "X"), ("T1", "Tz"), ("W1", "W2"),
                 ("W2", "Dc"), ("Y1", "Y"), ("Y", "Cc"), ("O5", "I1")):
        areas[a].adjacent.add(areas[b])
    areas["Dc"].borders_tiles.add(dora_tile)
    areas["Cc"].borders_tiles.add(carl_tile)
    return areas


def _fleet(league, name, owner, area, ships, **orders) -> tuple[Fleet, list[Ship]]:
    kind = "pirate" if owner is None else "regular"
    fleet = FleetFactory(campaign=league.campaign, area=area, owner=owner, name=name, kind=kind,
                         standing_orders={"interception": "never", "stance": "hold", **orders})
    made = [ShipFactory(fleet=fleet, position=i, **values)
            for i, values in enumerate(ships, start=1)]
    return fleet, made


def build() -> Scenario:
    league = make_league()
    league.set_rules(max_battle_rounds=1)
    areas = _areas(league)
    a, b, c, d = league.a, league.b, league.c, league.d
    specs = {
        "A1": (a, "O1", [{"name": "Lonely Frigate"}], {}),
        "P": (None, "O2", [{"name": "Black Wake", "attack": 5, "defence": 6}], {}),
        "A2": (a, "S1", [{"name": "Iron Fist", "crew": [{"name": "Boss", "cp": 12}]}],
               {"stance": "approach"}),
        "A3": (a, "S2", [{"name": "Swift"}], {"stance": "approach"}),
        "B3": (b, "X", [{"name": "Merchant Prince", "crew": [{"name": "Mate", "cp": 6}],
                         "cargo": [{"name": "Guard", "points": 500}]}],
               {"stance": "approach"}),
        "B2": (b, "W1", [{"name": "Courier"}], {}),
        "D2": (d, "W2", [{"name": "Picket"}], {"interception": "always", "benefits": ["d"]}),
        "B4": (b, "O5", [{"name": "Explorer", "defence": 6}], {}),
        "C1": (c, "T1", [{"name": "Patrol"}], {}),
        "D1": (d, "Tz", [{"name": "Sentinel"}], {"interception": "always", "benefits": ["c"]}),
        "D3": (d, "Y1", [{"name": "Hunter"}], {"stance": "approach"}),
        "C2": (c, "Y", [{"name": "Runner"}], {"stance": "withdraw"}),
    }
    fleets, ships = {}, {}
    for name, (owner, area, ship_values, orders) in specs.items():
        fleets[name], made = _fleet(league, name, owner, areas[area], ship_values, **orders)
        for ship in made:
            ships[ship.name] = ship
    kraken = SeaHazardFactory(area=areas["I1"], owner=c, name="Kraken", attack=4, defence=5)
    rnd = league.start()
    for name, target in (("A1", "O2"), ("A2", "X"), ("A3", "X"), ("B2", "W2"), ("B4", "I1"),
                         ("C1", "Tz"), ("D3", "Y")):
        fleet = fleets[name]
        fleet_set_orders(player=fleet.owner, fleet=fleet, path=[areas[target].pk])
    return Scenario(league, rnd, areas, fleets, ships, kraken)


def _area(sc: Scenario, fleet: str) -> str:
    area_id = Fleet.objects.get(pk=sc.fleets[fleet].pk).area_id
    return next(name for name, area in sc.areas.items() if area.pk == area_id)


def check(sc: Scenario) -> None:
    """The expected outcome of the scripted phase."""
    lg, areas, ships = sc.league, sc.areas, sc.ships
    sc.rnd.refresh_from_db()
    assert sc.rnd.phase == "lists"
    assert FleetPhase.objects.get(round=sc.rnd).player_order == [lg.a.pk, lg.b.pk, lg.c.pk,
                                                                 lg.d.pk]
    battles = list(NavalBattle.objects.filter(round=sc.rnd).order_by("area_id"))
    assert [(b.area_id, b.attacker_id, b.defender_id) for b in battles] == [
        (areas["O2"].pk, lg.a.pk, None), (areas["X"].pk, lg.a.pk, lg.b.pk),
        (areas["Y"].pk, lg.d.pk, lg.c.pk)]
    pirates, boarding, retreat = battles
    # R-INT-5 / R-NAV-9: the pirates' interception advantage sinks the lonely frigate
    assert pirates.outcome["winner"] == "defender" and pirates.events[0]["advantage"] == "defender"
    assert not Fleet.objects.filter(pk=sc.fleets["A1"].pk).exists()
    assert not Ship.objects.filter(pk=ships["Lonely Frigate"].pk).exists()
    # R-INT-6 / R-NAV-8 / R-VP-1: anna's two fleets in one line; the prize joins the first
    assert boarding.sides[0]["fleets"] == [sc.fleets["A2"].pk, sc.fleets["A3"].pk]
    assert (boarding.attacker_vp, boarding.defender_vp) == (6, 0)
    prize = Ship.objects.get(pk=ships["Merchant Prince"].pk)
    assert prize.fleet_id == sc.fleets["A2"].pk and prize.position == 2
    assert prize.cargo == [{"name": "Guard", "points": 500}] and prize.crew == []
    assert not Fleet.objects.filter(pk=sc.fleets["B3"].pk).exists()
    # R-NAV-12: carl's runner retreats to his own coast
    assert retreat.outcome["retreated"] == "defender" and _area(sc, "C2") == "Cc"
    assert Fleet.objects.get(pk=sc.fleets["C2"].pk).arrived_round == 1
    # R-INT-4 c): carl and dora avoided combat; d): dora's picket withdrew to her coast
    assert (_area(sc, "C1"), _area(sc, "D1")) == ("Tz", "Tz")
    markers = {(m.fleet_id, m.kind, m.partner_id) for m in FleetMarker.objects.filter(
        round=sc.rnd)}
    f = {name: fleet.pk for name, fleet in sc.fleets.items()}
    assert markers == {(f["C1"], "avoid", f["D1"]), (f["D1"], "avoid", f["C1"]),
                       (f["D2"], "withdraw", None)}
    assert _area(sc, "D2") == "Dc" and _area(sc, "B2") == "W2"
    # R-SEA-2 / R-SEA-1: the Kraken hit the explorer and goes to ben with the island
    kraken = SeaHazard.objects.get(pk=sc.kraken.pk)
    assert (kraken.owner_id, kraken.hits, kraken.active) == (lg.b.pk, 3, True)
    assert kraken.triggered_at is not None
    assert Area.objects.get(pk=areas["I1"].pk).owner_id == lg.b.pk
    assert _area(sc, "B4") == "I1"
