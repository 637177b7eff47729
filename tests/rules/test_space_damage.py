"""R-SPC-5 damage bands, R-SPC-6 hit table, R-SPC-7 repair (ship state, scripted dice)."""

import pytest

from rules.dice import ScriptedDice
from rules.space import Captain, Datasheet, DiceCode, ShipState, SpaceShip, band_name


def state(code="3D", speed=3, captain=None, **codes):
    values = {name: codes.get(name, code)
              for name in ("maneuver", "targeting", "gun_damage", "shields", "hull")}
    sheet = Datasheet(values["maneuver"], speed, values["targeting"], values["gun_damage"],
                      values["shields"], values["hull"])
    return ShipState(SpaceShip(1, "Ziel", sheet, captain), "defender")


def hit(ship, difference, faces):
    dice, events = ScriptedDice(faces), []
    ship.take_hit(dice, difference, "spc:r1:hit:ship=1", events)
    assert dice.remaining == 0
    return events


def lost(ship):
    return {k: v for k, v in ship.damage.items() if v}


# --- R-SPC-5 -------------------------------------------------------------------------------


@pytest.mark.parametrize("difference", [0, 3])
def test_r_spc_5_0_to_3_shields_down(difference):
    ship = state()
    assert hit(ship, difference, []) == []
    assert ship.shields_down and lost(ship) == {} and not ship.destroyed
    assert band_name(difference) == "shields down"


@pytest.mark.parametrize("difference", [4, 7])
def test_r_spc_5_4_to_7_one_die_off_one_system(difference):
    ship = state()
    events = hit(ship, difference, [2])
    assert lost(ship) == {"gun_damage": 1} and not ship.shields_down
    assert events[0]["rule"] == "R-SPC-6" and events[0]["dice"] == [2]


@pytest.mark.parametrize("difference", [8, 11])
def test_r_spc_5_8_to_11_one_die_off_two_systems(difference):
    ship = state()
    hit(ship, difference, [2, 3])
    assert lost(ship) == {"gun_damage": 1, "targeting": 1}


def test_r_spc_5_two_random_systems_may_be_the_same():
    ship = state()
    hit(ship, 9, [4, 4])
    assert lost(ship) == {"shields": 2}


@pytest.mark.parametrize("difference", [12, 15])
def test_r_spc_5_12_to_15_two_dice_off_one_system(difference):
    ship = state()
    hit(ship, difference, [4])
    assert lost(ship) == {"shields": 2}


@pytest.mark.parametrize("difference", [16, 19])
def test_r_spc_5_16_to_19_two_dice_off_two_systems(difference):
    ship = state()
    hit(ship, difference, [2, 1])
    assert lost(ship) == {"gun_damage": 2, "maneuver": 2}


@pytest.mark.parametrize("difference", [20, 37])
def test_r_spc_5_20_plus_destroyed(difference):
    ship = state()
    assert hit(ship, difference, []) == []
    assert ship.destroyed and band_name(difference) == "destroyed"


def test_r_spc_5_negative_difference_is_no_effect():
    assert band_name(-1) == "no effect"


def test_r_spc_5_hull_hits_stop_once_destroyed():
    ship = state(hull="1D")
    events = hit(ship, 16, [5])  # the first roll destroys: no second hit-table roll
    assert ship.destroyed and events[0]["hit"] == ["hull"]


# --- R-SPC-6 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "system"), [
    (1, "maneuver"), (2, "gun_damage"), (3, "targeting"), (4, "shields"), (5, "hull"),
])
def test_r_spc_6_hit_table_entries(face, system):
    ship = state("2D")
    assert ship.hit_step(face) == system
    assert lost(ship) == {system: 1} and ship.code(system) == DiceCode(1)


def test_r_spc_6_engines_fall_through_to_speed_then_hull():
    ship = state("2D", speed=1, maneuver="1D")
    assert [ship.hit_step(1) for _ in range(3)] == ["maneuver", "speed", "hull"]
    assert ship.code("maneuver") == DiceCode(0) and ship.speed == 0
    assert ship.code("hull") == DiceCode(1)


@pytest.mark.parametrize(("face", "system"), [(2, "gun_damage"), (3, "targeting"),
                                              (4, "shields")])
def test_r_spc_6_systems_at_0d_pass_hits_to_hull(face, system):
    ship = state("2D", **{system: "1D+2"})
    assert ship.hit_step(face) == system
    assert ship.code(system) == DiceCode(0)  # [reading] a 0D system's pips count not
    assert ship.hit_step(face) == "hull" and ship.damage["hull"] == 1


def test_r_spc_6_bridge_loses_captain_then_6_counts_as_hull():
    ship = state("2D", captain=Captain("targeting", "hull"))
    assert ship.code("targeting") == DiceCode(3) and ship.code("hull") == DiceCode(2, 1)
    assert ship.hit_step(6) == "bridge"
    assert not ship.captain_alive and ship.bridge_hit
    assert ship.code("targeting") == DiceCode(2) and ship.code("hull") == DiceCode(2)
    assert ship.hit_step(6) == "hull" and ship.code("hull") == DiceCode(1)


def test_r_spc_6_bridge_without_captain_first_6_costs_nothing():
    ship = state("2D")  # [reading] the first 6 is the bridge hit even without a captain
    assert ship.hit_step(6) == "bridge" and lost(ship) == {}
    assert ship.hit_step(6) == "hull"


def test_r_spc_6_hull_0d_destroyed():
    ship = state("2D", hull="1D+2")
    ship.hit_step(5)
    assert ship.destroyed


def test_r_spc_6_two_dice_on_a_1d_system_pass_the_rest_to_hull():
    ship = state("2D", gun_damage="1D")
    events = hit(ship, 13, [2])
    assert events[0]["hit"] == ["gun_damage", "hull"]
    assert lost(ship) == {"gun_damage": 1, "hull": 1}


def test_r_spc_6_two_dice_on_bridge_lose_captain_and_one_hull():
    ship = state("2D", captain=Captain("gun_damage", "shields"))
    events = hit(ship, 14, [6])
    assert events[0]["hit"] == ["bridge", "hull"] and not ship.captain_alive


def test_r_spc_6_captain_die_counts_while_alive():
    ship = state("2D", gun_damage="1D", captain=Captain("gun_damage", "hull"))
    assert [ship.hit_step(2) for _ in range(3)] == ["gun_damage", "gun_damage", "hull"]
    ship.hit_step(6)  # captain lost: guns stay at 0D, damage capped at the datasheet's 1D
    assert ship.damage["gun_damage"] == 1 and ship.code("gun_damage") == DiceCode(0)


def test_r_spc_6_fumble_bridge_with_captain_only_cancels_bonus_this_round():
    ship = state("2D", captain=Captain("gun_damage", "maneuver"))
    assert ship.fumble_step(6) == "bridge (bonus off this round)"
    assert ship.captain_alive and not ship.bridge_hit and lost(ship) == {}
    assert ship.code("gun_damage") == DiceCode(2) and ship.code("maneuver") == DiceCode(2)
    ship.end_round()
    assert ship.code("gun_damage") == DiceCode(3) and ship.code("maneuver") == DiceCode(2, 1)


def test_r_spc_6_fumble_bridge_without_captain_is_a_hit_table_6():
    ship = state("2D")
    ship.hit_step(6)
    assert ship.fumble_step(6) == "hull"


# --- R-SPC-7 -------------------------------------------------------------------------------


def test_r_spc_7_repair_shields_first_then_others():
    ship = state("2D")
    for face in (2, 4, 5, 1):
        ship.hit_step(face)
    assert ship.repair(1) == ["shields"]
    assert ship.repair(2) == ["hull", "gun_damage"]
    assert ship.repair(0) == []
    assert ship.repair(2) == ["maneuver"] and not ship.damaged()


def test_r_spc_7_repair_gives_speed_back_and_not_the_captain():
    ship = state("2D", speed=2, maneuver="1D", captain=Captain("hull", "targeting"))
    ship.hit_step(1)
    ship.hit_step(1)
    ship.hit_step(6)
    assert ship.speed == 1
    assert ship.repair(2) == ["maneuver", "speed"]
    assert ship.speed == 2 and not ship.captain_alive
    assert ship.code("targeting") == DiceCode(2)
