"""The "Ruleset keys" table of RULES.md: defaults, ranges, errors naming the key."""

from __future__ import annotations

import json

import pytest

from rules.ruleset import DEFAULTS, KEYS, PhaseHours, Ruleset, RulesetError, validate_ruleset

TABLE = {
    "phase_hours": {"declare": 48, "lists": 24, "battles": 72, "conquest": 24},
    "starting_requisition": 1, "income_base": 1, "income_per_tile": 0, "attack_army_cost": 1,
    "base_army_points": 1500, "bonus_per_tile": 50, "bonus_scope": "campaign",
    "orbital_assault_points": 1500, "detachment_points": 500, "neutral_needs_battle": False,
    "unplayed_outcome": "defender_holds", "conquest_default": "roll_all", "confirm_hours": 48,
    "naval_engine": "dark_force", "max_fleet_moves": None, "max_battle_rounds": 12,
    "start_distance_cm": 30,
    # the product's keys beside the RULES.md table
    "early_advance": True, "absence_days": 21, "weekly_deadlines": {},
}

RANGES = {  # key: (low, high) from the table
    "starting_requisition": (0, 1000), "income_base": (0, 1000), "income_per_tile": (0, 100),
    "attack_army_cost": (0, 1000), "base_army_points": (0, 100000),
    "bonus_per_tile": (0, 10000), "orbital_assault_points": (0, 100000),
    "detachment_points": (1, 100000), "confirm_hours": (1, 720), "max_fleet_moves": (1, 50),
    "max_battle_rounds": (1, 100), "start_distance_cm": (10, 200), "absence_days": (0, 366),
}


def error(data) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        validate_ruleset(data)
    return info.value


def test_ruleset_keys_defaults_match_the_table():
    assert DEFAULTS == TABLE
    assert validate_ruleset({}) == TABLE
    assert validate_ruleset(None) == TABLE
    assert Ruleset().as_dict() == TABLE
    assert Ruleset.from_dict({}) == Ruleset()


def test_ruleset_keys_result_is_json_and_a_fresh_copy():
    result = validate_ruleset({})
    result["phase_hours"]["declare"] = 1
    assert DEFAULTS["phase_hours"]["declare"] == 48
    assert json.loads(json.dumps(validate_ruleset({}))) == TABLE


def test_r_rnd_1_phase_hours_partial_is_merged_with_defaults():
    result = validate_ruleset({"phase_hours": {"battles": 96}})
    assert result["phase_hours"] == {"declare": 48, "lists": 24, "battles": 96, "conquest": 24}
    rules = Ruleset.from_dict({"phase_hours": {"declare": 1, "conquest": 720}})
    assert rules.phase_hours == PhaseHours(declare=1, lists=24, battles=72, conquest=720)
    assert rules.phase_hours.for_phase("declare") == 1
    assert rules.phase_hours.for_phase("fleets") is None


@pytest.mark.parametrize("value", [0, 721, -5])
def test_r_rnd_1_phase_hours_out_of_range_names_nested_key(value):
    err = error({"phase_hours": {"declare": value}})
    assert err.key == "phase_hours.declare"
    assert "1 and 720" in err.message


def test_r_rnd_1_phase_hours_unknown_phase_and_wrong_type():
    assert error({"phase_hours": {"fleets": 5}}).key == "phase_hours.fleets"
    assert error({"phase_hours": 48}).key == "phase_hours"
    assert error({"phase_hours": {"lists": True}}).key == "phase_hours.lists"
    assert error({"phase_hours": {"lists": "24"}}).key == "phase_hours.lists"


def test_ruleset_keys_unknown_key_is_rejected():
    err = error({"bonus_per_tiles": 50})
    assert err.key == "bonus_per_tiles"
    assert "unknown" in err.message


def test_ruleset_keys_document_must_be_an_object():
    assert error([1, 2]).key == ""


@pytest.mark.parametrize("key", sorted(RANGES))
def test_ruleset_keys_integer_ranges(key):
    low, high = RANGES[key]
    assert validate_ruleset({key: low})[key] == low
    assert validate_ruleset({key: high})[key] == high
    for bad in (low - 1, high + 1):
        err = error({key: bad})
        assert err.key == key and str(low) in err.message and str(high) in err.message


@pytest.mark.parametrize("key", sorted(RANGES))
@pytest.mark.parametrize("bad", [True, False, 1.0, "5", [5]])
def test_ruleset_keys_bool_and_float_are_not_integers(key, bad):
    assert error({key: bad}).key == key


def test_r_flt_4_max_fleet_moves_may_be_null():
    assert validate_ruleset({"max_fleet_moves": None})["max_fleet_moves"] is None
    assert Ruleset.from_dict({"max_fleet_moves": 3}).max_fleet_moves == 3
    assert error({"base_army_points": None}).key == "base_army_points"


@pytest.mark.parametrize("key, values", [
    ("bonus_scope", ("campaign", "battle")),
    ("unplayed_outcome", ("defender_holds", "attacker_wins")),
    ("conquest_default", ("roll_all", "waive_all")),
    ("naval_engine", ("dark_force", "d6_space")),
])
def test_ruleset_keys_choices(key, values):
    for value in values:
        assert getattr(Ruleset.from_dict({key: value}), key) == value
    for bad in ("Campaign", "", 1, None):
        assert error({key: bad}).key == key


def test_r_atk_4_neutral_needs_battle_must_be_bool():
    assert Ruleset.from_dict({"neutral_needs_battle": True}).neutral_needs_battle is True
    for bad in (1, 0, "true", None):
        assert error({"neutral_needs_battle": bad}).key == "neutral_needs_battle"


def test_ruleset_keys_every_key_has_a_rule_and_the_dataclass_is_frozen():
    assert set(KEYS) | {"phase_hours", "weekly_deadlines"} == set(TABLE)
    assert all(spec.rule.startswith("R-") for spec in KEYS.values())
    rules = Ruleset.from_dict({"bonus_per_tile": 100, "bonus_scope": "battle"})
    assert (rules.bonus_per_tile, rules.bonus_scope) == (100, "battle")
    with pytest.raises(AttributeError):
        rules.bonus_per_tile = 5  # type: ignore[misc]
    assert Ruleset.from_dict(rules.as_dict()) == rules
