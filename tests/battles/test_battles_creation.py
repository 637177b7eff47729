"""Battles from declarations when ``declare`` ends (R-BAT-1, R-ATK-4, R-ATK-5) and the orbital
re-check when ``fleets`` ends (R-ATK-3)."""

import pytest

from battles.models import Battle, ResultChange
from battles.services.battles import battles_sync
from campaigns.models import Attack
from fleets.models import Ship
from tests.worlds import advance_to, declare, row, tile, transport

pytestmark = pytest.mark.django_db


def _battles(rnd):
    return list(Battle.objects.filter(round=rnd).order_by("tile_id", "chain_position"))


def test_r_bat_1_declare_end_creates_a_battle_against_the_holder(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    target = tile(alpha, 1, 0, lg.b)
    rnd = lg.start()
    attack = declare(lg.a, rnd, target)
    assert not Battle.objects.exists()
    advance_to(rnd, "fleets")
    (battle,) = _battles(rnd)
    assert (battle.attack_id, battle.attacker_id, battle.defender_id) == (attack.pk, lg.a.pk,
                                                                          lg.b.pk)
    assert (battle.tile_id, battle.status, battle.neutral) == (target.pk, "open", False)
    assert (battle.chain_position, battle.chain_length) == (1, 1)
    assert battle.campaign_id == lg.campaign.pk and battle.settled_at is not None


def test_r_atk_5_three_attackers_on_one_tile_form_a_chain_in_declaration_order(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0, lg.d)
    tile(alpha, 1, 0, lg.c)
    tile(alpha, -1, 0, lg.a)
    tile(alpha, 0, 1, lg.b)
    rnd = lg.start()
    orders = [declare(p, rnd, target).order for p in (lg.c, lg.a, lg.b)]
    assert orders == [1, 2, 3]
    advance_to(rnd, "fleets")
    chain = _battles(rnd)
    assert [(b.attacker_id, b.chain_position, b.chain_length) for b in chain] == [
        (lg.c.pk, 1, 3), (lg.a.pk, 2, 3), (lg.b.pk, 3, 3)]
    assert [(b.defender_id, b.status) for b in chain] == [
        (lg.d.pk, "open"), (None, "pending"), (None, "pending")]
    assert [b.settled_at is None for b in chain] == [False, True, True]


def test_r_atk_4_a_single_attack_on_a_neutral_tile_needs_no_battle(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    target = tile(alpha, 1, 0)
    rnd = lg.start()
    attack = declare(lg.a, rnd, target)
    advance_to(rnd, "lists")
    assert _battles(rnd) == []
    assert Attack.objects.get(pk=attack.pk).status == "active"  # a won attack for R-CON


def test_r_atk_4_neutral_needs_battle_creates_a_garrison_battle(lg):
    lg.set_rules(neutral_needs_battle=True)
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    target = tile(alpha, 1, 0)
    rnd = lg.start()
    declare(lg.a, rnd, target)
    advance_to(rnd, "lists")
    (battle,) = _battles(rnd)
    assert (battle.defender_id, battle.neutral, battle.status) == (None, True, "open")
    assert battle.point_limits == {str(lg.a.pk): 1500}  # the garrison has no limit


def test_r_atk_4_chain_on_a_neutral_tile_starts_with_a_walkover(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0)
    tile(alpha, 1, 0, lg.a)
    tile(alpha, -1, 0, lg.b)
    rnd = lg.start()
    declare(lg.a, rnd, target)
    declare(lg.b, rnd, target)
    advance_to(rnd, "fleets")
    first, second = _battles(rnd)
    assert (first.neutral, first.defender_id, first.status) == (True, None, "done")
    assert (first.outcome, first.result_status) == ("victory", "confirmed") and first.won
    (change,) = ResultChange.objects.filter(battle=first)
    assert change.by is None and change.old is None
    assert change.new["reason"].startswith("R-ATK-4")
    assert (second.status, second.defender_id, second.chain_position) == ("pending", None, 2)


def test_r_bat_1_battle_creation_is_idempotent(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    target = tile(alpha, 1, 0, lg.b)
    rnd = lg.start()
    declare(lg.a, rnd, target)
    advance_to(rnd, "fleets")
    before = [(b.pk, b.status, b.settled_at) for b in _battles(rnd)]
    assert battles_sync(round=rnd, now=None) == {"created": 0, "updated": 0, "deleted": 0}
    assert [(b.pk, b.status, b.settled_at) for b in _battles(rnd)] == before


def test_r_atk_5_withdrawn_declarations_get_no_battle(lg):
    from battles.services.attacks import attack_withdraw

    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    target = tile(alpha, 1, 0, lg.b)
    rnd = lg.start()
    attack_withdraw(player=lg.a, attack=declare(lg.a, rnd, target))
    advance_to(rnd, "fleets")
    assert _battles(rnd) == []


@pytest.fixture
def orbital(lg):
    """Anna transports 2 x 1500 points to Gamma (ben's) and declares g2, then g1; carl, next to
    g1, declares g1 after her: g1 is a chain [anna, carl]."""
    gamma = lg.planet("Gamma")
    g1, g2 = tile(gamma, 0, 0, lg.b), tile(gamma, 3, 0, lg.b)
    tile(gamma, 0, 1, lg.c)
    fleet = transport(gamma, lg.a, (1500, 1500))
    rnd = lg.start()
    on_g2 = declare(lg.a, rnd, g2, armies=2)
    on_g1 = declare(lg.a, rnd, g1, armies=0)
    carl = declare(lg.c, rnd, g1)
    assert (on_g2.source, on_g1.source, carl.source) == ("orbit", "orbit", "adjacent")
    advance_to(rnd, "fleets")
    return rnd, fleet, on_g2, on_g1, carl


def _status(*attacks):
    return [Attack.objects.get(pk=a.pk).status for a in attacks]


def test_r_atk_3_recheck_cancels_the_latest_orbital_declaration_first(lg, orbital):
    rnd, fleet, on_g2, on_g1, carl = orbital
    assert len(_battles(rnd)) == 3
    Ship.objects.filter(fleet=fleet).first().delete()  # sunk with 1500 points aboard
    advance_to(rnd, "lists")
    assert _status(on_g2, on_g1, carl) == ["active", "cancelled", "active"]
    assert "R-ATK-3" in Attack.objects.get(pk=on_g1.pk).status_reason
    assert not Battle.objects.filter(attack=on_g1.pk).exists()
    # carl moves up to link 1 of g1: he fights its holder now, alone
    promoted = Battle.objects.get(attack=carl.pk)
    assert (promoted.chain_position, promoted.chain_length) == (1, 1)
    assert (promoted.defender_id, promoted.status) == (lg.b.pk, "open")
    assert promoted.point_limits  # settled, so limits are computed when lists opens
    kept = Battle.objects.get(attack=on_g2.pk)
    assert (kept.chain_position, kept.chain_length, kept.status) == (1, 1, "open")


def test_r_atk_3_recheck_cancels_all_when_the_fleet_left(lg, orbital):
    rnd, fleet, on_g2, on_g1, carl = orbital
    from tests.factories import OrbitAreaFactory

    fleet.area = OrbitAreaFactory(planet=lg.planet("Elsewhere"))
    fleet.save()
    advance_to(rnd, "lists")
    assert _status(on_g2, on_g1, carl) == ["cancelled", "cancelled", "active"]
    assert [b.attack_id for b in _battles(rnd)] == [carl.pk]


def test_r_atk_3_recheck_keeps_covered_declarations(lg, orbital):
    rnd, fleet, on_g2, on_g1, carl = orbital
    advance_to(rnd, "lists")
    assert _status(on_g2, on_g1, carl) == ["active", "active", "active"]
    chain = Battle.objects.filter(tile=on_g1.tile_id).order_by("chain_position")
    assert [(b.attacker_id, b.chain_position, b.status) for b in chain] == [
        (lg.a.pk, 1, "open"), (lg.c.pk, 2, "pending")]
