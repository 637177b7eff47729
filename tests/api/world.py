"""A seeded world for the permission matrix and the fuzzing gate: six roles, a private campaign
in the ``lists`` phase (a battle with one hidden army list, fleets with hidden values, orders, a
hidden sea hazard, a naval battle report, the fleet phase record), the public demo campaign in
``declare`` with a hidden declaration, and a campaign none of the roles belong to. Hidden
values carry distinctive words (``SENTINELS``) so tests can search every answer for them."""

from dataclasses import dataclass

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from battles.models import Battle
from battles.rosters import parse_entries
from battles.services.lists import army_list_submit
from campaigns.errors import DomainError
from campaigns.models import Campaign, Player, Round
from fleets.models import Area, FleetPhase, NavalBattle
from league.demo import demo_create
from league.services.rounds import campaign_start
from rules.violation import RuleViolation
from tests.campaigns.league_map import advance_to, declare
from tests.factories import (
    AreaFactory,
    CampaignFactory,
    FleetFactory,
    FleetOrderFactory,
    MarkerFactory,
    PlanetFactory,
    PlayerFactory,
    SeaHazardFactory,
    ShipFactory,
    TileFactory,
    TileLinkFactory,
    UserFactory,
)

ANON, OUTSIDER, PLAYER, OTHER, ADMIN, ROOT = ROLES = (
    "anonymous", "non-member", "player", "other player", "campaign admin", "site admin")
USERNAMES = {OUTSIDER: "nina", PLAYER: "anna", OTHER: "ben", ADMIN: "orga", ROOT: "root"}
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
    naval: int


@dataclass
class World:
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


def _fleet(campaign, owner, area, name: str, orders: dict, words: tuple[str, str, str]):
    ship_name, cargo, crew = words
    fleet = FleetFactory(campaign=campaign, owner=owner, area=area, name=name,
                         standing_orders=orders)
    ship = ShipFactory(fleet=fleet, position=1, name=ship_name, ship_class=f"{ship_name} class",
                       capacity=2, cargo=[{"name": cargo, "points": 500}],
                       crew=[{"name": crew, "cp": 12}])
    return fleet, ship


def _naval_battle(rnd: Round, area: Area, attacker: Player, defender: Player) -> NavalBattle:
    """A report whose sides name no hidden value (a report shows what both fleets saw)."""
    return NavalBattle.objects.create(
        round=rnd, area=area, engine="dark_force", attacker=attacker, defender=defender,
        sides=[{"player": attacker.pk}, {"player": defender.pk}],
        outcome={"winner": "attacker"}, events=[{"rule": "R-NAV-13", "step": "end"}])


def build_league(admin: User, player: User, other: User, *, prefix: str) -> Scope:
    """A private campaign in the ``lists`` phase: ``player`` attacked ``other`` and handed in
    its army list (hidden from ``other``, R-ARM-3); both have a fleet with hidden values
    (R-FLT-7); a hidden hazard (R-SEA-2); a naval battle report and the fleet phase record."""
    campaign = CampaignFactory(name=f"{prefix} front", visibility=Campaign.Visibility.PRIVATE)
    campaign.admins.add(admin)
    anna = PlayerFactory(campaign=campaign, user=player, requisition=10)
    ben = PlayerFactory(campaign=campaign, user=other, requisition=10)
    planet = PlanetFactory(campaign=campaign, name=f"{prefix} prime")
    home = TileFactory(planet=planet, q=0, r=0, owner=anna)
    target = TileFactory(planet=planet, q=1, r=0, owner=ben)
    far = TileFactory(planet=planet, q=0, r=3)
    link = TileLinkFactory(a=home, b=far)
    marker = MarkerFactory(tile=target)
    coast = AreaFactory(campaign=campaign, name=f"{prefix} coast", kind=Area.Kind.COASTAL)
    coast.borders_tiles.add(home)
    sea = AreaFactory(campaign=campaign, name=f"{prefix} sea")
    coast.adjacent.add(sea)
    fleet, ship = _fleet(campaign, anna, coast, f"{prefix} Quillon Armada",
                         {"interception": "if_stronger"},
                         (f"{prefix} Quillon Gloriana", f"{prefix} Quillon Guard",
                          f"{prefix} Quillon Loken"))
    other_fleet, other_ship = _fleet(campaign, ben, sea, f"{prefix} Grimfang Horde",
                                     {"interception": "never"},
                                     (f"{prefix} Grimfang Kroozer", f"{prefix} Grimfang Mob",
                                      f"{prefix} Grimfang Kaptin"))
    hazard = SeaHazardFactory(area=sea, name=f"{prefix} Xarbeast Maw")
    rnd = campaign_start(campaign=campaign)
    attack = declare(anna, rnd, target)
    rnd = advance_to(rnd, Round.Phase.LISTS)
    FleetOrderFactory(round=rnd, fleet=fleet, path=[sea.pk])  # given, after the phase ran
    battle = Battle.objects.get(attack=attack)
    army_list_submit(battle=battle, player=anna, parsed=parse_entries(
        {"name": f"{prefix} Zorblax list", "entries": [{"name": f"{prefix} Zorblax Vanguard",
                                                        "points": 100}]}))
    naval = _naval_battle(rnd, sea, anna, ben)
    assert FleetPhase.objects.filter(round=rnd).exists()
    return Scope(campaign.pk, planet.pk, home.pk, link.pk, coast.pk, marker.pk, rnd.number,
                 attack.pk, battle.pk, fleet.pk, ship.pk, other_fleet.pk, other_ship.pk,
                 hazard.pk, naval.pk)


def build_public(users: dict) -> Scope:
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
    naval = _naval_battle(rnd, sea, anna, ben)
    return Scope(campaign.pk, anna_tile.planet_id, anna_tile.pk,
                 campaign.links.first().pk, sea.pk, campaign.markers.first().pk,
                 rnd.number, attack.pk, 0, fleet.pk, fleet.ships.first().pk, other_fleet.pk,
                 other_fleet.ships.first().pk, hazard.pk, naval.pk)


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
        # the demo's fleets
        "Forge Fleet Ryza": OWNER_AND_ADMINS[PLAYER], "Magos Vettius": OWNER_AND_ADMINS[PLAYER],
        "Ark of Omnissiah": OWNER_AND_ADMINS[PLAYER],
        "Da Red Armada": OWNER_AND_ADMINS[OTHER], "Kaptin Badrukk": OWNER_AND_ADMINS[OTHER],
        "Gorkbreaka": OWNER_AND_ADMINS[OTHER],
    }
    for word in ("Zorblax", "Quillon", "Grimfang", "Xarbeast"):  # only the site admin sees
        words[f"Foreign {word}"] = frozenset({ROOT})  # the foreign campaign at all
    for rnd in Round.objects.exclude(phase=Round.Phase.CLOSED):  # seeds before reveal
        words[bytes(rnd.server_seed).hex()] = frozenset()
    return words


def build_world() -> World:
    users = make_users()
    private = build_league(users[ADMIN], users[PLAYER], users[OTHER], prefix="Hidden")
    strangers = [UserFactory(username=name) for name in ("xaver", "yvonne", "zeno")]
    foreign = build_league(*strangers, prefix="Foreign")
    public = build_public(users)
    tokens = {role: user and Token.objects.create(user=user).key for role, user in users.items()}
    return World(users, private, public, foreign, sentinels("Hidden"), tokens)
