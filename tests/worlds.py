"""The one world builder of the Django-side tests (ARCHITECTURE.md "Tests").

Every world starts as a ``League`` from ``make_league`` - a campaign, its admin and its players
with requisition to spend - and grows from there with the map and phase helpers below. Each
larger world is a small extension function on a league:

- ``with_emails``, ``duel``, ``chain``: tabletop battles on a bare league;
- ``build_page_world`` (``PageWorld``) and ``page_duel``, ``hand_in``, ``battle_url``,
  ``grow_battles``: the small map of the page tests, with hidden fleet details;
- ``build_fleet_world`` (``FleetWorld``): the fleet API campaign, hidden values included;
- ``build_fleet_phase`` (``FleetPhaseScenario``), ``scripted_dice``, ``check_fleet_phase``: a
  whole fleet phase on scripted dice;
- ``build_security_world`` (``SecurityWorld``): six roles, a private, a public and a foreign
  campaign, and the hidden words (``sentinels``) the permission matrix and the fuzzing gate
  look for in every answer.

Tests reach these worlds through the fixtures of ``tests/conftest.py``; a test that needs a
world with parameters calls the builder itself. Hidden values carry distinctive words so leak
tests can search every response for them: keep those words as they are."""

from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles.models import Battle
from battles.rosters import parse_entries
from battles.services.attacks import attack_declare, purchase_create
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_enter
from campaigns.errors import DomainError
from campaigns.models import Attack, Campaign, Invitation, Planet, Player, Round, Tile
from fleets.models import Area, Fleet, FleetMarker, FleetPhase, NavalBattle, SeaHazard, Ship
from fleets.services.orders import fleet_set_orders
from league.demo import demo_create
from league.services.rounds import campaign_start, round_advance, round_run_phase_job
from rules.dice import ScriptedDice
from rules.rounds import AUTOMATIC
from rules.violation import RuleViolation
from tests.factories import (
    AreaFactory,
    ArmyListFactory,
    AttackFactory,
    BattleFactory,
    CampaignFactory,
    FleetFactory,
    FleetOrderFactory,
    MarkerFactory,
    OrbitAreaFactory,
    OrbitFleetFactory,
    PlanetFactory,
    PlayerFactory,
    ScheduleProposalFactory,
    SeaHazardFactory,
    ShipFactory,
    TileFactory,
    TileLinkFactory,
    TransportShipFactory,
    UserFactory,
)

# --- the base: a league ----------------------------------------------------------------------

PLAYER_NAMES = ("anna", "ben", "carl", "dora")


@dataclass
class League:
    """A campaign, its admin and its players; ``a`` .. ``d`` are the players in order."""

    campaign: Campaign
    admin: User
    players: list[Player]

    @property
    def a(self) -> Player:
        return self.players[0]

    @property
    def b(self) -> Player:
        return self.players[1]

    @property
    def c(self) -> Player:
        return self.players[2]

    @property
    def d(self) -> Player:
        return self.players[3]

    def planet(self, name: str = "") -> Planet:
        return PlanetFactory(campaign=self.campaign, name=name or "Planet")

    def start(self) -> Round:
        return campaign_start(campaign=self.campaign)

    def url(self, rest: str) -> str:
        return f"/api/v1/campaigns/{self.campaign.pk}/{rest}"

    def set_rules(self, **keys) -> None:
        self.campaign.ruleset = {**self.campaign.ruleset, **keys}
        self.campaign.save(update_fields=["ruleset"])


def make_league(*, visibility: str = "private", name: str | None = None, admin: str = "orga",
                players: tuple[str, ...] = PLAYER_NAMES, requisition: int = 10) -> League:
    """A campaign administered by ``admin`` with one player per name in ``players``; users are
    looked up by username, so two leagues of one test share their users."""
    admin_user = UserFactory(username=admin)
    campaign = CampaignFactory(visibility=visibility, **({"name": name} if name else {}))
    campaign.admins.add(admin_user)
    members = [PlayerFactory(campaign=campaign, user=UserFactory(username=username),
                             requisition=requisition) for username in players]
    return League(campaign, admin_user, members)


# --- map helpers -------------------------------------------------------------------------------

def tile(planet: Planet, q: int, r: int, owner: Player | None = None,
         features: tuple[str, ...] = ()) -> Tile:
    return TileFactory(planet=planet, q=q, r=r, owner=owner, features=list(features))


def row(planet: Planet, owner: Player | None, qs, r: int = 0) -> list[Tile]:
    """Tiles (q, r) for q in ``qs``, all owned by ``owner``."""
    return [tile(planet, q, r, owner) for q in qs]


def transport(planet: Planet, owner: Player, points_per_ship=(1500,)):
    """A fleet of ``owner`` in ``planet``'s orbit; each ship carries 500-point detachments
    adding up to its entry of ``points_per_ship`` (R-FLT-2, R-ATK-3)."""
    area = OrbitAreaFactory(planet=planet)
    fleet = OrbitFleetFactory(area=area, owner=owner)
    for points in points_per_ship:
        cargo = [{"name": f"Detachment {i}", "points": 500} for i in range(points // 500)]
        TransportShipFactory(fleet=fleet, cargo=cargo)
    return fleet


# --- phase helpers -----------------------------------------------------------------------------

def buy(player: Player, rnd: Round, armies: int = 1):
    return purchase_create(player=player, round=rnd, attack_armies=armies)


def declare(player: Player, rnd: Round, target: Tile, *, armies: int = 1):
    """Buy ``armies`` (0: none) and declare an attack on ``target``."""
    if armies:
        buy(player, rnd, armies)
    return attack_declare(player=player, round=rnd, tile=target)


def advance_to(rnd: Round, phase: str) -> Round:
    """Advance the round phase by phase (every hook runs) until it is in ``phase``."""
    rnd.refresh_from_db()
    while rnd.phase != phase:
        if rnd.phase in AUTOMATIC:  # its job, then it advances by itself (R-RND-2)
            round_run_phase_job(round_id=rnd.pk, phase=rnd.phase)
        else:
            round_advance(round_id=rnd.pk, expected_phase=rnd.phase)
        rnd.refresh_from_db()
    return rnd


MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


# --- clients -----------------------------------------------------------------------------------

def api(user=None) -> APIClient:
    """A DRF client, authenticated as ``user`` unless None."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def session_of(user: User | str) -> str:
    """A new session key of ``user`` (or the user of that username), written as a login leaves
    it, without what a login also writes (``last_login``, the lockout log): 4 queries where a
    test client's login makes 18. Tests of logging in log in."""
    if isinstance(user, str):
        user = User.objects.get(username=user)
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: MODEL_BACKEND,
                    HASH_SESSION_KEY: user.get_session_auth_hash()})
    session.create()
    return session.session_key


def client_for(user=None) -> Client:
    """A page client, signed in as ``user`` (``session_of``) unless None."""
    client = Client()
    if user is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = session_of(user)
    return client


# --- tabletop battles on a league ---------------------------------------------------------------

def with_emails(lg: League) -> League:
    for user in (lg.admin, *(player.user for player in lg.players)):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return lg


def duel(lg: League, phase: str = "lists") -> Battle:
    """Anna (one tile) attacks ben's tile next to it; both limits are 1500 (R-BON-1)."""
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, lg.b))
    advance_to(attack.round, phase)
    return Battle.objects.get(attack=attack)


def chain(lg: League, phase: str = "battles") -> list[Battle]:
    """Anna, then ben, then carl attack dora's tile (R-ATK-5)."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    tile(alpha, 1, 1, lg.c)
    rnd = lg.start()
    attacks = [declare(p, rnd, target) for p in (lg.a, lg.b, lg.c)]
    advance_to(rnd, phase)
    return [Battle.objects.get(attack=a) for a in attacks]


# --- the page world: a small map with hidden fleet details ---------------------------------------

FACTIONS = ("Mechanicus", "Orks", "Cadia", "Aeldari")
SECRET_SHIP = "Secret Hulk of Ben"
SECRET_CARGO = "Hidden Detachment Zeta"
SECRET_CREW = "Warboss Grimskull"
SECRET_ORDER = "ambush-at-dawn"
BEN_UNIT = "Gargant of Doom"
ANNA_UNIT = "Skitarii Rangers"


class CampaignPages:
    """A world's campaign (``lg.campaign``) and the address of one of its pages."""

    @property
    def campaign(self):
        return self.lg.campaign

    def url(self, rest: str = "") -> str:
        return f"/campaigns/{self.campaign.pk}/{rest}"


@dataclass
class PageWorld(CampaignPages):
    lg: League
    alpha: Planet
    beta: Planet
    tiles: dict[str, Tile]
    rnd: Round


def build_page_world(visibility: str = "private") -> PageWorld:
    """Two planets, four players with factions, anna's transport over Beta, ben's fleet with
    hidden details in the ocean; round 1 open in ``declare``."""
    lg = make_league(visibility=visibility)
    for player, faction in zip(lg.players, FACTIONS, strict=True):
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
    return PageWorld(lg, alpha, beta, tiles, lg.start())


def page_duel(world: PageWorld, phase: str = "lists") -> Battle:
    """Ben attacks anna's edge tile (anna defends); carl and dora look on."""
    attack = declare(world.lg.b, world.rnd, world.tiles["a-edge"])
    advance_to(world.rnd, phase)
    return Battle.objects.select_related("round").get(attack=attack)


def hand_in(battle: Battle, player, unit: str, points: int = 500):
    return ArmyListFactory(battle=battle, player=player, name=f"{unit} list",
                           entries=[{"name": unit, "points": points}])


def battle_url(world: PageWorld, battle: Battle, rest: str = "") -> str:
    return world.url(f"battles/{battle.pk}/{rest}")


def grow_battles(world: PageWorld, battle: Battle) -> None:
    """More battles in ``battle``'s round with lists, proposals and results, more players, and
    more history and proposals on ``battle`` itself."""
    lg, rnd = world.lg, battle.round
    taken = Attack.objects.filter(round=rnd).count()
    for index in range(3):
        target = TileFactory(planet=world.beta, q=10 + taken + index, r=0, owner=lg.c)
        attack = AttackFactory(round=rnd, player=lg.d, tile=target, order=taken + index + 1)
        other = BattleFactory(attack=attack,
                              defender=lg.c,
                              point_limits={str(lg.d.pk): 1500, str(lg.c.pk): 1600},
                              bonus={str(lg.c.pk): {"tiles": 100, "markers": 0}})
        hand_in(other, lg.d, f"Unit {index}")
        ScheduleProposalFactory(battle=other, proposed_by=lg.d)
    for _ in range(2):
        PlayerFactory(campaign=world.campaign)
    ScheduleProposalFactory(battle=battle, proposed_by=lg.a, status="superseded")
    if rnd.phase == "battles":
        for vp in (1, 2):
            battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="draw",
                                attacker_vp=vp, defender_vp=vp)


# --- the fleet world: the fleet API campaign -----------------------------------------------------

FLEET_SECRETS = {
    "anna": ("Vengeful Spirit", "Gloriana", "Tartaros Guard", "Captain Loken", "7D+2",
             "if_stronger", "Storm Lurker"),
    "ben": ("Gorkamorka", "Kill Kroozer", "Ardboyz Mob", "Kaptin Grimskull", "5D+1", "Wreckfin"),
    "pirates": ("Maelstrom Corsair", "Voidraider"),
    "hazard": ("Lurking Kraken",),
}


@dataclass
class FleetWorld:
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


def build_fleet_world() -> FleetWorld:
    """Anna's fleet on her coast, ben's in the open sea, a pirate fleet, a hidden hazard, carl's
    island, round 1 in ``declare``; hidden values are the words of ``FLEET_SECRETS``."""
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
    return FleetWorld(league, rnd, coast, sea, orbit, island, anna, ben, pirates, kraken,
                      anna_tile)


# --- the fleet phase scenario: one round's fleet phase on scripted dice --------------------------
#
# A pirate interception, an avoided combat, a withdrawal, a two-fleet battle with a capture by
# boarding, a retreat, a sea hazard and an island conquest. ``build_fleet_phase()`` sets it up in
# ``declare`` with the orders given; ``check_fleet_phase()`` asserts the expected outcome once
# the phase ran on ``scripted_dice()``.
#
# Map (areas in creation order, so ids ascend): O1-O2 | S1-X, S2-X | T1-Tz | W1-W2-Dc |
# Y1-Y-Cc | O5-I1. Dc borders dora's tile, Cc carl's; I1 is carl's island with his Kraken.
# Every fleet but D2 and D1 has the interception policy ``never``; the ruleset allows one
# battle round (R-NAV-11).

FLEET_PHASE_FACES = [
    1, 1, 1,  # R-FLT-6: d4, d3, d2 -> anna, ben, carl, dora
    6, 1,  # A1 enters O2: the pirates win the INT DR, more CF -> a) (R-INT-5)
    6, 1,  # B2 enters W2: D2 wins and withdraws to Dc, dora's coast (R-INT-4 d)
    4, 3,  # B4 enters I1: the Kraken hits the flagship 4, takes 3 (R-SEA-2)
    6, 1,  # C1 enters Tz: D1 wins and avoids combat (R-INT-4 c)
    6, 5,  # battle in O2 at far: A1 misses; the pirates hit with 5 <= 5 + 1 - 1 (R-NAV-9)
    1, 6, 1, 1, 8,  # battle in X: Iron Fist boards and takes the Merchant Prince (R-BRD-3)
    6, 1,  # battle in Y: C2 withdraws at far and retreats to Cc (R-NAV-12)
]


@dataclass
class FleetPhaseScenario:
    league: League
    rnd: Round
    areas: dict[str, Area]
    fleets: dict[str, Fleet]
    ships: dict[str, Ship]
    kraken: SeaHazard


def scripted_dice(faces=None):
    """A dice factory for ``fleets.services.phase`` that checks every face was read."""

    @contextmanager
    def factory(rnd):
        dice = ScriptedDice(FLEET_PHASE_FACES if faces is None else faces)
        yield dice
        assert dice.remaining == 0, f"{dice.remaining} scripted faces were not read"

    return factory


def _fleet_phase_areas(league: League) -> dict[str, Area]:
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


def _fleet_phase_fleet(league, name, owner, area, ships, **orders) -> tuple[Fleet, list[Ship]]:
    kind = "pirate" if owner is None else "regular"
    fleet = FleetFactory(campaign=league.campaign, area=area, owner=owner, name=name, kind=kind,
                         standing_orders={"interception": "never", "stance": "hold", **orders})
    made = [ShipFactory(fleet=fleet, position=i, **values)
            for i, values in enumerate(ships, start=1)]
    return fleet, made


def build_fleet_phase() -> FleetPhaseScenario:
    league = make_league()
    league.set_rules(max_battle_rounds=1)
    areas = _fleet_phase_areas(league)
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
        fleets[name], made = _fleet_phase_fleet(league, name, owner, areas[area], ship_values,
                                                **orders)
        for ship in made:
            ships[ship.name] = ship
    kraken = SeaHazardFactory(area=areas["I1"], owner=c, name="Kraken", attack=4, defence=5)
    rnd = league.start()
    for name, target in (("A1", "O2"), ("A2", "X"), ("A3", "X"), ("B2", "W2"), ("B4", "I1"),
                         ("C1", "Tz"), ("D3", "Y")):
        fleet = fleets[name]
        fleet_set_orders(player=fleet.owner, fleet=fleet, path=[areas[target].pk])
    return FleetPhaseScenario(league, rnd, areas, fleets, ships, kraken)


def _fleet_area(sc: FleetPhaseScenario, fleet: str) -> str:
    area_id = Fleet.objects.get(pk=sc.fleets[fleet].pk).area_id
    return next(name for name, area in sc.areas.items() if area.pk == area_id)


def check_fleet_phase(sc: FleetPhaseScenario) -> None:
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
    assert retreat.outcome["retreated"] == "defender" and _fleet_area(sc, "C2") == "Cc"
    assert Fleet.objects.get(pk=sc.fleets["C2"].pk).arrived_round == 1
    # R-INT-4 c): carl and dora avoided combat; d): dora's picket withdrew to her coast
    assert (_fleet_area(sc, "C1"), _fleet_area(sc, "D1")) == ("Tz", "Tz")
    markers = {(m.fleet_id, m.kind, m.partner_id) for m in FleetMarker.objects.filter(
        round=sc.rnd)}
    f = {name: fleet.pk for name, fleet in sc.fleets.items()}
    assert markers == {(f["C1"], "avoid", f["D1"]), (f["D1"], "avoid", f["C1"]),
                       (f["D2"], "withdraw", None)}
    assert _fleet_area(sc, "D2") == "Dc" and _fleet_area(sc, "B2") == "W2"
    # R-SEA-2 / R-SEA-1: the Kraken hit the explorer and goes to ben with the island
    kraken = SeaHazard.objects.get(pk=sc.kraken.pk)
    assert (kraken.owner_id, kraken.hits, kraken.active) == (lg.b.pk, 3, True)
    assert kraken.triggered_at is not None
    assert Area.objects.get(pk=areas["I1"].pk).owner_id == lg.b.pk
    assert _fleet_area(sc, "B4") == "I1"


# --- the security world: six roles and hidden words ---------------------------------------------
#
# For the permission matrix and the fuzzing gate: a private campaign in the ``lists`` phase (a
# battle with one hidden army list, fleets with hidden values, orders, a hidden sea hazard, a
# naval battle report, the fleet phase record), the public demo campaign in ``declare`` with a
# hidden declaration, and a campaign none of the roles belong to. Hidden values carry
# distinctive words (``sentinels``) so tests can search every answer for them.

ANON, OUTSIDER, PLAYER, OTHER, ADMIN, ROOT = ROLES = (
    "anonymous", "non-member", "player", "other player", "campaign admin", "site admin")
USERNAMES = {OUTSIDER: "nina", PLAYER: "anna", OTHER: "ben", ADMIN: "orga", ROOT: "root"}
STRANGERS = ("xaver", "yvonne", "zeno")  # admin, player and other player of the foreign league
OWNER_AND_ADMINS = {PLAYER: frozenset({PLAYER, ADMIN, ROOT}),
                    OTHER: frozenset({OTHER, ADMIN, ROOT})}


@dataclass(frozen=True)
class Scope:
    """Ids of one campaign's objects, for filling URL kwargs."""

    campaign: int
    planet: int
    tile: int
    link: int
    area: int
    marker: int
    round: int
    attack: int
    battle: int
    fleet: int
    ship: int
    other_fleet: int
    other_ship: int
    hazard: int
    naval: int  # the player against the other player
    pirate_naval: int = 0  # the player against pirates: the other player did not fight it
    player: int = 0  # the player's seat (managing players)

    @property
    def admin(self) -> int:
        """The user id of the campaign's first admin (its admins)."""
        from campaigns.models import Campaign

        return Campaign.objects.get(pk=self.campaign).admins.order_by("pk").first().pk


@dataclass
class SecurityWorld:
    users: dict[str, User | None]
    private: Scope
    public: Scope
    foreign: Scope
    sentinels: dict[str, frozenset[str]]  # hidden word -> the roles that may see it
    tokens: dict[str, str | None]  # role -> its DRF token (None: anonymous)


def make_users() -> dict[str, User | None]:
    users = {role: UserFactory(username=name) for role, name in USERNAMES.items()}
    root = users[ROOT]
    root.is_staff = root.is_superuser = True
    root.save(update_fields=["is_staff", "is_superuser"])
    return {ANON: None, **users}


def _hidden_fleet(campaign, owner, area, name: str, orders: dict,
                  words: tuple[str, str, str]):
    ship_name, cargo, crew = words
    fleet = FleetFactory(campaign=campaign, owner=owner, area=area, name=name,
                         standing_orders=orders)
    ship = ShipFactory(fleet=fleet, position=1, name=ship_name, ship_class=f"{ship_name} class",
                       capacity=2, cargo=[{"name": cargo, "points": 500}],
                       crew=[{"name": crew, "cp": 12}])
    return fleet, ship


def _naval_battle(rnd: Round, area: Area, attacker: Player, defender: Player | None,
                  word: str, sequence: int = 1) -> NavalBattle:
    """A report whose replay (the sides' lines and stances, a crew, the event log) carries
    ``word`` (only the two players who fought and the admin see it, R-FLT-7); the defender
    loses a ship sunk and one captured, which every reader of the summary sees."""
    line = [{"id": 9001, "name": f"{word} Flagship", "class": f"{word} class", "attack": 7,
             "defence": 5, "agility": 3}]
    lost = [{"id": 9002, "name": "Sunk Hulk", "class": "Hulk class", "attack": 1, "defence": 1,
             "agility": 1},
            {"id": 9003, "name": "Taken Prize", "class": "Prize class", "attack": 1,
             "defence": 1, "agility": 1}]
    return NavalBattle.objects.create(
        round=rnd, area=area, sequence=sequence, engine="dark_force", attacker=attacker,
        defender=defender, attacker_vp=3,
        sides=[{"key": "attacker", "player": attacker.pk, "stance": "approach", "ships": line},
               {"key": "defender", "player": defender and defender.pk, "stance": "hold",
                "ships": lost}],
        outcome={"winner": "attacker", "ships": [
            {"id": 9001, "side": "attacker", "state": "afloat"},
            {"id": 9002, "side": "defender", "state": "sunk"},
            {"id": 9003, "side": "defender", "state": "captured", "holder": "attacker"}]},
        events=[{"rule": "R-BRD-2", "step": "duel", "attacker": f"{word} Boarder"},
                {"rule": "R-NAV-13", "step": "end"}])


def build_security_league(admin: str, player: str, other: str, *, prefix: str) -> Scope:
    """A private league of ``player`` and ``other`` in the ``lists`` phase: ``player`` attacked
    ``other`` and handed in its army list (hidden from ``other``, R-ARM-3); both have a fleet
    with hidden values (R-FLT-7); a hidden hazard (R-SEA-2); a naval battle report and the
    fleet phase record."""
    lg = make_league(name=f"{prefix} front", admin=admin, players=(player, other))
    campaign, anna, ben = lg.campaign, lg.a, lg.b
    planet = lg.planet(f"{prefix} prime")
    home = tile(planet, 0, 0, anna)
    target = tile(planet, 1, 0, ben)
    far = tile(planet, 0, 3)
    link = TileLinkFactory(a=home, b=far)
    marker = MarkerFactory(tile=target)
    coast = AreaFactory(campaign=campaign, name=f"{prefix} coast", kind=Area.Kind.COASTAL)
    coast.borders_tiles.add(home)
    sea = AreaFactory(campaign=campaign, name=f"{prefix} sea")
    coast.adjacent.add(sea)
    fleet, ship = _hidden_fleet(campaign, anna, coast, f"{prefix} Quillon Armada",
                                {"interception": "if_stronger"},
                                (f"{prefix} Quillon Gloriana", f"{prefix} Quillon Guard",
                                 f"{prefix} Quillon Loken"))
    other_fleet, other_ship = _hidden_fleet(campaign, ben, sea, f"{prefix} Grimfang Horde",
                                            {"interception": "never"},
                                            (f"{prefix} Grimfang Kroozer",
                                             f"{prefix} Grimfang Mob",
                                             f"{prefix} Grimfang Kaptin"))
    hazard = SeaHazardFactory(area=sea, name=f"{prefix} Xarbeast Maw")
    rnd = lg.start()
    attack = declare(anna, rnd, target)
    rnd = advance_to(rnd, Round.Phase.LISTS)
    FleetOrderFactory(round=rnd, fleet=fleet, path=[sea.pk])  # given, after the phase ran
    battle = Battle.objects.get(attack=attack)
    army_list_submit(battle=battle, player=anna, parsed=parse_entries(
        {"name": f"{prefix} Zorblax list", "entries": [{"name": f"{prefix} Zorblax Vanguard",
                                                        "points": 100}]}))
    naval = _naval_battle(rnd, sea, anna, ben, f"{prefix} Naval Replay")
    pirates = _naval_battle(rnd, sea, anna, None, f"{prefix} Pirate Replay", sequence=2)
    assert FleetPhase.objects.filter(round=rnd).exists()
    campaign.webhooks.create(url="https://hooks.example.org/world", kind="json",
                             events=["round_closed"], secret=f"{prefix} hook secret")
    return Scope(campaign.pk, planet.pk, home.pk, link.pk, coast.pk, marker.pk, rnd.number,
                 attack.pk, battle.pk, fleet.pk, ship.pk, other_fleet.pk, other_ship.pk,
                 hazard.pk, naval.pk, pirates.pk, player=anna.pk)


def build_security_public(users: dict) -> Scope:
    """The demo campaign (public, round 1 in ``declare``), administered by the campaign admin;
    the player has declared an attack the other player may not see yet (R-SEC-2)."""
    campaign, _ = demo_create(admin_username=users[ADMIN].username)
    anna = campaign.players.get(user=users[PLAYER])
    ben = campaign.players.get(user=users[OTHER])
    rnd = campaign.rounds.get(number=1)
    target = campaign.tiles.filter(owner=ben).order_by("q", "r").last()
    anna_tile = campaign.tiles.filter(owner=anna).first()
    attack = _declare_first_legal(anna, rnd, [target, *campaign.tiles.exclude(owner=anna)])
    fleet, other_fleet = (campaign.fleets.get(owner=p) for p in (anna, ben))
    sea = other_fleet.area
    hazard = SeaHazardFactory(area=sea, name="Demo Xarbeast Maw")
    naval = _naval_battle(rnd, sea, anna, ben, "Demo Naval Replay")  # before the fleets phase
    return Scope(campaign.pk, anna_tile.planet_id, anna_tile.pk,
                 campaign.links.first().pk, sea.pk, campaign.markers.first().pk,
                 rnd.number, attack.pk, 0, fleet.pk, fleet.ships.first().pk, other_fleet.pk,
                 other_fleet.ships.first().pk, hazard.pk, naval.pk, player=anna.pk)


def _declare_first_legal(player: Player, rnd: Round, tiles):
    for candidate in tiles:
        try:
            return declare(player, rnd, candidate)
        except (DomainError, RuleViolation):
            continue
    raise AssertionError("no legal declaration in the demo")


def sentinels(private_prefix: str) -> dict[str, frozenset[str]]:
    """Each hidden word of the private campaign and the demo, with the roles that may see it."""
    p = private_prefix
    words = {
        f"{p} Zorblax": OWNER_AND_ADMINS[PLAYER],  # the player's army list (R-ARM-3)
        f"{p} Quillon": OWNER_AND_ADMINS[PLAYER],  # the player's fleet (R-FLT-7)
        '"if_stronger"': OWNER_AND_ADMINS[PLAYER],  # its standing orders
        f"{p} Grimfang": OWNER_AND_ADMINS[OTHER],  # the other player's fleet
        '"never"': OWNER_AND_ADMINS[OTHER],  # its standing orders
        "Xarbeast": frozenset({ADMIN, ROOT}),  # hidden hazards (R-SEA-2)
        # naval replays (R-FLT-7): the players who fought and the admin, once the fleets phase
        # ended (the demo's battle is in a round before it: nobody)
        f"{p} Naval Replay": frozenset({PLAYER, OTHER, ADMIN, ROOT}),
        f"{p} Pirate Replay": OWNER_AND_ADMINS[PLAYER], "Demo Naval Replay": frozenset(),
        # the demo's fleets
        "Forge Fleet Ryza": OWNER_AND_ADMINS[PLAYER], "Magos Vettius": OWNER_AND_ADMINS[PLAYER],
        "Ark of Omnissiah": OWNER_AND_ADMINS[PLAYER],
        "Da Red Armada": OWNER_AND_ADMINS[OTHER], "Kaptin Badrukk": OWNER_AND_ADMINS[OTHER],
        "Gorkbreaka": OWNER_AND_ADMINS[OTHER],
    }
    for word in ("Zorblax", "Quillon", "Grimfang", "Xarbeast", "Naval Replay",
                 "Pirate Replay"):  # only the site admin sees
        words[f"Foreign {word}"] = frozenset({ROOT})  # the foreign campaign at all
    for rnd in Round.objects.exclude(phase=Round.Phase.CLOSED):  # seeds before reveal
        words[bytes(rnd.server_seed).hex()] = frozenset()
    return words


def build_security_world() -> SecurityWorld:
    users = make_users()
    private = build_security_league(USERNAMES[ADMIN], USERNAMES[PLAYER], USERNAMES[OTHER],
                                    prefix="Hidden")
    foreign = build_security_league(*STRANGERS, prefix="Foreign")
    public = build_security_public(users)
    tokens = {role: user and Token.objects.create(user=user).key for role, user in users.items()}
    return SecurityWorld(users, private, public, foreign, sentinels("Hidden"), tokens)


# --- invitations ------------------------------------------------------------------

def unusable_invitation(lg: League, state: str):
    """A one-use link invitation of ``lg`` made unusable: ``revoked``, ``expired`` or
    ``used_up`` (accepted once, by "first"). Returns (invitation, token)."""
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.services import invitations as services

    invitation, token = services.invitation_link_create(campaign=lg.campaign, by=lg.admin,
                                                        max_uses=1)
    if state == "revoked":
        services.invitation_revoke(invitation=invitation)
    elif state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1))
    else:
        services.invitation_accept(token=token, user=UserFactory(username="first"),
                                   faction="Orks")
    return invitation, token


# --- map history -------------------------------------------------------------
# Hidden words of the history world: fleet, ship, cargo, crew, hazard, pirate fleet and ship.
# None may appear in a map snapshot, the history page or its API (R-FLT-7, R-SEA-2).
HISTORY_SECRETS = ("Umbral Armada", "Hulk Nyxaris", "Cargo Vexilla", "Admiral Sorrowmere",
                   "Kraken of Qel", "Corsair Blackwake", "Raider Skarn")
HISTORY_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


@dataclass
class HistoryWorld(CampaignPages):
    """Planet Alpha: anna holds ``a-home``, ``free`` is neutral, ben holds ``b-edge`` (named
    "Hill 12", with a manufactorum) and ``b-home``; ben's fleet (hidden details) in the ocean,
    pirates and a hidden hazard in the reaches, a coast next to Alpha; round 1 in declare."""

    lg: League
    alpha: Planet
    tiles: dict[str, Tile]
    areas: dict[str, Area]
    fleet: Fleet
    rnd: Round


def build_history_world(visibility: str = "private") -> HistoryWorld:
    from tests.factories import MarkerTypeFactory, TileMarkerFactory

    lg = make_league(visibility=visibility)
    for player, faction, colour in zip(lg.players, FACTIONS, HISTORY_COLOURS, strict=True):
        player.faction, player.colour = faction, colour
        player.save(update_fields=["faction", "colour"])
    alpha = lg.planet("Alpha")
    tiles = {"a-home": tile(alpha, 0, 0, lg.a), "free": tile(alpha, 1, 0),
             "b-edge": tile(alpha, 2, 0, lg.b), "b-home": tile(alpha, 3, 0, lg.b)}
    Tile.objects.filter(pk=tiles["b-edge"].pk).update(name="Hill 12")
    TileMarkerFactory(tile=tiles["b-edge"])  # a manufactorum (R-MRK-1)
    MarkerTypeFactory(campaign=lg.campaign, code="shield_generator", name="Shield generator",
                      army_points_bonus=0, conquest_modifier=-1, radius=1)
    areas = {"ocean": AreaFactory(campaign=lg.campaign, name="Deep Ocean"),
             "coast": AreaFactory(campaign=lg.campaign, name="Alpha Coast",
                                  kind=Area.Kind.COASTAL),
             "reaches": AreaFactory(campaign=lg.campaign, name="Outer Reaches")}
    armada, hulk, cargo, crew, kraken, corsairs, raider = HISTORY_SECRETS
    fleet = FleetFactory(area=areas["ocean"], owner=lg.b, name=armada,
                         standing_orders={"interception": "never"})
    ShipFactory(fleet=fleet, name=hulk, cargo=[{"name": cargo, "points": 500}],
                crew=[{"name": crew, "cp": 9}])
    pirates = FleetFactory(area=areas["reaches"], owner=None, kind=Fleet.Kind.PIRATE,
                           name=corsairs)
    ShipFactory(fleet=pirates, name=raider)
    SeaHazardFactory(area=areas["reaches"], name=kraken)
    return HistoryWorld(lg, alpha, tiles, areas, fleet, lg.start())


def sure_conquest(rnd: Round, attack: Attack) -> None:
    """Give ``rnd`` (in ``conquest``) a seed on which ``attack``'s conquest roll, the next draw
    and the only one left, shows at least 3 (an adjacent tile without modifiers, R-CON-1)."""
    from rules.dice import commitment, stream_faces

    rnd.refresh_from_db()
    for byte in range(256):
        seed = bytes([byte]) * 32
        faces = stream_faces(seed, rnd.campaign_id, rnd.number, f"conquest:attack={attack.pk}",
                             rnd.next_counter, 2)
        if sum(faces) >= 3:
            Round.objects.filter(pk=rnd.pk).update(server_seed=seed,
                                                   seed_commitment=commitment(seed))
            return
    raise AssertionError("no seed found")


def play_history_rounds(world: HistoryWorld, rounds: int = 2) -> None:
    """Round 1: anna takes the neutral ``free`` tile. Round 2: anna beats ben on ``b-edge`` and
    takes it (its manufactorum goes along, R-MRK-4), the admin puts a shield generator on
    ``a-home`` and ben's fleet moves from the ocean to the coast. Both rounds close."""
    from tests.factories import MarkerTypeFactory, TileMarkerFactory

    lg, rnd = world.lg, world.rnd
    attack = declare(lg.a, rnd, world.tiles["free"])
    advance_to(rnd, Round.Phase.CONQUEST)
    sure_conquest(rnd, attack)
    advance_to(rnd, Round.Phase.CLOSED)
    if rounds < 2:
        return
    rnd = world.campaign.rounds.get(number=2)
    attack = declare(lg.a, rnd, world.tiles["b-edge"])
    advance_to(rnd, Round.Phase.BATTLES)
    battle_result_enter(battle=Battle.objects.get(attack=attack), by_admin_user=lg.admin,
                        outcome="victory", attacker_vp=10, defender_vp=2)
    advance_to(rnd, Round.Phase.CONQUEST)
    sure_conquest(rnd, attack)
    shield = MarkerTypeFactory(campaign=world.campaign, code="shield_generator")
    TileMarkerFactory(tile=world.tiles["a-home"], type=shield)
    Fleet.objects.filter(pk=world.fleet.pk).update(area=world.areas["coast"])
    advance_to(rnd, Round.Phase.CLOSED)
