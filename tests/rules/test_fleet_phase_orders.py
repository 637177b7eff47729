"""R-FLT-4 movement orders, R-FLT-5 standing orders, R-FLT-8 transport: the order checks."""

import pytest

from rules.fleet_phase import (
    DEFAULT_STANDING_ORDERS,
    disembark_error,
    embark_error,
    path_error,
    standing_orders,
    standing_orders_error,
)

# 1 - 2 - 3 - 4, and 2 - 5
GRAPH = {1: {2}, 2: {1, 3, 5}, 3: {2, 4}, 4: {3}, 5: {2}}


def test_r_flt_4_a_chain_of_adjacent_areas_is_legal():
    assert path_error(1, [2, 3, 4], GRAPH, None) is None
    assert path_error(1, [], GRAPH, None) is None
    assert path_error(3, [2, 5], GRAPH, 2) is None


@pytest.mark.parametrize(("current", "path", "where", "words"), [
    (1, [3], "path[0]", "not adjacent to area 1"),
    (1, [2, 4], "path[1]", "not adjacent to area 2"),
    (1, [2, 1], "path[1]", "current area"),
    (1, [2, 3, 2], "path[2]", "already in the path"),
    (1, [2, 99], "path[1]", "no area 99"),
    (1, ["2"], "path[0]", "no area"),
    (1, [True], "path[0]", "no area"),
])
def test_r_flt_4_illegal_paths_name_the_step(current, path, where, words):
    error = path_error(current, path, GRAPH, None)
    assert error.rule == "R-FLT-4" and error.field == where and words in error.message


def test_r_flt_4_max_fleet_moves_limits_the_path():
    error = path_error(1, [2, 3, 4], GRAPH, 2)
    assert error.rule == "R-FLT-4" and error.field == "path" and "max_fleet_moves" in error.message
    assert path_error(1, [2, 3], GRAPH, 2) is None


def test_r_flt_5_valid_standing_orders():
    orders = {"interception": "if_stronger", "benefits": ["c", "a"], "stance": "withdraw",
              "line": [12, 11]}
    assert standing_orders_error(orders, [11, 12]) is None
    assert standing_orders_error({}, [11]) is None


@pytest.mark.parametrize(("orders", "field"), [
    ({"interception": "sometimes"}, "interception"),
    ({"benefits": "abc"}, "benefits"),
    ({"benefits": ["a", "e"]}, "benefits[1]"),
    ({"benefits": ["b", "b"]}, "benefits[1]"),
    ({"stance": "charge"}, "stance"),
    ({"line": [11]}, "line"),
    ({"line": [11, 12, 12]}, "line"),
    ({"line": [11, 13]}, "line"),
    ({"line": ["11", "12"]}, "line"),
])
def test_r_flt_5_invalid_standing_orders_name_the_field(orders, field):
    error = standing_orders_error(orders, [11, 12])
    assert error.rule == "R-FLT-5" and error.field == field


def test_r_flt_5_orders_in_force_fall_back_to_defaults():
    assert standing_orders(None) == DEFAULT_STANDING_ORDERS
    merged = standing_orders({"interception": "never", "stance": "charge", "benefits": ["d"]})
    assert merged == {"interception": "never", "stance": "auto", "benefits": ["d"]}


def embark(**changes):
    values = {"area_kind": "coastal", "borders_own_tile": True, "capacity": 2, "aboard": 0,
              "points": 500, "detachment_points": 500, **changes}
    return embark_error(**values)


def test_r_flt_8_embark_in_a_coastal_or_orbit_area_bordering_own_tiles():
    assert embark() is None
    assert embark(area_kind="orbit", aboard=1) is None
    assert embark(area_kind="ocean").field == "area"
    assert embark(area_kind="island").rule == "R-FLT-8"
    assert "borders none" in embark(borders_own_tile=False).message


def test_r_flt_8_embark_up_to_capacity_and_detachment_points():
    assert embark(aboard=2).field == "ship"
    assert embark(points=501).field == "points"
    assert embark(points=0).field == "points"
    assert embark(points=True).field == "points"


def test_r_flt_8_disembark_needs_a_detachment_aboard():
    assert disembark_error(area_kind="orbit", borders_own_tile=True, index=1, aboard=2) is None
    assert disembark_error(area_kind="orbit", borders_own_tile=True, index=2,
                           aboard=2).field == "index"
    assert disembark_error(area_kind="orbit", borders_own_tile=True, index=0,
                           aboard=0).field == "index"
    assert disembark_error(area_kind="ocean", borders_own_tile=True, index=0,
                           aboard=1).field == "area"


def test_r_flt_4_r_flt_5_r_flt_8_refusals_name_their_reason_for_a_translation():
    assert path_error(1, [2, 3, 4], GRAPH, 2)[3:] == ("max_moves", {"most": 2, "count": 3})
    assert path_error(1, [3], GRAPH, None)[3:] == ("not_adjacent", {"area": 3, "here": 1})
    assert path_error(1, [2, 1], GRAPH, None).key == "current_area"
    assert path_error(1, [2, 3, 2], GRAPH, None).key == "area_twice"
    assert standing_orders_error({"benefits": ["a", "e"]}, [])[3:] == ("not_benefit",
                                                                       {"value": "'e'"})
    assert standing_orders_error({"line": [11]}, [11, 12]).key == "line_ships"
    assert embark(aboard=2)[3:] == ("ship_full", {"aboard": 2, "capacity": 2})
    assert embark(points=0)[3:] == ("detachment_points", {"low": 1, "high": 500})
    assert disembark_error(area_kind="orbit", borders_own_tile=True, index=0,
                           aboard=0).key == "no_cargo"
    assert disembark_error(area_kind="orbit", borders_own_tile=True, index=3,
                           aboard=2)[3:] == ("cargo_index", {"aboard": 2, "last": 1})
