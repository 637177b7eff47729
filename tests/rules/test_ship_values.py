"""R-FLT-2, R-SPC-1, R-SEA-2: the one definition of a ship's values (``rules.ship_values``):
the bounds of RULES.md, a datasheet complete or absent, and problems that name the offending
path and the rule."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ship_values import (
    BOUNDS,
    CODE_SYSTEMS,
    DATASHEET_KEYS,
    MAX_CREW,
    Problem,
    captain_problems,
    cargo_problems,
    crew_problems,
    datasheet_problems,
    dice_code,
    hazard_problems,
    join,
    ship_problems,
    value_problem,
)
from rules.space import CODE_SYSTEMS as SPACE_SYSTEMS

SHEET = {"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "4D+1",
         "shields": "2D", "hull": "3D"}


def paths(problems: list[Problem]) -> list[str]:
    return [problem.path for problem in problems]


def test_r_flt_2_the_bounds_are_those_of_rules_md():
    assert BOUNDS["attack"] == (0, 50) and BOUNDS["defence"] == (1, 50)
    assert BOUNDS["agility"] == (0, 7) and BOUNDS["capacity"] == (0, 50)
    assert BOUNDS["cp"] == (0, 200)


@pytest.mark.parametrize("name", ["attack", "defence", "agility", "capacity", "cp"])
def test_r_flt_2_each_value_is_checked_at_both_ends(name):
    low, high = BOUNDS[name]
    assert value_problem(name, low) is None and value_problem(name, high) is None
    for bad in (low - 1, high + 1, True, 2.0, "3", None):
        problem = value_problem(name, bad)
        assert problem == Problem(name, f"expected a whole number from {low} to {high} "
                                        f"(R-FLT-2)", "R-FLT-2", "number",
                                  {"low": low, "high": high, "rule": "R-FLT-2"})


def test_r_flt_2_a_valid_ship_has_no_problems():
    ship = {"id": 7, "name": "Seeadler", "class": "Fregatte", "attack": 50, "defence": 1,
            "agility": 7, "capacity": 2, "seats": 1, "crew": [{"name": "Kapitän", "cp": 200}],
            "cargo": [{"name": "Garde", "points": 500}, {"name": "Miliz", "points": 1}],
            "datasheet": {**SHEET, "captain": {"name": "Ackbar", "dice_system": "hull",
                                               "pip_system": "speed"}}}
    assert ship_problems(ship, detachment_points=500) == []
    assert ship_problems({"name": "Bare"}) == []  # values not given take their defaults


def test_r_flt_2_every_problem_of_a_ship_names_its_path_and_rule():
    ship = {"name": " ", "attack": 51, "agility": -1, "capacity": 1, "warp": 9,
            "crew": [{"name": "Loken", "cp": 201}, {"cp": 6}],
            "cargo": [{"name": "A", "points": 501}, {"name": "B", "points": 1}]}
    problems = ship_problems(ship, detachment_points=500)
    assert paths(problems) == ["warp", "name", "attack", "agility", "crew[0].cp",
                               "crew[1].name", "cargo[0].points", "cargo"]
    assert all(p.rule == "R-FLT-2" and "(R-FLT-2)" in p.message for p in problems)
    assert problems[-1].message == "more detachments than the capacity 1 (R-FLT-2)"
    assert problems[4].at("fleets[0].ships[3]") == "fleets[0].ships[3].crew[0].cp"
    assert str(problems[2]) == "attack: expected a whole number from 0 to 50 (R-FLT-2)"


def test_r_flt_2_names_are_optional_only_where_asked():
    preview = {"crew": [{"cp": 6}], "cargo": [{"points": 5}], "capacity": 1}
    assert ship_problems(preview, named=False) == []
    assert paths(ship_problems(preview)) == ["name", "crew[0].name", "cargo[0].name"]
    assert paths(ship_problems({"name": "x" * 81}, named=False)) == ["name"]


def test_r_flt_2_required_values_must_be_given():
    assert paths(ship_problems({}, named=False, required=("attack", "defence", "agility"))) \
        == ["attack", "defence", "agility"]


def test_r_flt_2_crew_and_cargo_lists_are_bounded():
    assert paths(crew_problems([{"name": "c", "cp": 6}] * (MAX_CREW + 1))) == ["crew"]
    assert paths(crew_problems("Loken")) == ["crew"]
    assert paths(cargo_problems([{"name": "d", "points": 1}] * 51)) == ["cargo"]
    assert paths(cargo_problems([{"name": "d", "points": 0}], capacity=1)) == ["cargo[0].points"]
    assert paths(cargo_problems([{"name": "d", "points": 600}], capacity=1,
                                detachment_points=600)) == []
    assert paths(cargo_problems(["d"], capacity=1)) == ["cargo[0]"]


def test_r_spc_1_one_list_of_systems():
    assert CODE_SYSTEMS == SPACE_SYSTEMS  # rules.space reads it from here
    assert set(DATASHEET_KEYS) == {*CODE_SYSTEMS, "speed"}


def test_r_spc_1_no_datasheet_or_a_complete_one():
    assert datasheet_problems(None) == [] and datasheet_problems(SHEET) == []
    assert ship_problems({"name": "Falcon", "datasheet": None}) == []


@pytest.mark.parametrize("present", [["maneuver"], ["maneuver", "speed"],
                                     [k for k in DATASHEET_KEYS if k != "hull"], []])
def test_r_flt_2_a_datasheet_is_never_partly_filled_in(present):
    problems = datasheet_problems({key: SHEET[key] for key in present})
    assert paths(problems) == [key for key in DATASHEET_KEYS if key not in present]
    assert all(p.rule == "R-SPC-1" and "R-FLT-2" in p.message and "complete" in p.message
               for p in problems)


def test_r_spc_1_the_issue_example_is_refused_naming_each_value():
    ship = {"name": "Ghost", "datasheet": {"maneuver": "99999D+99999", "speed": -5}}
    problems = ship_problems(ship)
    assert paths(problems)[:2] == ["datasheet.maneuver", "datasheet.speed"]
    assert problems[0].message == "at most 20D and 20 pips either way (R-SPC-1)"
    assert problems[1].message == "expected a whole number from 0 to 100 (R-SPC-1)"
    assert problems[0].at("fleets[0].ships[0]") == "fleets[0].ships[0].datasheet.maneuver"


@pytest.mark.parametrize(("change", "path", "fragment"), [
    ({"shields": "lots"}, "shields", "not a dice code"),
    ({"shields": "21D"}, "shields", "at most 20D"),
    ({"shields": "2D+21"}, "shields", "20 pips"),
    ({"shields": "2D+" + "1" * 20}, "shields", "dice code"),
    ({"hull": 3}, "hull", "dice code"),
    ({"hull": "0D+5"}, "hull", "at least 1D hull"),
    ({"speed": 101}, "speed", "0 to 100"),
    ({"speed": "3"}, "speed", "whole number"),
    ({"notes": "fast"}, "notes", "unknown field 'notes'"),
    ({"captain": "Solo"}, "captain", "expected an object"),
    ({"captain": {"dice_system": "hull", "pip_system": "hull"}}, "captain", "two different"),
    ({"captain": {"dice_system": "speed", "pip_system": "hull"}}, "captain.dice_system",
     "expected one of"),
    ({"captain": {"dice_system": "hull"}}, "captain.pip_system", "required"),
    ({"captain": {"dice_system": "hull", "pip_system": "speed", "rank": 5}}, "captain.rank",
     "unknown field"),
])
def test_r_spc_1_each_datasheet_value_is_checked(change, path, fragment):
    problems = datasheet_problems({**SHEET, **change})
    assert paths(problems) == [path]
    assert fragment in problems[0].message and "R-SPC-1" in problems[0].message
    assert problems[0].rule == "R-SPC-1"


def test_r_spc_1_stored_datasheets_may_carry_other_fields():
    assert datasheet_problems({**SHEET, "notes": "fast"}, strict=False) == []
    assert paths(datasheet_problems({"notes": "fast"}, strict=False)) == list(DATASHEET_KEYS)


def test_r_spc_1_dice_codes_within_the_bounds():
    assert (dice_code("20D+20").dice, dice_code(" 2d - 1 ").pips) == (20, -1)
    with pytest.raises(ValueError, match=r"R-SPC-1"):
        dice_code("20D+21")
    assert captain_problems(None) == []


def test_r_sea_2_a_hazard_has_ship_values():
    assert hazard_problems({}) == [] and hazard_problems({"attack": 50, "agility": 7}) == []
    problems = hazard_problems({"attack": 51, "defence": 0, "agility": 8})
    assert paths(problems) == ["attack", "defence", "agility"]
    assert all(p.rule == "R-SEA-2" for p in problems)


def test_paths_join_keys_and_indexes():
    assert join("fleets[0].ships[1]", "crew[2].cp") == "fleets[0].ships[1].crew[2].cp"
    assert join("ships", "[1]") == "ships[1]" and join("", "attack") == "attack"
    assert join("datasheet", "") == "datasheet"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["2D", "0D", "99D", "speed", "hull"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from([*DATASHEET_KEYS, "captain", "name", "cp", "points",
                                       "dice_system", "pip_system", "crew", "cargo",
                                       "attack", "capacity", "datasheet", "x"]),
                      children, max_size=5),
    max_leaves=10)


@given(_json)
def test_any_json_gives_problems_never_an_exception(value):
    for problems in (ship_problems(value), datasheet_problems(value), crew_problems(value),
                     cargo_problems(value, capacity=value), captain_problems(value)):
        assert all(isinstance(p, Problem) and p.rule.startswith("R-") for p in problems)
        # a reason a translation can word, citing the rule as the message does
        assert all(p.key and p.params["rule"] in p.message for p in problems)


def test_r_spc_1_a_dice_code_problem_names_its_reason_and_bounds():
    problem = datasheet_problems({**SHEET, "hull": "21D"})[0]
    assert (problem.key, problem.params) == ("code_bounds",
                                             {"dice": 20, "pips": 20, "rule": "R-SPC-1"})
    with pytest.raises(ValueError, match=r"^at most 20D and 20 pips either way \(R-SPC-1\)$"):
        dice_code("21D")


def test_r_sea_2_a_hazard_problem_cites_both_rules():
    problem = hazard_problems({"agility": 8})[0]
    assert (problem.key, problem.params) == ("hazard_number",
                                             {"low": 0, "high": 7, "rule": "R-SEA-2, R-FLT-2"})
    assert problem.message == "expected a whole number from 0 to 7 (R-SEA-2, ship bounds of " \
                              "R-FLT-2)"
