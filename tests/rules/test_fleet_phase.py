"""The fleet phase engine with scripted dice (R-FLT-4..6, R-INT-1..6, R-SEA-1..2, R-NAV-8,
R-NAV-12, R-SPC).

Draw order: the players' order (d<k>, only with two or more players moving); per move the
interceptions (initiator's active DR, target's passive DR) and hazard exchanges (hazard's face,
then the flagship's); then the battles area by area. Ships default to attack 3, defence 9,
agility 3, so a 6 misses at far distance (3 - 1)."""

import pytest

from rules.boarding import Character
from rules.dice import ScriptedDice, SimulationDice
from rules.fleet_phase import (
    Detachment,
    Force,
    PhaseArea,
    PhaseFleet,
    PhaseHazard,
    PhaseInput,
    PhaseOrder,
    PhaseSettings,
    PhaseShip,
    datasheet_from_json,
    resolve_fleet_phase,
)

NEVER = {"interception": "never"}
MISS_ROUND = [6, 6]  # one far round, one pairing: both miss


def ship(sid, **kw):
    values = {"attack": 3, "defence": 9, "agility": 3, **kw}
    return PhaseShip(sid, f"ship {sid}", "Frigate", **values)


def fleet(fid, owner, area, ships, **kw):
    return PhaseFleet(fid, owner, area, ships=tuple(ships), **kw)


def chain(n=4, *replaced: PhaseArea):
    """Areas 1 - 2 - ... - n in a row; ``replaced`` areas take the place of theirs."""
    areas = {i: PhaseArea(i, adjacent={j for j in (i - 1, i + 1) if 1 <= j <= n})
             for i in range(1, n + 1)}
    areas.update({a.id: a for a in replaced})
    return tuple(areas.values())


def run(faces, fleets, *, areas=None, orders=(), hazards=(), **settings):
    dice = ScriptedDice(faces)
    labels = []
    phase = PhaseInput(areas or chain(), tuple(fleets), tuple(hazards),
                       tuple(PhaseOrder(f, tuple(p)) for f, p in orders),
                       PhaseSettings(**{"max_battle_rounds": 1, **settings}))
    result = resolve_fleet_phase(dice, phase, label=labels.append)
    assert dice.remaining == 0, "the script has faces the phase did not read"
    return result, dice, labels


def steps(result, step):
    return [e for e in result.events if e["step"] == step]


# --- R-FLT-6 / R-FLT-4 -------------------------------------------------------------------------


def test_r_flt_6_players_move_in_the_drawn_order_fleets_in_order_of_orders():
    fleets = [fleet(1, 1, 1, [ship(11)]), fleet(2, 2, 3, [ship(21)]), fleet(3, 3, 7, [ship(31)]),
              fleet(4, 2, 4, [ship(41)])]
    orders = [(1, [2]), (4, [5]), (3, [6]), (2, [4])]
    result, dice, _ = run([2, 2], fleets, areas=chain(7), orders=orders)
    assert result.player_order == (2, 3, 1)
    assert [e["fleet"] for e in steps(result, "move")] == [4, 2, 3, 1]
    assert [(f.area, f.arrival) for f in (result.fleets[4], result.fleets[1])] == [
        (5, (1, 1)), (2, (1, 4))]


def test_r_flt_4_a_fleet_moves_through_empty_areas_to_the_end_of_its_path():
    result, dice, _ = run([], [fleet(1, 1, 1, [ship(11)])], orders=[(1, [2, 3, 4])])
    assert result.fleets[1].area == 4 and result.fleets[1].arrival == (1, 3)
    assert dice.log == [] and result.battles == ()


def test_r_flt_4_max_fleet_moves_cuts_an_old_order():
    result, _, _ = run([], [fleet(1, 1, 1, [ship(11)])], orders=[(1, [2, 3, 4])],
                       max_fleet_moves=2)
    assert result.fleets[1].area == 3


def test_r_flt_4_the_move_ends_in_an_area_holding_a_hostile_fleet():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", stance="hold")
    holder = fleet(2, 2, 2, [ship(21)], interception="never", stance="hold")
    result, _, _ = run(MISS_ROUND, [mover, holder], orders=[(1, [2, 3])])
    assert result.fleets[1].area == 2
    (battle,) = result.battles
    assert (battle.area, battle.attacker, battle.defender) == (2, Force(False, 1),
                                                               Force(False, 2))
    assert battle.outcome["end"] == "round_cap"


def test_r_flt_4_an_order_that_no_longer_fits_the_map_lapses():
    result, _, _ = run([], [fleet(1, 1, 1, [ship(11)])], orders=[(1, [3])])
    assert result.fleets[1].area == 1
    assert steps(result, "order_lapsed")[0]["to"] == 3


# --- R-INT-1..5 ----------------------------------------------------------------------------------


def test_r_int_1_hostile_fleets_may_intercept_a_fleet_leaving_their_area():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", stance="hold")
    guard = fleet(2, 2, 1, [ship(21)], benefits=("a",), stance="hold")
    # guard tries as the move leaves area 1: 6 vs 1, takes a) - the move ends where it was
    result, dice, labels = run([6, 1, *MISS_ROUND], [mover, guard], orders=[(1, [2])])
    assert result.fleets[1].area == 1 and result.fleets[1].arrival == (0, 0)
    assert [r.purpose for r in dice.log[:2]] == ["int:fleet=2:active", "int:fleet=1:passive"]
    assert labels[:2] == ["fleets:order", "fleet=1"]
    (battle,) = result.battles
    # no fleet arrived this phase: the higher id counts as the later arrival
    assert battle.attacker == Force(False, 2) and battle.events[0]["advantage"] == "attacker"
    assert battle.sides[0]["advantage"] is True


def test_r_int_4_b_resume_lets_the_move_go_on_without_a_second_check_there():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", benefits=("b",))
    guard = fleet(2, 2, 2, [ship(21)])
    result, dice, _ = run([1, 6], [mover, guard], orders=[(1, [2, 3])])
    assert result.fleets[1].area == 3 and result.battles == ()
    assert len(dice.log) == 2  # no interception on leaving area 2


def test_r_int_4_c_avoid_combat_marks_both_and_they_do_not_fight():
    mover = fleet(1, 1, 1, [ship(11)], interception="never")
    guard = fleet(2, 2, 2, [ship(21)], benefits=("c",))
    # player order: d2 -> 1 (player 1 first); guard wins 6 vs 1 and avoids combat
    result, _, _ = run([1, 6, 1], [mover, guard], orders=[(1, [2, 3]), (2, [3])])
    assert result.fleets[1].area == 2 and result.fleets[2].area == 2
    assert {(m.fleet, m.kind, m.partner) for m in result.markers} == {(1, "avoid", 2),
                                                                      (2, "avoid", 1)}
    assert result.battles == ()
    assert steps(result, "no_move")[0]["fleet"] == 2  # no further action this round


def test_r_int_4_d_withdraw_moves_the_inactive_fleet_by_the_retreat_rules():
    areas = chain(3, PhaseArea(3, "coastal", adjacent={2}, bordering_players={2}))
    mover = fleet(1, 1, 1, [ship(11)], interception="never")
    guard = fleet(2, 2, 2, [ship(21)], benefits=("d",))
    result, _, _ = run([6, 1], [mover, guard], areas=areas, orders=[(1, [2])])
    assert result.fleets[2].area == 3  # its own area (borders its tile)
    assert result.fleets[1].area == 2
    assert [(m.fleet, m.kind) for m in result.markers] == [(2, "withdraw")]
    assert result.battles == ()


def test_r_int_4_c_a_player_can_not_avoid_combat_with_pirates():
    mover = fleet(1, 1, 1, [ship(11)], benefits=("c", "a"), stance="hold")
    pirates = fleet(2, None, 2, [ship(21, attack=1)], kind="pirate", stance="hold")
    # the pirates try as the mover enters: 1 vs 6, the mover wins; c) is not available
    # against pirates, so it takes a) and the battle follows with its advantage
    result, _, _ = run([1, 6, *MISS_ROUND], [mover, pirates], orders=[(1, [2, 3])])
    assert result.markers == () and result.fleets[1].area == 2
    benefit = next(e for e in result.events if e["step"] == "benefit")
    assert (benefit["benefit"], benefit["skipped"]) == ("a", ["c"])
    (battle,) = result.battles
    assert battle.defender == Force(True, None) and battle.events[0]["advantage"] == "attacker"


def _withdrawal(guard_path, *extra_fleets):
    """Player 1's mover enters area 2; player 2's guard there wins the INT DR and withdraws
    to area 3, its own coast (R-INT-4 d, R-NAV-12); the guard's own order comes later."""
    areas = chain(5, PhaseArea(3, "coastal", adjacent={2, 4}, bordering_players={2}))
    mover = fleet(1, 1, 1, [ship(11)], interception="never")
    guard = fleet(2, 2, 2, [ship(21)], benefits=("d",), stance="hold")
    orders = [(1, [2]), (2, guard_path)]
    # player order d2 -> 1: player 1 first; the guard's DR 6 against the mover's 1
    return [mover, guard, *extra_fleets], areas, orders, [1, 6, 1]


def test_r_int_4_d_a_withdrawn_fleet_still_carries_out_its_order_from_where_it_stands():
    fleets, areas, orders, faces = _withdrawal([4, 5])
    result, _, _ = run(faces, fleets, areas=areas, orders=orders)
    assert [(m.fleet, m.kind) for m in result.markers] == [(2, "withdraw")]
    moves = [(e["from"], e["to"]) for e in steps(result, "move") if e["fleet"] == 2]
    assert moves == [(3, 4), (4, 5)]
    assert result.fleets[2].area == 5 and result.fleets[2].arrival == (1, 4)
    assert steps(result, "no_move") == []


def test_r_int_4_d_the_order_is_void_if_its_first_area_is_not_adjacent_any_more():
    fleets, areas, orders, faces = _withdrawal([1])  # adjacent to area 2, not to area 3
    result, _, _ = run(faces, fleets, areas=areas, orders=orders)
    assert result.fleets[2].area == 3
    (void,) = steps(result, "order_lapsed")
    assert (void["fleet"], void["area"], void["to"], void["rule"]) == (2, 3, 1, "R-INT-4")


def test_r_int_4_d_a_withdrawn_fleet_moving_later_is_not_intercepted():
    # player 1's second fleet sits in area 4 with policy always: the guard's NO INTERCEPTION
    # marker keeps it from trying (R-INT-2); the move ends there (R-FLT-4) and they fight
    watcher = fleet(3, 1, 4, [ship(31)], stance="hold")
    fleets, areas, orders, faces = _withdrawal([4, 5], watcher)
    result, dice, _ = run([*faces, *MISS_ROUND], fleets, areas=areas, orders=orders)
    assert result.fleets[2].area == 4
    assert [r.purpose for r in dice.log if r.purpose.startswith("int:")] == [
        "int:fleet=2:active", "int:fleet=1:passive"]
    (battle,) = result.battles
    assert (battle.area, battle.attacker) == (4, Force(False, 2))


def test_r_int_5_pirates_with_more_cf_take_the_interception_advantage():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", stance="hold")
    pirates = fleet(2, None, 2, [ship(21, attack=5)], kind="pirate", stance="hold")
    result, _, _ = run([6, 1, *MISS_ROUND], [mover, pirates], orders=[(1, [2, 3])])
    assert result.fleets[1].area == 2
    pirate_event = next(e for e in result.events if e["rule"] == "R-INT-5")
    assert pirate_event["decision"] == "combat" and pirate_event["cf"] == 5
    (battle,) = result.battles
    assert battle.defender == Force(True, None) and battle.events[0]["advantage"] == "defender"
    assert battle.sides[1]["player"] is None


# --- R-SEA-2 -------------------------------------------------------------------------------------


def test_r_sea_2_a_hazard_fires_at_the_flagship_which_fires_back():
    mover = fleet(1, 1, 1, [ship(11, defence=3), ship(12)])
    kraken = PhaseHazard(5, 2, None, "Kraken", attack=6, defence=2)
    # hazard rolls 3 <= 6: 3 hits sink the flagship; the ship rolled 2 <= 3: the hazard is gone
    result, dice, labels = run([3, 2], [mover], orders=[(1, [2, 3])], hazards=[kraken])
    assert result.ships[11].fleet is None and result.fleets[1].ships == (12,)
    assert result.fleets[1].area == 3
    assert result.hazards[5].triggered and not result.hazards[5].active
    assert dice.log[0].purpose == "sea:hazard=5:fire" and "hazard=5" in labels
    assert steps(result, "hazard_triggered")[0]["ship_sunk"] is True


def test_r_sea_2_hit_allocation_destroys_the_smallest_detachment_by_name():
    cargo = (Detachment("Guard", 500), Detachment("Scouts", 200))
    mover = fleet(1, 1, 1, [ship(11, defence=3, cargo=cargo)])
    reef = PhaseHazard(5, 2, None, "Reef", attack=6, defence=9)
    result, _, _ = run([3, 6], [mover], orders=[(1, [2])], hazards=[reef])
    assert result.ships[11].cargo == (Detachment("Guard", 500),)
    assert result.hazards[5].active and result.hazards[5].hits == 0


def test_r_sea_2_an_owners_hazard_spares_its_own_fleets():
    island = PhaseArea(2, "island", adjacent={1, 3}, owner=1)
    mover = fleet(1, 1, 1, [ship(11)])
    result, dice, _ = run([], [mover], areas=chain(3, island), orders=[(1, [2, 3])],
                          hazards=[PhaseHazard(5, 2, 1, "Kraken", attack=6)])
    assert result.fleets[1].area == 3 and not result.hazards[5].triggered


def test_r_sea_2_hazard_hits_add_up_over_the_campaign_until_its_defence():
    mover = fleet(1, 1, 1, [ship(11)])
    # 4 hits from earlier phases; the hazard misses (6 > 1), the ship hits with 2: 6 of 6
    reef = PhaseHazard(5, 2, None, "Reef", attack=1, defence=6, hits=4)
    result, _, _ = run([6, 2], [mover], orders=[(1, [2, 3])], hazards=[reef])
    assert result.hazards[5].hits == 6 and not result.hazards[5].active
    assert steps(result, "hazard_triggered")[0]["removed"] is True
    # the same hazard with 3 hits before: 5 of 6, it stays
    result, _, _ = run([6, 2], [mover], orders=[(1, [2, 3])],
                       hazards=[PhaseHazard(5, 2, None, "Reef", attack=1, defence=6, hits=3)])
    assert result.hazards[5].hits == 5 and result.hazards[5].active


def test_r_sea_2_a_hazard_whose_hits_already_reach_its_defence_is_removed_unfired():
    mover = fleet(1, 1, 1, [ship(11)])
    worn = PhaseHazard(5, 2, None, "Worn reef", attack=6, defence=3, hits=3)  # defence lowered
    result, dice, _ = run([], [mover], orders=[(1, [2])], hazards=[worn])
    assert dice.log == [] and not result.hazards[5].triggered
    assert (result.hazards[5].hits, result.hazards[5].active) == (3, False)


def test_r_sea_2_a_hazard_triggers_again_on_each_entry_in_one_phase():
    first, second = fleet(1, 1, 1, [ship(11)]), fleet(2, 1, 1, [ship(21)])
    reef = PhaseHazard(5, 2, None, "Reef", attack=1, defence=5)
    # both fleets enter: each time the hazard misses, each ship hits it with 2, then 3
    result, dice, _ = run([6, 2, 6, 3], [first, second], orders=[(1, [2]), (2, [2])],
                          hazards=[reef])
    assert [r.purpose for r in dice.log] == ["sea:hazard=5:fire"] * 2
    assert result.hazards[5].hits == 5 and not result.hazards[5].active


def test_r_sea_2_a_flagships_hazard_hits_count_in_the_battle_in_that_area():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", stance="hold")
    holder = fleet(2, 2, 2, [ship(21, attack=6)], interception="never", stance="hold")
    kraken = PhaseHazard(5, 2, None, "Kraken", attack=6, defence=9)
    # the Kraken hits the flagship with 5, the ship misses (6 > 3); in the battle the mover
    # misses and takes 4 (4 <= 6 - 1): 5 + 4 reach its defence 9, it sinks (R-NAV-7)
    result, _, _ = run([5, 6, 6, 4], [mover, holder], orders=[(1, [2])], hazards=[kraken])
    (battle,) = result.battles
    damage = [e for e in battle.events if e["step"] == "damage"]
    assert [(e["ship"], e["hits"], e["sunk"]) for e in damage] == [(11, 9, True)]
    assert battle.outcome["winner"] == "defender" and result.ships[11].fleet is None
    assert battle.events[0]["hazard_hits"] == [{"rule": "R-SEA-2", "ship": 11, "hits": 5}]


def test_r_sea_2_hazard_hits_count_only_in_that_area_and_clear_with_the_battle():
    mover = fleet(1, 1, 1, [ship(11)], interception="never", stance="hold")
    p2 = fleet(2, 2, 3, [ship(21, attack=6)], interception="never", stance="hold")
    p3 = fleet(3, 3, 3, [ship(31, attack=5)], interception="never", stance="hold")
    reef = PhaseHazard(5, 3, None, "Reef", attack=6, defence=9)
    gale = PhaseHazard(6, 2, None, "Gale", attack=6, defence=9)
    # area 2: the Gale hits 3 (those count only in area 2); area 3: the Reef hits 2.
    # Battles in area 3 (R-INT-6): p3 - p2 (both miss), then the mover against p2: it takes
    # 3, 2 + 3 = 5 hits; then against p3: it takes 4, its hazard hits cleared: 4 hits.
    faces = [3, 6, 2, 6, *MISS_ROUND, 6, 3, 6, 4]
    result, _, _ = run(faces, [mover, p2, p3], orders=[(1, [2, 3])], hazards=[reef, gale])
    assert [(b.attacker.owner, b.defender.owner) for b in result.battles] == [
        (3, 2), (1, 2), (1, 3)]
    hits = [[(e["ship"], e["hits"]) for e in b.events if e["step"] == "damage"]
            for b in result.battles]
    assert hits == [[], [(11, 5)], [(11, 4)]]
    assert result.ships[11].fleet == 1


def test_r_sea_2_a_hazard_triggers_on_a_withdrawal_into_the_players_own_area():
    fleets, areas, orders, faces = _withdrawal([])
    storm = PhaseHazard(5, 3, None, "Storm", attack=6, defence=9)  # admin: hostile to all
    own = PhaseHazard(6, 3, 2, "Guard reef", attack=6)  # hypothetically the guard's own
    result, dice, _ = run([*faces, 2, 6], fleets, areas=areas, orders=orders,
                          hazards=[storm, own])
    assert result.fleets[2].area == 3
    assert result.hazards[5].triggered and not result.hazards[6].triggered
    assert dice.log[-1].purpose == "sea:hazard=5:fire"
    (event,) = steps(result, "hazard_triggered")
    assert (event["fleet"], event["area"], event["ship"]) == (2, 3, 21)


# --- R-INT-6, R-NAV-8, R-NAV-12 ----------------------------------------------------------------


def test_r_int_6_three_players_fight_pair_by_pair_largest_cf_first():
    fleets = [fleet(1, 1, 2, [ship(11, attack=1)], stance="hold"),
              fleet(2, 2, 2, [ship(21, attack=2)], stance="hold"),
              fleet(3, 3, 2, [ship(31, attack=3)], stance="hold")]
    result, _, labels = run(MISS_ROUND * 3, fleets)
    assert [(b.attacker.owner, b.defender.owner, b.sequence) for b in result.battles] == [
        (3, 2, 1), (3, 1, 2), (2, 1, 3)]
    assert labels == [f"naval-battle:area=2:seq={n}" for n in (1, 2, 3)]
    assert [b.first_counter for b in result.battles] == [0, 1, 2]


def test_r_int_6_a_players_fleets_fight_as_one_line_in_arrival_order():
    first = fleet(1, 1, 2, [ship(11), ship(12)], stance="hold", arrival=(0, 0))
    second = fleet(4, 1, 1, [ship(41)], stance="hold", interception="never")
    enemy = fleet(2, 2, 2, [ship(21), ship(22), ship(23)], stance="hold",
                  interception="never")
    # the second fleet joins the first in area 2 (no interception: both policies never)
    result, _, _ = run([6] * 6, [first, second, enemy], orders=[(4, [2])])
    (battle,) = result.battles
    assert battle.sides[0]["fleets"] == [1, 4]
    assert [s["id"] for s in battle.sides[0]["ships"]] == [11, 12, 41]
    assert battle.events[1]["lines"] == {"attacker": [11, 12, 41], "defender": [21, 22, 23]}


def test_r_nav_8_a_ship_captured_by_boarding_joins_the_capturers_fleet():
    boss, mate = Character("Boss", 12), Character("Mate", 6)
    raider = fleet(2, 1, 2, [ship(21, crew=(boss,))], stance="approach")
    merchant = fleet(1, 2, 2, [ship(11, crew=(mate,), cargo=(Detachment("Guard", 500),))],
                     stance="approach")
    # near at once (both approach): agility 1 (ok) and 6; the raider boards: duel as in
    # test_naval_exchange TAKE_ONE (2 hits vs 0 evades: two body hits, R-BRD-3)
    result, _, _ = run([1, 6, 1, 1, 8], [raider, merchant])
    (battle,) = result.battles
    assert battle.attacker == Force(False, 1)  # fleet 2 counts as the later arrival
    assert battle.outcome["captures"][0]["holder"] == "attacker"
    assert battle.vp == {"attacker": 6, "defender": 0}
    assert result.ships[11].fleet == 2 and result.ships[11].position == 2
    assert result.ships[11].cargo == (Detachment("Guard", 500),) and result.ships[11].crew == ()
    assert result.fleets[1].destroyed and result.fleets[2].ships == (21, 11)


def test_r_nav_12_a_retreat_moves_the_side_to_its_own_area_where_hostile_hazards_trigger():
    areas = chain(3, PhaseArea(3, "orbit", adjacent={2}, bordering_players={2}))
    hunter = fleet(2, 1, 2, [ship(21)], stance="approach")
    prey = fleet(1, 2, 2, [ship(11)], stance="withdraw")
    # maneuver: hunter 6 fails, prey 1 succeeds and withdraws at far: it retreats; the admin's
    # Storm in its own area is hostile to every player (R-SEA-2): it misses with 6, the ship
    # hits it with 1 and removes it (defence 1)
    result, dice, _ = run([6, 1, 6, 1], [hunter, prey], areas=areas,
                          hazards=[PhaseHazard(5, 3, None, "Storm")])
    (battle,) = result.battles
    assert battle.outcome["retreated"] == "defender" and battle.sides[1]["retreat_to"] == 3
    assert result.fleets[1].area == 3 and result.fleets[1].arrival == (1, 1)
    assert result.hazards[5].triggered and not result.hazards[5].active
    assert dice.log[-1].purpose == "sea:hazard=5:fire"
    assert battle.first_counter + battle.dice_count == dice.log[-1].counter


def test_r_nav_12_retreating_into_an_area_not_its_own_triggers_its_hazards():
    hunter = fleet(2, 1, 2, [ship(21)], stance="approach")
    prey = fleet(1, 2, 2, [ship(11)], stance="withdraw")
    storm = PhaseHazard(5, 1, None, "Storm", attack=1)
    result, _, _ = run([6, 1, 6, 6], [hunter, prey], hazards=[storm])
    assert result.fleets[1].area == 1 and result.hazards[5].triggered


# --- R-SEA-1 -------------------------------------------------------------------------------------


def test_r_sea_1_a_fleet_ending_alone_on_a_hostile_island_conquers_it():
    island = PhaseArea(3, "island", adjacent={2}, owner=2)
    mover = fleet(1, 1, 1, [ship(11, attack=1)])
    guardian = PhaseHazard(5, 3, 2, "Leviathan", attack=1)
    result, _, _ = run([6, 6], [mover], areas=chain(3, island), orders=[(1, [2, 3])],
                       hazards=[guardian])
    assert result.islands == {3: 1}
    assert result.hazards[5].owner == 1 and result.hazards[5].triggered
    assert steps(result, "island_conquered")[0]["previous"] == 2


def test_r_sea_1_no_conquest_while_a_hostile_fleet_holds_the_island():
    island = PhaseArea(2, "island", adjacent={1})
    fleets = [fleet(1, 1, 2, [ship(11)], stance="hold"), fleet(2, 2, 2, [ship(21)],
                                                               stance="hold")]
    result, _, _ = run(MISS_ROUND, fleets, areas=chain(2, island))
    assert result.islands == {}


# --- R-SPC ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_r_spc_d6_battles_remove_destroyed_ships_only(seed):
    sheet = {"maneuver": "2D", "speed": 2, "targeting": "3D", "gun_damage": "4D",
             "shields": "1D", "hull": "2D"}
    data, _ = datasheet_from_json(sheet)
    fleets = [fleet(1, 1, 2, [ship(i, datasheet=data) for i in (11, 12)]),
              fleet(2, 2, 2, [ship(i, datasheet=data) for i in (21, 22)])]
    phase = PhaseInput(chain(), tuple(fleets), settings=PhaseSettings(engine="d6_space",
                                                                      max_battle_rounds=6))
    result = resolve_fleet_phase(SimulationDice(seed), phase)
    (battle,) = result.battles
    assert battle.engine == "d6_space" and battle.events[1]["rule"] == "R-SPC-2"
    for record in battle.outcome["ships"]:
        gone = result.ships[record["id"]].fleet is None
        assert gone == (record["state"] == "destroyed")
    assert battle.sides[0]["ships"][0]["datasheet"]["gun_damage"] == "4D"
