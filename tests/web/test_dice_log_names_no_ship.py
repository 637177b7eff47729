"""R-DICE-3 [decision]: after the round closes its whole dice log is readable by everyone who may
read the campaign, naval and space battles' draws included; so a logged purpose or object names
the battle and the step of its round, never a ship, its values or its crew (R-FLT-7), and the
verifier still reproduces every die. Played on the round's real stream, with both engines."""

import io

import pytest
from django.core.management import call_command

from campaigns.models import DiceRoll, Round
from fleets.phase_state import load_phase
from fleets.services.orders import fleet_set_orders
from league.services.rounds import round_advance
from rules.dice import RoundStream, commitment
from rules.fleet_phase import resolve_fleet_phase
from tests.factories import AreaFactory, FleetFactory, ShipFactory
from tests.worlds import advance_to, api, client_for, datasheet, make_league

ANNA_SHIP = {"name": "Crimson Talon", "ship_class": "Nightreaver",
             "crew": [{"name": "Ysolde Marrow", "cp": 60}],
             "cargo": [{"name": "Ashen Host", "points": 400}]}
BEN_SHIP = {"name": "Pale Regent", "ship_class": "Gloomhull",
            "crew": [{"name": "Corvin Hale", "cp": 6}],
            "cargo": [{"name": "Gilded Pikes", "points": 300}]}
# never sinks, never hits, always passes its agility test: the higher roll at close quarters
# chooses, and only anna's crew outnumbers the other's (R-NAV-4), so she boards sooner or later
DARK_FORCE = {"attack": 0, "defence": 50, "agility": 7}
SENTINELS = ("Crimson Talon", "Nightreaver", "Ysolde Marrow", "Ashen Host", "Pale Regent",
             "Gloomhull", "Corvin Hale", "Gilded Pikes", "Wraith Admiral")


def _world(engine: str):
    lg = make_league()
    lg.set_rules(naval_engine=engine)
    here = AreaFactory(campaign=lg.campaign, name="Ashen Strait")
    there = AreaFactory(campaign=lg.campaign, name="Gloom Reach")
    here.adjacent.add(there)
    fleets, ships = [], []
    for owner, area, values, sheet in ((lg.a, here, ANNA_SHIP, datasheet("4D", "Wraith Admiral")),
                                       (lg.b, there, BEN_SHIP, datasheet("3D+1"))):
        fleets.append(FleetFactory(campaign=lg.campaign, owner=owner, area=area, standing_orders={
            "interception": "never", "stance": "approach"}))
        ships.append(ShipFactory(fleet=fleets[-1], position=1, datasheet=sheet, **values,
                                 **DARK_FORCE))
    lg.start()
    fleet_set_orders(player=lg.a, fleet=fleets[0], path=[there.pk])  # anna sails at ben
    return lg, ships


def _boards(rnd: Round, seed: bytes) -> bool:
    """Whether the phase on this seed has a boarding (the pure engine, nothing stored)."""
    stream = RoundStream(seed, rnd.campaign_id, rnd.number, start=rnd.next_counter)
    result = resolve_fleet_phase(stream, load_phase(rnd).phase)
    return any(e.get("step") == "boarding" for b in result.battles for e in b.events)


@pytest.fixture(params=["dark_force", "d6_space"])
def closed_round(request, db):
    lg, ships = _world(request.param)
    rnd = lg.campaign.rounds.get(number=1)
    round_advance(round_id=rnd.pk, expected_phase="declare")
    rnd.refresh_from_db()
    if request.param == "dark_force":  # a seed whose battle has a boarding duel
        seed = next(s for s in (bytes([i]) * 32 for i in range(50)) if _boards(rnd, s))
        Round.objects.filter(pk=rnd.pk).update(server_seed=seed, seed_commitment=commitment(seed))
    advance_to(rnd, "closed")
    assert rnd.naval_battles.count() == 1
    if request.param == "dark_force":
        assert any(e.get("step") == "duel_attack" or e.get("reason") == "no_crew"
                   for e in rnd.naval_battles.get().events)
    return lg, rnd, ships


def test_r_dice_3_the_closed_log_names_no_ship_crew_or_cargo(closed_round):
    lg, rnd, _ships = closed_round
    rolls = list(DiceRoll.objects.filter(round=rnd))
    battle = rnd.naval_battles.get()
    assert battle.dice_count > 0 and len(rolls) >= battle.dice_count
    carl = lg.c.user  # a player who did not fight
    page = client_for(carl).get(f"/campaigns/{lg.campaign.pk}/rounds/1/audit/")
    answer = api(carl).get(lg.url("rounds/1/rolls/"))
    assert page.status_code == answer.status_code == 200
    assert len(answer.json()["rolls"]) == len(rolls)  # the whole log, after the close
    texts = [page.content.decode(), answer.content.decode()]
    for text in texts:
        for word in SENTINELS:
            assert word not in text, word
    for roll in rolls:  # neither the purpose nor the object points at a ship (by id either)
        for text in (roll.purpose, roll.object):
            assert "ship" not in text.lower(), text


def test_r_dice_3_the_verifier_reproduces_every_die_of_the_round(closed_round):
    lg, rnd, _ships = closed_round
    count = DiceRoll.objects.filter(round=rnd).count()
    report = api(lg.c.user).get(lg.url("rounds/1/verify/")).json()
    assert report == {"verified": True, "checked": count, "mismatches": []}
    out = io.StringIO()
    call_command("verify_round", lg.campaign.pk, 1, stdout=out)
    assert f"checked {count} draws: verified" in out.getvalue()
