"""R-DICE-3 end to end on a round that uses every random rule together, on the
real round stream (the first seed of a fixed list that makes all of them happen): the players'
order (R-FLT-6), interceptions with pirates (R-INT-2..5), a withdrawal whose fleet moves on
(R-INT-4 d), a sea hazard (R-SEA-2), naval battles with boarding and a retreat (R-NAV, R-BRD),
a chain with an immediate roll (R-CON-6) and conquest rolls with multi-conquest (R-CON-4).
After the round closes, the outside verifier written from RULES.md alone reproduces every
logged face, and ``manage.py verify_round`` accepts the log."""

import hashlib

import pytest
from django.core.management import call_command

from battles.models import Battle, ConquestRoll
from battles.services.chains import chain_decide
from battles.services.conquest import conquest_choose
from battles.services.results import battle_result_enter
from campaigns.models import DiceRoll, Round
from fleets.models import Fleet, FleetPhase
from fleets.phase_state import load_phase
from fleets.services.orders import fleet_set_orders
from rules.dice import RoundStream
from rules.fleet_phase import resolve_fleet_phase
from tests.factories import AreaFactory
from tests.rules.test_dice_verifier import recompute
from tests.worlds import advance_to, build_fleet_phase, declare, row, tile


def _uses_every_rule(result) -> bool:
    """A withdrawal whose fleet then carries out its order (R-INT-4 d), a boarding duel
    (R-BRD) and a retreat (R-NAV-12) - besides what every seed has: the players' order,
    pirate interceptions and the hazard on the island."""
    steps = {e.get("step") for e in result.events}
    fought = {e.get("step") for battle in result.battles for e in battle.events}
    moved_on = any(e.get("step") == "order" and e.get("withdrawn") for e in result.events)
    return "withdraw" in steps and moved_on and {"duel_attack", "retreat"} <= fought


def _seed_using_every_rule(rnd: Round) -> bytes:
    """The first of a fixed list of seeds whose fleets phase, run on the pure engine with this
    world's ids, uses every rule (ids enter the draw messages, R-DICE-2)."""
    loaded = load_phase(rnd)
    for i in range(3000):
        seed = hashlib.sha256(f"issue 15 seed {i}".encode()).digest()
        stream = RoundStream(seed, rnd.campaign_id, rnd.number, start=rnd.next_counter)
        if _uses_every_rule(resolve_fleet_phase(stream, loaded.phase)):
            return seed
    raise AssertionError("no seed of the list uses every rule")


def _enter(lg, battle: Battle, outcome: str, vp=(10, 5)) -> None:
    battle_result_enter(battle=Battle.objects.get(pk=battle.pk), by_admin_user=lg.admin,
                        outcome=outcome, attacker_vp=vp[0], defender_vp=vp[1])


@pytest.mark.django_db
def test_r_dice_3_verify_round_reproduces_every_face_of_a_round_using_every_rule(capsys):
    sc = build_fleet_phase()
    lg, rnd = sc.league, sc.rnd
    # dora's picket, if it withdraws to her coast (R-INT-4 d), moves on from there
    beyond = AreaFactory(campaign=lg.campaign, name="Dx")
    beyond.adjacent.add(sc.areas["W2"], sc.areas["Dc"])
    fleet_set_orders(player=lg.d, fleet=sc.fleets["D2"], path=[beyond.pk])
    # a chain on dora's tile (anna, then ben) and two more attacks of carl on one planet
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    row(alpha, lg.c, (5,))
    first, second = declare(lg.a, rnd, target), declare(lg.b, rnd, target)
    carl = [declare(lg.c, rnd, tile(alpha, q, 0, lg.d), armies=1) for q in (4, 6)]

    seed = _seed_using_every_rule(rnd)
    Round.objects.filter(pk=rnd.pk).update(server_seed=seed,
                                           seed_commitment=hashlib.sha256(seed).hexdigest())
    advance_to(rnd, "battles")
    phase = FleetPhase.objects.get(round=rnd)
    assert any(e.get("step") == "order" and e.get("withdrawn") for e in phase.events)
    assert Fleet.objects.get(pk=sc.fleets["D2"].pk).area_id == beyond.pk
    link1, link2 = (Battle.objects.get(attack=a) for a in (first, second))
    _enter(lg, link1, "moral_victory")
    chain_decide(battle=link1, player=lg.a, roll=True)  # R-CON-6: rolled at once
    _enter(lg, link2, "victory")
    for attack in carl:
        _enter(lg, Battle.objects.get(attack=attack), "victory")

    advance_to(rnd, "conquest")
    for player in (lg.b, lg.c):
        won = [a.pk for a in (second, *carl) if a.player_id == player.pk]
        conquest_choose(player=player, rnd=rnd, roll=won)
    advance_to(rnd, "closed")
    rnd.refresh_from_db()
    assert rnd.seed_revealed and bytes(rnd.server_seed) == seed

    rolls = list(DiceRoll.objects.filter(round=rnd).order_by("counter"))
    assert [r.counter for r in rolls] == list(range(len(rolls)))
    for r in rolls:  # every logged face, recomputed from the text of R-DICE-2 alone
        assert r.faces == recompute(r.purpose, r.counter, r.sides, len(r.faces), seed=seed,
                                    campaign=lg.campaign.pk, rnd=rnd.number), r.purpose
    purposes = " ".join(r.purpose for r in rolls)
    objects = " ".join(r.object for r in rolls)
    for used in ("fleets:order", "int:", "naval:", "sea:hazard=", ":green", "conquest:"):
        assert used in purposes, used
    assert "hazard=" in objects and "naval-battle:" in objects
    assert {r.sides for r in rolls} >= {4, 3, 2, 6}  # the order picks and the d6
    # the chain roll (R-CON-6) and carl's two conquest rolls with k = 2 (R-CON-4)
    made = ConquestRoll.objects.filter(attack__round=rnd)
    assert made.filter(attack=first).exists()
    assert sorted(r.k for r in made.filter(attack__in=carl)) == [2, 2]
    call_command("verify_round", lg.campaign.pk, rnd.number)
    assert f"checked {len(rolls)} draws: verified" in capsys.readouterr().out
