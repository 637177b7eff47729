"""Attack armies and declarations (R-ECO-1, R-ATK-1..6) through the services and the API."""

from types import SimpleNamespace

import pytest
from django.db import connection

from battles.services.attacks import attack_declare, attack_withdraw, purchase_create
from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Attack, Player, Purchase
from fleets.selectors.board import load_board, orbit_info
from tests.concurrency import at_once
from tests.factories import CampaignFactory, PlanetFactory, TileFactory, UserFactory
from tests.worlds import advance_to, api, buy, declare, row, tile, transport

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(lg):
    """Alpha: anna (A) and ben (B) side by side with a neutral tile between them; Beta: anna's
    spaceport far from ben's tile; Gamma: ben's, anna transports 1500 points in its orbit;
    Delta: ben's, anna's fleet there carries 1000 points; Epsilon: ben's, no fleet of anna."""
    alpha, beta, gamma = lg.planet("Alpha"), lg.planet("Beta"), lg.planet("Gamma")
    delta, epsilon = lg.planet("Delta"), lg.planet("Epsilon")
    a1, a2 = row(alpha, lg.a, (0, 1))
    b1, b2 = row(alpha, lg.b, (2, 3), r=-1)
    w = SimpleNamespace(
        lg=lg, alpha=alpha, gamma=gamma, a1=a1, a2=a2, b1=b1, b2=b2,
        neutral=tile(alpha, 2, 0), far=tile(alpha, 0, 3),
        spaceport=tile(beta, 0, 0, lg.a, ("spaceport",)), beta_b=tile(beta, 5, 0, lg.b),
        g1=tile(gamma, 0, 0, lg.b), g2=tile(gamma, 1, 0, lg.b),
        delta_b=tile(delta, 0, 0, lg.b), epsilon_b=tile(epsilon, 0, 0, lg.b))
    transport(gamma, lg.a, (1500,))
    transport(delta, lg.a, (1000,))
    w.rnd = lg.start()
    return w


def attacks_url(w, suffix=""):
    return w.lg.url(f"rounds/{w.rnd.number}/attacks/{suffix}")


# --- R-ECO-1 purchases ---

def test_r_eco_1_purchase_deducts_the_requisition(world):
    response = api(world.lg.a.user).post(world.lg.url("rounds/1/purchases/"),
                                         {"attack_armies": 3}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["attack_armies"], body["cost"], body["requisition"]) == (3, 3, 7)
    assert (body["armies_bought"], body["armies_used"], body["round"]) == (3, 0, 1)
    assert Player.objects.get(pk=world.lg.a.pk).requisition == 7


def test_r_eco_1_purchase_uses_the_ruleset_price(world):
    world.lg.set_rules(attack_army_cost=4)
    purchase = buy(world.lg.a, world.rnd, 2)
    assert (purchase.attack_armies, purchase.cost) == (2, 8)
    assert Player.objects.get(pk=world.lg.a.pk).requisition == 2


def test_r_eco_1_short_requisition_is_400(world):
    response = api(world.lg.a.user).post(world.lg.url("rounds/1/purchases/"),
                                         {"attack_armies": 11}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "R-ECO-1"
    assert "short by 1" in response.json()["detail"]
    assert Player.objects.get(pk=world.lg.a.pk).requisition == 10
    assert not Purchase.objects.exists()


@pytest.mark.parametrize("armies", [0, -2])
def test_r_eco_1_at_least_one_army(world, armies):
    with pytest.raises(RuleViolation) as exc:
        purchase_create(player=world.lg.a, round=world.rnd, attack_armies=armies)
    assert exc.value.code == "R-ECO-1"


@pytest.mark.parametrize("payload", [{}, {"attack_armies": "many"}, {"attack_armies": True},
                                     {"attack_armies": 10**12}, {"attack_armies": 1.5}, []])
def test_purchase_rejects_malformed_input(world, payload):
    response = api(world.lg.a.user).post(world.lg.url("rounds/1/purchases/"), payload,
                                         format="json")
    assert response.status_code == 400
    assert Player.objects.get(pk=world.lg.a.pk).requisition == 10


def test_r_eco_1_purchase_outside_declare_is_409(world):
    advance_to(world.rnd, "lists")
    with pytest.raises(Conflict):
        buy(world.lg.a, world.rnd)
    response = api(world.lg.a.user).post(world.lg.url("rounds/1/purchases/"),
                                         {"attack_armies": "junk"}, format="json")
    assert response.status_code == 409  # the phase is checked before the input
    assert response.json()["code"] == "wrong_phase"


def test_purchase_permissions(world):
    url = world.lg.url("rounds/1/purchases/")
    assert api().post(url, {"attack_armies": 1}, format="json").status_code == 401
    assert api(UserFactory()).post(url, {"attack_armies": 1}, format="json").status_code == 404
    assert api(world.lg.admin).post(url, {"attack_armies": 1}, format="json").status_code == 403
    assert api(world.lg.a.user).post(world.lg.url("rounds/7/purchases/"), {"attack_armies": 1},
                                     format="json").status_code == 404


# --- R-ATK-2 sources ---

def test_r_atk_2_a_adjacent_declaration(world):
    buy(world.lg.a, world.rnd, 1)
    response = api(world.lg.a.user).post(attacks_url(world), {"tile": world.b1.pk},
                                         format="json")
    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("tile", "attacker", "source", "order", "status")} == {
        "tile": world.b1.pk, "attacker": world.lg.a.pk, "source": "adjacent", "order": 1,
        "status": "active"}
    assert Attack.objects.get(pk=body["id"]).source == "adjacent"


def test_r_atk_2_b_structure_declaration_reaches_any_tile_of_the_planet(world):
    attack = declare(world.lg.a, world.rnd, world.beta_b)
    assert attack.source == "structure"


def test_r_atk_3_orbital_declaration_with_embarked_points(world):
    attack = declare(world.lg.a, world.rnd, world.g1)
    assert attack.source == "orbit"
    info = orbit_info(world.lg.campaign, world.lg.a, world.gamma.pk, rnd=world.rnd)
    assert (info.embarked_points, info.has_fleet, info.declarations) == (1500, True, 1)


def test_r_atk_3_second_orbital_declaration_needs_twice_the_points(world):
    declare(world.lg.a, world.rnd, world.g1, armies=2)
    with pytest.raises(RuleViolation) as exc:
        attack_declare(player=world.lg.a, round=world.rnd, tile=world.g2)
    assert exc.value.code == "R-ATK-3"
    assert "3000" in exc.value.message


def test_r_atk_5_declarations_are_numbered_across_players(world):
    first = declare(world.lg.a, world.rnd, world.neutral)
    second = declare(world.lg.b, world.rnd, world.neutral)
    third = declare(world.lg.a, world.rnd, world.b1)
    assert [first.order, second.order, third.order] == [1, 2, 3]


# --- R-ATK-1..3 illegal declarations (R-ATK-6 names the rule) ---

def _refused(world, player, target, code, *, armies=1, fragment=""):
    if armies:
        buy(player, world.rnd, armies)
    response = api(player.user).post(attacks_url(world), {"tile": target.pk}, format="json")
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == code
    assert code in body["detail"] and fragment in body["detail"]
    return body


def test_r_atk_1_no_army_bought(world):
    _refused(world, world.lg.a, world.b1, "R-ATK-1", armies=0, fragment="no attack army left")


def test_r_atk_1_one_attack_per_army(world):
    declare(world.lg.a, world.rnd, world.b1)
    _refused(world, world.lg.a, world.neutral, "R-ATK-1", armies=0,
             fragment="1 bought this round, 1 already used")


def test_r_atk_1_not_the_own_tile(world):
    _refused(world, world.lg.a, world.a1, "R-ATK-1", fragment="your own tile")


def test_r_atk_1_not_the_same_tile_twice(world):
    declare(world.lg.a, world.rnd, world.b1, armies=2)
    _refused(world, world.lg.a, world.b1, "R-ATK-1", armies=0, fragment="already declared")


def test_r_atk_2_not_adjacent_without_structure(world):
    _refused(world, world.lg.a, world.far, "R-ATK-2", fragment="not adjacent")


def test_r_atk_2_other_planet_without_a_fleet_in_orbit(world):
    _refused(world, world.lg.a, world.epsilon_b, "R-ATK-2", fragment="no fleet in its orbit")


def test_r_atk_3_when_only_orbit_points_are_missing(world):
    body = _refused(world, world.lg.a, world.delta_b, "R-ATK-3", fragment="carry 1000")
    assert body["errors"] == {"tile": [body["detail"]]}


def test_r_atk_2_links_to_other_planets_do_not_count(world):
    from campaigns.models import TileLink

    a, b = sorted((world.a1, world.epsilon_b), key=lambda t: t.pk)
    TileLink.objects.create(campaign=world.lg.campaign, a=a, b=b)
    board = load_board(world.lg.campaign)
    assert board.are_adjacent(world.a1.pk, world.epsilon_b.pk)  # R-MAP-1: the link holds
    _refused(world, world.lg.a, world.epsilon_b, "R-ATK-2")


@pytest.mark.parametrize("payload", [{}, {"tile": "b1"}, {"tile": None}, {"tile": True},
                                     {"tile": 10**15}, {"tile": [1]}, {"tile": 999999}])
def test_attack_rejects_malformed_or_unknown_tiles(world, payload):
    buy(world.lg.a, world.rnd)
    response = api(world.lg.a.user).post(attacks_url(world), payload, format="json")
    assert response.status_code == 400
    assert not Attack.objects.exists()


def test_attack_on_another_campaigns_tile_is_400(world):
    stranger = TileFactory(planet=PlanetFactory(campaign=CampaignFactory()))
    buy(world.lg.a, world.rnd)
    response = api(world.lg.a.user).post(attacks_url(world), {"tile": stranger.pk},
                                         format="json")
    assert response.status_code == 400 and "tile" in response.json()["errors"]
    with pytest.raises(RuleViolation):
        attack_declare(player=world.lg.a, round=world.rnd, tile=stranger)


def test_attack_permissions_and_phase(world):
    url = attacks_url(world)
    assert api().post(url, {"tile": world.b1.pk}, format="json").status_code == 401
    assert api(UserFactory()).post(url, {"tile": world.b1.pk}, format="json").status_code == 404
    assert api(world.lg.admin).post(url, {"tile": world.b1.pk}, format="json").status_code == 403
    buy(world.lg.a, world.rnd)
    advance_to(world.rnd, "fleets")
    late = api(world.lg.a.user).post(url, {"tile": "junk"}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "wrong_phase"


# --- R-ATK-5 withdrawal ---

def test_r_atk_5_withdraw_keeps_the_army_spent(world):
    attack = declare(world.lg.a, world.rnd, world.b1)
    response = api(world.lg.a.user).delete(attacks_url(world, f"{attack.pk}/"))
    assert response.status_code == 204
    attack.refresh_from_db()
    assert attack.status == "withdrawn" and "R-ATK-5" in attack.status_reason
    with pytest.raises(RuleViolation) as exc:
        attack_declare(player=world.lg.a, round=world.rnd, tile=world.neutral)
    assert exc.value.code == "R-ATK-1"
    again = api(world.lg.a.user).delete(attacks_url(world, f"{attack.pk}/"))
    assert again.status_code == 409 and again.json()["code"] == "not_active"


def test_r_atk_5_only_its_player_withdraws_and_only_during_declare(world):
    attack = declare(world.lg.a, world.rnd, world.b1)
    url = attacks_url(world, f"{attack.pk}/")
    assert api(world.lg.b.user).delete(url).status_code == 404  # hidden from ben in declare
    assert api(world.lg.admin).delete(url).status_code == 403
    assert api(world.lg.a.user).delete(attacks_url(world, "999999/")).status_code == 404
    advance_to(world.rnd, "lists")
    assert api(world.lg.b.user).delete(url).status_code == 403  # visible now, not his
    late = api(world.lg.a.user).delete(url)
    assert late.status_code == 409 and late.json()["code"] == "wrong_phase"
    with pytest.raises(Conflict):
        attack_withdraw(player=world.lg.a, attack=attack)
    assert Attack.objects.get(pk=attack.pk).status == "active"


# --- visibility (API.md, R-SEC-2) ---

def _listed(user, world):
    response = api(user).get(attacks_url(world))
    assert response.status_code == 200
    return sorted(a["attacker"] for a in response.json()["results"])


def test_attacks_are_private_during_declare_and_public_after(world):
    lg = world.lg
    declare(lg.a, world.rnd, world.b1)
    declare(lg.b, world.rnd, world.neutral)
    assert _listed(lg.a.user, world) == [lg.a.pk]
    assert _listed(lg.b.user, world) == [lg.b.pk]
    assert _listed(lg.c.user, world) == []
    assert _listed(lg.admin, world) == [lg.a.pk, lg.b.pk]
    advance_to(world.rnd, "lists")
    assert _listed(lg.c.user, world) == [lg.a.pk, lg.b.pk]
    assert api().get(attacks_url(world)).status_code == 401
    assert api(UserFactory()).get(attacks_url(world)).status_code == 404


def test_attacks_list_in_a_public_campaign_is_for_members(world):
    world.lg.campaign.visibility = "public"
    world.lg.campaign.save()
    assert api(UserFactory()).get(attacks_url(world)).status_code == 403


# --- concurrency ---

@pytest.mark.django_db(transaction=True)
def test_r_atk_1_two_racing_declarations_cannot_share_the_last_army(lg):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    targets = [tile(alpha, 1, -1, lg.b), tile(alpha, 1, 0, lg.b)]  # both next to (0, 0)
    rnd = lg.start()
    buy(lg.a, rnd, 1)
    results = at_once(*(lambda t=t: attack_declare(player=lg.a, round=rnd, tile=t)
                        for t in targets))
    outcomes = [r.code if isinstance(r, RuleViolation) else r for r in results]
    outcomes = ["ok" if isinstance(r, Attack) else r for r in outcomes]
    assert sorted(outcomes) == ["R-ATK-1", "ok"]
    assert Attack.objects.filter(round=rnd).count() == 1


@pytest.mark.django_db(transaction=True)
def test_r_atk_5_racing_declarations_of_two_players_take_the_next_numbers(lg):
    """Each reads the round's last number under the round's lock (after it, in its
    own statement), so neither takes the other's."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (3,))
    targets = {lg.a: tile(alpha, 1, 0), lg.b: tile(alpha, 2, 0)}
    rnd = lg.start()
    for player in targets:
        buy(player, rnd, 1)
    results = at_once(*(lambda p=p: attack_declare(player=p, round=rnd, tile=targets[p])
                        for p in targets))
    assert not [r for r in results if isinstance(r, Exception)]
    assert sorted(Attack.objects.filter(round=rnd).values_list("order", flat=True)) == [1, 2]

