"""R-SPC-1: dice codes, datasheets, captain bonus; R-FLT-3 combat factor of the D6 engine."""

import pytest

from rules.dice import ScriptedDice
from rules.dicecode import roll_code
from rules.space import (
    Captain,
    Datasheet,
    DiceCode,
    ShipState,
    SpaceShip,
    SpaceSide,
    add_dice,
    add_pips,
    combat_factor,
    format_code,
    lose_dice,
    parse_code,
    resolve_space_battle,
)


@pytest.mark.parametrize(("text", "code"), [
    ("2D+1", DiceCode(2, 1)), ("3D", DiceCode(3, 0)), ("1D-1", DiceCode(1, -1)),
    ("0D", DiceCode(0, 0)), (" 2d + 2 ", DiceCode(2, 2)), ("12D+2", DiceCode(12, 2)),
])
def test_r_spc_1_parse_code(text, code):
    assert parse_code(text) == code


@pytest.mark.parametrize("text", ["D+1", "2", "2D+", "-1D", "2D+1+1", "", "2W"])
def test_r_spc_1_parse_code_rejects(text):
    with pytest.raises(ValueError):
        parse_code(text)


@pytest.mark.parametrize(("code", "text"), [
    (DiceCode(2, 1), "2D+1"), (DiceCode(3), "3D"), (DiceCode(1, -1), "1D-1"), (DiceCode(0), "0D"),
])
def test_r_spc_1_format_code_round_trips(code, text):
    assert format_code(code) == text == str(code)
    assert parse_code(text) == code


def test_r_spc_1_code_arithmetic_never_below_0d():
    assert lose_dice(DiceCode(2, 1)) == DiceCode(1, 1)
    assert lose_dice(DiceCode(1, 2), 2) == DiceCode(0, 2)
    assert add_dice(DiceCode(1, 1)) == DiceCode(2, 1)
    assert add_pips(DiceCode(1, 2)) == DiceCode(1, 3)
    assert DiceCode(2, 1) + DiceCode(3, 2) == DiceCode(5, 3)
    with pytest.raises(ValueError):
        DiceCode(-1, 0)


def test_r_spc_1_datasheet_accepts_code_strings():
    sheet = Datasheet("2D", 4, "3D+1", DiceCode(4), "2D", "3D+2")
    assert sheet.targeting == DiceCode(3, 1) and sheet.hull == DiceCode(3, 2)
    assert sheet.as_dict() == {"maneuver": "2D", "speed": 4, "targeting": "3D+1",
                               "gun_damage": "4D", "shields": "2D", "hull": "3D+2"}
    with pytest.raises(ValueError):
        Datasheet("2D", -1, "1D", "1D", "1D", "1D")
    with pytest.raises(ValueError):
        SpaceShip(1, "wreck", Datasheet("2D", 1, "1D", "1D", "1D", "0D+2"))


def test_r_spc_1_captain_gives_one_die_and_one_pip():
    sheet = Datasheet("2D", 4, "3D", "4D+1", "2D", "3D")
    state = ShipState(SpaceShip(1, "Falke", sheet, Captain("gun_damage", "targeting")), "attacker")
    assert state.code("gun_damage") == DiceCode(5, 1)
    assert state.code("targeting") == DiceCode(3, 1)
    assert state.code("hull") == DiceCode(3, 0) and state.speed == 4
    fast = ShipState(SpaceShip(2, "Pfeil", sheet, Captain("maneuver", "speed")), "attacker")
    assert fast.code("maneuver") == DiceCode(3, 0) and fast.speed == 5
    assert fast.result().datasheet.speed == 5 and fast.result().captain_alive


@pytest.mark.parametrize(("dice_system", "pip_system"), [
    ("speed", "hull"), ("hull", "hull"), ("hull", "warp"),
])
def test_r_spc_1_captain_bonus_targets_are_checked(dice_system, pip_system):
    with pytest.raises(ValueError):
        Captain(dice_system, pip_system)


def test_r_flt_3_combat_factor_sums_gun_damage_dice():
    ships = [SpaceShip(i, f"s{i}", Datasheet("1D", 1, "1D", code, "1D", "1D"))
             for i, code in enumerate(["4D+2", "2D", "0D+1"])]
    assert combat_factor(ships) == 6
    assert combat_factor([]) == 0


def test_r_dice_5_roll_code_is_one_wild_draw():
    dice = ScriptedDice([6, 2, 3])
    roll = roll_code(dice, DiceCode(2, 1), "spc:test")
    assert (roll.total, roll.faces, roll.fumble) == (12, (6, 2, 3), False)
    assert len(dice.log) == 1
    assert roll_code(dice, DiceCode(0, 2), "spc:test", extra_pips=1).total == 3
    assert len(dice.log) == 1  # 0D draws nothing


@pytest.mark.parametrize("kwargs", [{"max_rounds": 0}, {"advantage": "both"}])
def test_r_spc_8_battle_arguments_are_checked(kwargs):
    sheet = Datasheet("1D", 1, "1D", "1D", "1D", "1D")
    a = SpaceSide("attacker", 1, (SpaceShip(1, "a", sheet),))
    d = SpaceSide("defender", 2, (SpaceShip(2, "d", sheet),))
    with pytest.raises(ValueError):
        resolve_space_battle(ScriptedDice([]), a, d, **kwargs)
    with pytest.raises(ValueError):
        resolve_space_battle(ScriptedDice([]), d, a)
    with pytest.raises(ValueError):
        resolve_space_battle(ScriptedDice([]), a, SpaceSide("defender", 2, a.ships))
