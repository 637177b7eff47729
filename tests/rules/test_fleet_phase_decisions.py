"""The fleet phase's own decisions: R-FLT-6 order, R-FLT-4 stops, R-SEA-2 hostility, R-NAV-12
retreat areas, R-INT-6 pairs and attacker, R-NAV-8 prize fleets, R-SEA-1 conquest, R-NAV-7
cargo names."""

from rules.dice import ScriptedDice
from rules.fleet_phase import (
    Detachment,
    Force,
    ForceStanding,
    PhaseArea,
    cargo_after,
    hazard_hostile,
    island_conqueror,
    move_goes_on,
    next_battle,
    player_order,
    prize_fleet,
    retreat_area,
)

P1, P2, P3 = Force(False, 1), Force(False, 2), Force(False, 3)
PIRATES = Force(True, None)


def test_r_flt_6_player_order_is_drawn_one_pick_at_a_time():
    dice = ScriptedDice([2, 2])
    order, faces = player_order(dice, [3, 1, 2])
    assert order == (2, 3, 1) and faces == [2, 2]
    assert [(r.purpose, r.sides) for r in dice.log] == [("fleets:order", 3), ("fleets:order", 2)]


def test_r_flt_6_a_single_player_needs_no_draw():
    dice = ScriptedDice([])
    assert player_order(dice, [7, 7]) == ((7,), [])
    assert dice.log == []


def test_r_flt_4_a_move_ends_in_an_area_holding_a_hostile_fleet():
    assert move_goes_on(None, hostile_present=False)
    assert not move_goes_on(None, hostile_present=True)
    assert not move_goes_on("withdraw", hostile_present=True)
    assert move_goes_on("withdraw", hostile_present=False)


def test_r_int_3_a_and_c_end_the_move_b_lets_it_go_on():
    assert not move_goes_on("combat", hostile_present=False)
    assert not move_goes_on("avoid", hostile_present=False)
    assert move_goes_on("resume", hostile_present=True)


def test_r_sea_2_hazards_are_hostile_to_all_but_their_owner():
    assert hazard_hostile(None, P1) and hazard_hostile(None, PIRATES)
    assert not hazard_hostile(1, P1)
    assert hazard_hostile(1, P2) and hazard_hostile(1, Force(True, 1))


def areas():
    return {1: PhaseArea(1, adjacent={2, 3, 4}), 2: PhaseArea(2, adjacent={1}),
            3: PhaseArea(3, "coastal", adjacent={1}, bordering_players={1}),
            4: PhaseArea(4, "island", adjacent={1}, owner=2)}


def test_r_nav_12_own_uncontested_area_first():
    assert retreat_area(P1, areas()[1], areas(), {}) == (3, True)
    assert retreat_area(P2, areas()[1], areas(), {}) == (4, True)  # its island


def test_r_nav_12_another_own_fleet_makes_an_area_own():
    assert retreat_area(P3, areas()[1], areas(), {2: {P3}}) == (2, True)


def test_r_nav_12_contested_areas_are_skipped_then_lowest_id():
    assert retreat_area(P1, areas()[1], areas(), {3: {P2}}) == (2, False)
    assert retreat_area(PIRATES, areas()[1], areas(), {}) == (2, False)
    assert retreat_area(P1, areas()[1], areas(), {2: {P2}, 3: {P3}, 4: {PIRATES}}) == (None,
                                                                                       False)


def standing(cf, first, last):
    return ForceStanding(cf, first, last)


def test_r_int_6_the_attacker_is_the_force_that_arrived_last():
    forces = {P1: standing(5, (0, 0, 1), (0, 0, 1)), P2: standing(3, (1, 2, 9), (1, 2, 9))}
    assert next_battle(forces, set()) == (P2, P1)


def test_r_int_6_three_forces_largest_cf_first_then_those_left():
    forces = {P1: standing(3, (0, 0, 1), (0, 0, 1)), P2: standing(9, (0, 0, 2), (0, 0, 2)),
              P3: standing(6, (1, 1, 3), (1, 1, 3))}
    fought = set()
    pairs = []
    while (pair := next_battle(forces, fought)) is not None:
        pairs.append(pair)
        fought.add(frozenset(pair))
    assert pairs == [(P3, P2), (P2, P1), (P3, P1)]


def test_r_int_6_equal_cf_ranks_the_force_there_first_higher():
    forces = {P1: standing(4, (0, 0, 5), (0, 0, 5)), P2: standing(4, (0, 0, 2), (0, 0, 2)),
              P3: standing(4, (0, 0, 3), (0, 0, 3))}
    assert next_battle(forces, set()) == (P3, P2)


def test_r_nav_8_a_prize_joins_the_first_holding_fleet_with_ships():
    assert prize_fleet(7, False, [3, 4], {4, 7}) == 4
    assert prize_fleet(7, True, [7, 8], {7, 8}) == 7  # back to its owner: stays in its fleet
    assert prize_fleet(7, True, [7, 8], {8}) == 8
    assert prize_fleet(7, False, [3], set()) is None


def test_r_sea_1_a_lone_player_conquers_a_hostile_island():
    island = PhaseArea(4, "island", owner=2)
    assert island_conqueror(island, {P1}) == 1
    assert island_conqueror(PhaseArea(5, "island"), {P3}) == 3  # unowned: hostile to all
    assert island_conqueror(island, {P2}) is None  # its own
    assert island_conqueror(island, {P1, P3}) is None  # a hostile fleet is there
    assert island_conqueror(island, {PIRATES}) is None
    assert island_conqueror(PhaseArea(6, "coastal"), {P1}) is None


def test_r_nav_7_cargo_names_follow_the_destroyed_points():
    cargo = (Detachment("Guard", 500), Detachment("Scouts", 200), Detachment("Rangers", 200))
    assert cargo_after(cargo, [200]) == (Detachment("Guard", 500), Detachment("Rangers", 200))
    assert cargo_after(cargo, [200, 500, 999]) == (Detachment("Rangers", 200),)
