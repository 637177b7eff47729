"""R-DICE-2 / R-DICE-3 end to end: a D6 round whose fleets phase draws the players' order
(R-FLT-6) and a tie order (R-SPC-3) on the round stream; after the round closes, the outside
verifier of ``tests/rules/test_dice_verifier.py`` (written from RULES.md alone) reproduces every
logged face and both orders, and the product's verifier (``manage.py verify_round`` and the API
``verify`` endpoint) accepts the log and refuses a face read from a discarded byte."""

import hashlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.models import DiceRoll, Round
from fleets.models import FleetPhase, NavalBattle
from fleets.services.orders import fleet_set_orders
from league.services.rounds import round_advance, round_run_phase_job
from tests.factories import AreaFactory, FleetFactory, ShipFactory
from tests.rules.test_dice_verifier import first_byte, recompute, shuffle
from tests.worlds import api, make_league

TIED = {"maneuver": "0D", "speed": 3, "targeting": "1D", "gun_damage": "1D", "shields": "1D",
        "hull": "2D"}  # initiative = speed: every ship of the battle ties (R-SPC-3)


def _discarded_pick(seed: bytes, campaign: int) -> int | None:
    """The first of the five players' picks (d5, d4, d3, d2 at counters 0..3) that reads past a
    discarded byte (d5 and d3: 255) and whose face differs from the one that byte would have
    given (so a log holding that face is a provable mismatch), else None."""
    where = {"seed": seed, "campaign": campaign, "rnd": 1}
    for counter in (0, 2):
        k = 5 - counter
        if (first_byte("fleets:order", counter, **where) >= 255
                and recompute("fleets:order", counter, k, 1, **where) != [255 % k + 1]):
            return counter
    return None


@pytest.mark.django_db
def test_r_dice_2_verify_round_reproduces_the_drawn_orders_of_a_fleets_phase(capsys):
    lg = make_league(players=("anna", "ben", "carl", "dora", "emil", "fritz"))
    lg.set_rules(naval_engine="d6_space", max_battle_rounds=1)
    campaign = lg.campaign
    movers = lg.players[:5]
    paths = {}
    for player in movers:  # each mover from its own area into an empty one
        here = AreaFactory(campaign=campaign, name=f"{player.user.username} home")
        there = AreaFactory(campaign=campaign, name=f"{player.user.username} goal")
        here.adjacent.add(there)
        fleet = FleetFactory(campaign=campaign, owner=player, area=here,
                             standing_orders={"interception": "never", "stance": "hold"})
        ShipFactory(fleet=fleet, position=1, datasheet=TIED)
        paths[fleet] = [there.pk]
    # emil's and fritz's fleets meet in deep space; fritz's fleet (the later id) attacks, so
    # the datasheet order (attacker line first) is not the ships' id order
    deep = AreaFactory(campaign=campaign, name="Deep space")
    lines = {}
    for player in (lg.players[4], lg.players[5]):
        fleet = FleetFactory(campaign=campaign, owner=player, area=deep,
                             standing_orders={"interception": "never", "stance": "hold"})
        lines[player.pk] = [ShipFactory(fleet=fleet, position=p, datasheet=TIED).pk
                            for p in (1, 2)]
    tied = lines[lg.players[4].pk] + lines[lg.players[5].pk]
    assert lines[lg.players[5].pk] + lines[lg.players[4].pk] != sorted(tied)

    rnd = lg.start()
    seed = next(s for s in (hashlib.sha256(str(i).encode()).digest() for i in range(20000))
                if _discarded_pick(s, campaign.pk) is not None)
    Round.objects.filter(pk=rnd.pk).update(server_seed=seed,
                                           seed_commitment=hashlib.sha256(seed).hexdigest())
    for fleet, path in paths.items():
        fleet_set_orders(player=fleet.owner, fleet=fleet, path=path)
    round_advance(round_id=rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=rnd.pk, phase="fleets")
    for _ in range(6):
        rnd.refresh_from_db()
        if rnd.seed_revealed:
            break
        round_advance(round_id=rnd.pk)
    assert rnd.seed_revealed and bytes(rnd.server_seed) == seed

    rolls = [{"counter": r.counter, "purpose": r.purpose, "sides": r.sides, "faces": r.faces}
             for r in DiceRoll.objects.filter(round=rnd).order_by("counter")]
    where = {"seed": seed, "campaign": campaign.pk, "rnd": rnd.number}
    for entry in rolls:  # every logged face, recomputed from the text
        assert entry["faces"] == recompute(entry["purpose"], entry["counter"], entry["sides"],
                                           len(entry["faces"]), **where)
    assert [r["counter"] for r in rolls] == list(range(len(rolls)))
    # R-FLT-6: the players' order is the verifier's shuffle of the five movers
    picks = [r for r in rolls if r["purpose"] == "fleets:order"]
    assert [r["counter"] for r in picks] == [0, 1, 2, 3]
    order = shuffle([p.pk for p in movers], picks, **where)
    assert FleetPhase.objects.get(round=rnd).player_order == order
    # R-SPC-3: the tie of all four ships is the verifier's shuffle of their ids
    battle = NavalBattle.objects.get(round=rnd)
    event = next(e for e in battle.events if e.get("step") == "order" and e.get("round") == 1)
    ties = [r for r in rolls if r["purpose"] == "spc:r1:order"]
    assert [r["sides"] for r in ties] == [4, 3, 2]
    assert event["order"] == shuffle(tied, ties, **where)

    # the product's verifier accepts the log ...
    call_command("verify_round", campaign.pk, rnd.number)
    assert f"checked {len(rolls)} draws: verified" in capsys.readouterr().out
    url = f"/api/v1/campaigns/{campaign.pk}/rounds/{rnd.number}/verify/"
    assert api(lg.a.user).get(url).json() == {"verified": True, "checked": len(rolls),
                                              "mismatches": []}
    # ... and refuses a pick whose face was read from the discarded byte
    counter = _discarded_pick(seed, campaign.pk)
    k = 5 - counter
    wrong = 255 % k + 1
    pick = DiceRoll.objects.get(round=rnd, counter=counter)
    assert pick.sides == k and pick.faces != [wrong]
    pick.faces = [wrong]
    pick.save()
    with pytest.raises(CommandError):
        call_command("verify_round", campaign.pk, rnd.number)
    report = api(lg.a.user).get(url).json()
    assert report["verified"] is False
    assert [m["counter"] for m in report["mismatches"]] == [counter]
