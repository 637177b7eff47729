"""``attack_check`` reads of the target's planet only the target, the tiles around it
and the declarer's own tiles (``declaration_state``), in one query. Its verdict (R-ATK-1..3,
with R-ATK-6's message) is the one ``rules.attacks.check_attack`` gives on the whole planet,
for every declarer and tile of random maps with links, structures and declarations. And a
refused declaration, made without a savepoint, leaves the caller's transaction usable."""

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from battles.selectors.attacks import armies_bought
from battles.selectors.legality import attack_check
from battles.services.attacks import attack_declare
from campaigns.errors import RuleViolation
from campaigns.models import Attack, Purchase, TileLink
from campaigns.selectors.boards import load_planet_board
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import orbit_info
from rules.attacks import NO_ORBIT, check_attack, orbit_matters
from tests.worlds import buy, make_league, tile, transport

pytestmark = pytest.mark.django_db
RADIUS = 2


def whole_planet_check(rnd, player, target):
    """The verdict on the whole planet's board, read tile by tile as before."""
    own = list(Attack.objects.filter(round=rnd, player=player).values_list("tile_id", "status"))
    standing = [t for t, status in own if status == Attack.Status.ACTIVE]
    board = load_planet_board(rnd.campaign_id, [target.planet_id], markers=False)
    orbit = NO_ORBIT
    if orbit_matters(board, player.pk, target.pk):
        orbit = orbit_info(rnd.campaign, player, target.planet_id, rnd=rnd)
    return check_attack(board, ruleset_of(rnd.campaign), player.pk, target.pk,
                        armies_bought(rnd, player), standing, orbit,
                        withdrawn=len(own) - len(standing))


def random_world(seed: int):
    """Two hexagonal planets; tiles held at random by three players (the third none on Beta,
    where its fleet is in orbit) or nobody, some of them structures; links on a planet and
    across; purchases and declarations, some withdrawn."""
    rng = random.Random(seed)
    lg = make_league(players=("p0", "p1", "p2"), admin="orga")
    planets = [lg.planet("Alpha"), lg.planet("Beta")]
    owners = {"Alpha": [*lg.players, None, None], "Beta": [*lg.players[:2], None, None]}
    features = [(), (), (), ("mountain",), ("spaceport",), ("macropole", "defence")]
    tiles = [tile(planet, q, r, rng.choice(owners[planet.name]), rng.choice(features))
             for planet in planets for q in range(-RADIUS, RADIUS + 1)
             for r in range(-RADIUS, RADIUS + 1) if abs(q + r) <= RADIUS]
    for a, b in (rng.sample(tiles, 2) for _ in range(6)):
        a, b = sorted((a, b), key=lambda t: t.pk)
        TileLink.objects.get_or_create(campaign=lg.campaign, a=a, b=b)
    transport(planets[1], lg.players[2], (1500,))
    rnd = lg.start()
    for i, player in enumerate(lg.players):
        Purchase.objects.create(round=rnd, player=player, attack_armies=3 + i, cost=1)
    order = 0
    for player in lg.players:
        for target in rng.sample(tiles, 3):
            order += 1
            Attack.objects.create(round=rnd, player=player, tile=target, order=order,
                                  source="adjacent",
                                  status=rng.choice(["active", "active", "withdrawn"]))
    return lg, rnd, tiles


@pytest.mark.parametrize("seed", [1, 2, 4, 5])
def test_r_atk_6_the_neighbourhood_gives_the_whole_planets_verdict(seed):
    lg, rnd, tiles = random_world(seed)
    verdicts = set()
    for player in lg.players:
        for target in tiles:
            got = attack_check(rnd, player, target)
            assert got == whole_planet_check(rnd, player, target), (player, target)
            verdicts.add((got.source, got.rule))
    assert verdicts >= {("adjacent", None), ("structure", None), ("orbit", None),
                        (None, "R-ATK-1"), (None, "R-ATK-2")}


def test_r_atk_2_a_a_link_either_way_makes_a_far_tile_adjacent(lg):
    """Links are stored with a < b: the target may be either end. A link to another planet's
    tile does not count (R-ATK-2 a)."""
    alpha, beta = lg.planet("Alpha"), lg.planet("Beta")
    before = tile(alpha, 5, 0, lg.b)  # a smaller id than the declarer's tile
    home = tile(alpha, 0, 0, lg.a)
    after = tile(alpha, 0, 5, lg.b)
    across = tile(beta, 0, 0, lg.b)
    tile(beta, 3, 3, lg.a)
    for a, b in ((before, home), (home, after), (home, across)):
        TileLink.objects.create(campaign=lg.campaign, a=a, b=b)
    rnd = lg.start()
    buy(lg.a, rnd, 1)
    assert attack_check(rnd, lg.a, before).source == "adjacent"
    assert attack_check(rnd, lg.a, after).source == "adjacent"
    assert attack_check(rnd, lg.a, across).rule == "R-ATK-2"


def test_r_atk_1_the_rules_inputs_are_one_query(lg):
    alpha = lg.planet("Alpha")
    home = tile(alpha, 0, 0, lg.a)
    target = tile(alpha, 1, 0, lg.b)
    rnd = lg.start()
    buy(lg.a, rnd, 1)
    with CaptureQueriesContext(connection) as queries:
        check = attack_check(rnd, lg.a, target)
    assert check.legal and check.source == "adjacent" and len(queries) == 1
    assert home.owner_id == lg.a.pk


def test_a_refused_declaration_leaves_the_callers_transaction_usable(lg):
    alpha = lg.planet("Alpha")
    tile(alpha, 0, 0, lg.a)
    target = tile(alpha, 1, 0, lg.b)
    rnd = lg.start()
    with transaction.atomic():
        with pytest.raises(RuleViolation) as refused:
            attack_declare(player=lg.a, round=rnd, tile=target)  # no army bought (R-ATK-1)
        assert refused.value.code == "R-ATK-1"
        buy(lg.a, rnd, 1)  # the transaction goes on
        attack = attack_declare(player=lg.a, round=rnd, tile=target)
    assert Attack.objects.get().pk == attack.pk and attack.order == 1
