"""Sea hazards through whole rounds (R-SEA-2, R-NAV-12, R-DICE-2/3): a hazard's hits are stored
and add up over the campaign until they reach its defence; a retreat into the player's own area
triggers the admin's hazard there, and its draws are in the round's log so that
``manage.py verify_round`` reproduces every face once the round closed."""

from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.utils import translation

from campaigns.models import DiceRoll
from fleets.models import Area, Fleet, FleetPhase, NavalBattle
from fleets.services import phase
from fleets.services.orders import fleet_set_orders
from rules.dice import ScriptedDice
from rules.fleet_phase import (
    PhaseArea,
    PhaseFleet,
    PhaseHazard,
    PhaseInput,
    PhaseOrder,
    PhaseSettings,
    PhaseShip,
    resolve_fleet_phase,
)
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory
from tests.worlds import advance_to, make_league, scripted_dice, tile
from web.presenters.replay import Names, replay

pytestmark = pytest.mark.django_db

NEVER = {"interception": "never", "stance": "hold"}


def _fleet(league, owner, area, name, **orders):
    fleet = FleetFactory(campaign=league.campaign, owner=owner, area=area, name=name,
                         standing_orders={**NEVER, **orders})
    ShipFactory(fleet=fleet, position=1, name=f"{name} flagship", attack=3, defence=9)
    return fleet


def test_r_sea_2_a_hazards_hits_add_up_over_rounds_until_it_is_removed(monkeypatch):
    league = make_league()
    sea = AreaFactory(campaign=league.campaign, name="Open sea")
    reef_area = AreaFactory(campaign=league.campaign, name="Reef waters")
    sea.adjacent.add(reef_area)
    reef = SeaHazardFactory(area=reef_area, name="Reef", attack=1, defence=5)
    first, second = (_fleet(league, league.a, sea, name) for name in ("First", "Second"))
    rnd = league.start()
    fleet_set_orders(player=league.a, fleet=first, path=[reef_area.pk])
    # round 1: the reef misses (6 > 1), the flagship hits it with 2: 2 of 5, it stays
    monkeypatch.setattr(phase, "dice_factory", scripted_dice([6, 2]))
    advance_to(rnd, "closed")
    reef.refresh_from_db()
    assert (reef.hits, reef.active) == (2, True) and reef.triggered_at is not None
    # round 2: the second fleet enters; its flagship hits with 3: 2 + 3 reach 5, removed
    round2 = rnd.campaign.rounds.get(number=2)
    fleet_set_orders(player=league.a, fleet=second, path=[reef_area.pk])
    monkeypatch.setattr(phase, "dice_factory", scripted_dice([6, 3]))
    advance_to(round2, "lists")
    reef.refresh_from_db()
    assert (reef.hits, reef.active) == (5, False)
    event = next(e for e in FleetPhase.objects.get(round=round2).events
                 if e["step"] == "hazard_result")
    assert (event["hazard_hits_before"], event["hazard_hits"], event["hazard_removed"]) == (
        2, 5, True)


def test_r_sea_2_r_nav_12_a_hazard_triggered_by_a_retreat_is_verified(capsys):
    league = make_league()
    league.set_rules(max_battle_rounds=1)
    planet = league.planet("Gaia")
    anna_tile, ben_tile = tile(planet, 0, 0, league.a), tile(planet, 1, 0, league.b)
    sea = AreaFactory(campaign=league.campaign, name="Strait")
    anna_coast = AreaFactory(campaign=league.campaign, name="Anna's coast", kind="coastal")
    ben_coast = AreaFactory(campaign=league.campaign, name="Ben's coast", kind="coastal")
    anna_coast.borders_tiles.add(anna_tile)
    ben_coast.borders_tiles.add(ben_tile)
    sea.adjacent.add(anna_coast, ben_coast)
    # the admin's storm on anna's own coast: hostile to every player (R-SEA-2)
    storm = SeaHazardFactory(area=anna_coast, name="Storm", attack=1, defence=50)
    anna = _fleet(league, league.a, sea, "Anna", stance="withdraw")
    ben = _fleet(league, league.b, sea, "Ben", stance="withdraw")
    rnd = league.start()
    # on the round's own stream: both withdraw at far, so both retreat whatever the dice
    # (R-NAV-3), each to its own coast (R-NAV-12); the storm fires at anna's flagship
    advance_to(rnd, "closed")
    battle = NavalBattle.objects.get(round=rnd)
    assert battle.outcome["retreated"] == "both"
    assert Fleet.objects.get(pk=anna.pk).area_id == anna_coast.pk
    assert Fleet.objects.get(pk=ben.pk).area_id == ben_coast.pk
    storm.refresh_from_db()
    assert storm.triggered_at is not None
    (roll,) = DiceRoll.objects.filter(round=rnd, purpose=f"sea:hazard={storm.pk}:fire")
    assert roll.object == f"hazard={storm.pk}" and len(roll.faces) == 2
    assert roll.counter == battle.first_counter + battle.dice_count
    record = FleetPhase.objects.get(round=rnd)
    assert record.dice_count == DiceRoll.objects.filter(round=rnd).count()
    assert storm.hits == (roll.faces[1] if roll.faces[1] <= 3 else 0)  # the flagship's attack
    call_command("verify_round", league.campaign.pk, rnd.number)
    out = capsys.readouterr().out
    assert f"checked {record.dice_count} draws: verified" in out
    assert Area.objects.get(pk=anna_coast.pk).hazards.get() == storm


def test_r_sea_2_r_nav_13_the_replay_shows_the_hazard_hits_a_ship_starts_with():
    areas = (PhaseArea(1, adjacent={2}), PhaseArea(2, adjacent={1}))
    mover = PhaseFleet(1, 1, 1, ships=(PhaseShip(11, "Swift", attack=3, defence=9),),
                       interception="never", stance="hold")
    holder = PhaseFleet(2, 2, 2, ships=(PhaseShip(21, "Anvil", attack=1, defence=9),),
                        interception="never", stance="hold")
    kraken = PhaseHazard(5, 2, None, "Kraken", attack=6, defence=9)
    # the Kraken hits Swift with 5, Swift misses; one battle round at far: both miss
    phase = PhaseInput(areas, (mover, holder), (kraken,), (PhaseOrder(1, (2,)),),
                       PhaseSettings(max_battle_rounds=1))
    result = resolve_fleet_phase(ScriptedDice([5, 6, 6, 6]), phase)
    (battle,) = result.battles
    record = SimpleNamespace(sides=battle.sides, events=battle.events)
    names = Names(record, {"attacker": "anna", "defender": "ben"}, {})
    with translation.override("en"):
        (header, *_) = replay(record, names)[0]["steps"]
        assert "Swift starts with 5 hits from sea hazards here." in header["text"]
    with translation.override("de"):
        (header, *_) = replay(record, names)[0]["steps"]
        assert "Swift beginnt mit 5 Treffern durch Seegefahren" in header["text"]
