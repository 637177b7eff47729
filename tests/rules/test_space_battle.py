"""R-SPC-2/3/4/5/7/8 in whole battles with scripted dice.

Faces are scripted in draw order: initiatives (attacker ships, then defender ships), tie draws,
then per acting ship its attack, the target's defence and hit-table rolls, then one repair face
for every active ship (R-SPC-7), unless the battle ended. An ``unarmed`` ship (targeting and gun
damage at 0D: no attack dice, R-SPC-4) does not attack, which keeps scripts short.
"""

from rules.dice import ScriptedDice
from rules.space import Captain, Datasheet, SpaceShip, SpaceSide, resolve_space_battle


def ship(sid, speed=0, captain=None, m="1D", t="1D", g="1D", s="1D", h="1D"):
    return SpaceShip(sid, f"ship{sid}", Datasheet(m, speed, t, g, s, h), captain)


def unarmed(sid, **kw):
    return ship(sid, t="0D", g="0D", **kw)


def fight(faces, attackers, defenders, **kw):
    kw.setdefault("max_rounds", 1)
    kw.setdefault("start_distance_cm", 10)
    dice = ScriptedDice(faces)
    outcome = resolve_space_battle(dice, SpaceSide("attacker", 1, tuple(attackers)),
                                   SpaceSide("defender", 2, tuple(defenders)), **kw)
    assert dice.remaining == 0, "scripted more faces than the battle used"
    return outcome, dice


def steps(outcome, step, **match):
    return [e for e in outcome.events
            if e["step"] == step and all(e.get(k) == v for k, v in match.items())]


# --- R-SPC-2 -------------------------------------------------------------------------------


def test_r_spc_2_move_up_to_initiative_stop_at_range_and_attack():
    a, b = ship(1, speed=20), unarmed(2, speed=10)
    # A init 3+20, B 2+10; A moves 20 of 23 (stops at 10 cm) and attacks: 2+1 < 12 misses
    outcome, _ = fight([3, 2, 2, 1, 1, 1], [a], [b], start_distance_cm=30)
    move_a, move_b = steps(outcome, "move")
    assert (move_a["moved_cm"], move_a["advance"], move_a["distance"]) == (20, 20, 10)
    assert move_a["attacks"] == 2
    assert (move_b["moved_cm"], move_b["attacks"]) == (0, 1)
    assert steps(outcome, "attack", ship=1)[0]["decision"] == "miss"


def test_r_spc_2_no_attack_beyond_10_cm():
    a, b = ship(1, speed=20), unarmed(2, speed=10)
    outcome, _ = fight([3, 2, 1, 1], [a], [b], start_distance_cm=50)
    move_a, move_b = steps(outcome, "move")
    assert (move_a["moved_cm"], move_a["distance"], move_a["attacks"]) == (23, 27, None)
    assert (move_b["moved_cm"], move_b["distance"], move_b["attacks"]) == (12, 15, None)
    assert steps(outcome, "attack") == []


def test_r_spc_3_target_is_enemy_with_lowest_remaining_hull():
    a = ship(1, speed=20)
    bs = [unarmed(2, h="3D"), unarmed(3, h="2D+2"), unarmed(4, h="2D+1"), unarmed(5, h="2D+1")]
    # A 23; B 2,3,4,5. A attacks ship 4 (lowest hull, first of the tie): 3 vs 4 misses
    outcome, _ = fight([3, 2, 3, 4, 5, 2, 1] + [1] * 5, [a], bs, start_distance_cm=30)
    assert steps(outcome, "move", ship=1)[0]["target"] == 4
    assert steps(outcome, "attack", ship=1)[0]["target"] == 4


def test_r_spc_2_attack_an_in_range_enemy_when_the_target_is_out_of_range():
    a = ship(1)
    far_weak, near = unarmed(3, h="1D"), unarmed(2, speed=30, h="3D")
    # near dashes 30 cm to A; A's target (weakest) stays out of range, A attacks near
    outcome, _ = fight([2, 3, 4, 2, 1, 1, 1, 1], [a], [near, far_weak], start_distance_cm=40)
    move_a = steps(outcome, "move", ship=1)[0]
    assert (move_a["target"], move_a["attacks"]) == (3, 2)


# --- R-SPC-3 -------------------------------------------------------------------------------


def test_r_spc_3_initiative_order_and_ties_drawn():
    a, b = ship(1, speed=2), ship(2, speed=1)
    # 3+2 = 1+4: a tie, ordered by one d2 draw: face 2 takes the second of [1, 2] first
    outcome, dice = fight([3, 4, 2, 1, 1], [a], [b], start_distance_cm=30)
    order = steps(outcome, "order")[0]
    assert order["order"] == [2, 1] and order["initiative"] == {1: 5, 2: 5}
    assert order["dice"] == [2]
    tie = dice.log[2]
    assert (tie.purpose, tie.sides, tie.faces) == ("spc:r1:order", 2, [2])
    assert [r.purpose for r in dice.log[:2]] == ["spc:r1:init:a1", "spc:r1:init:d1"]


def test_r_spc_3_three_way_tie_is_a_shuffle_of_draws():
    ships = [ship(1, speed=3), ship(2, speed=3)], [ship(3, speed=3)]
    outcome, dice = fight([2, 2, 2, 3, 2, 1, 1, 1], *ships, start_distance_cm=60)
    assert steps(outcome, "order")[0]["order"] == [3, 2, 1]
    assert [r.sides for r in dice.log[3:5]] == [3, 2]


def test_r_spc_3_initiative_is_maneuver_plus_speed_with_wild_die():
    outcome, _ = fight([6, 6, 2, 3, 1, 1], [ship(1, speed=4)], [ship(2, speed=1)],
                       start_distance_cm=60)
    init = steps(outcome, "initiative", ship=1)[0]
    assert (init["dice"], init["total"], init["initiative"]) == ([6, 6, 2], 14, 18)


def test_r_spc_3_initiative_fumble_speed_and_random_system_loses_1d():
    # A fumbles (wild 1): initiative = speed 2, hit table 2: guns -1D; both repair with a 1
    outcome, dice = fight([1, 2, 4, 1, 1], [ship(1, speed=2)], [ship(2, speed=1)],
                          start_distance_cm=30)
    init = steps(outcome, "initiative", ship=1)[0]
    assert init["fumble"] and init["initiative"] == 2
    assert steps(outcome, "fumble_damage")[0]["hit"] == "gun_damage"
    assert outcome.ship(1).damage == {"gun_damage": 1}
    assert steps(outcome, "order")[0]["order"] == [2, 1]
    assert dice.log[1].purpose == "spc:r1:fumble:a1"
    assert steps(outcome, "repair")[0]["repaired"] == []


def test_r_spc_3_fumble_bridge_with_captain_cancels_bonus_for_the_round():
    a = ship(1, captain=Captain("targeting", "hull"), h="2D")
    b = ship(2)
    faces = [1, 6,      # A fumbles; bridge: bonus off this round
             3,         # B init 3; order B, A
             2, 2,      # B attacks A: 4 >= 0 hits
             5, 5, 5,   # A defends with 1D + 2D (no captain pip): no effect
             2, 3,      # A attacks with 1D + 1D (no captain die): 5 >= 3 hits
             1, 2,      # B defends 2D, fumbles: 3, difference 2: shields down
             1, 1]      # repairs: nothing
    outcome, _ = fight(faces, [a], [b])
    assert steps(outcome, "defence", ship=1)[0]["code"] == "3D"
    assert steps(outcome, "attack", ship=1)[0]["code"] == "2D"
    defence_b = steps(outcome, "defence", ship=2)[0]
    assert defence_b["fumble"] and defence_b["decision"] == "shields down"
    result = outcome.ship(1)
    assert result.captain_alive and not result.bridge_hit and result.damage == {}
    assert str(result.datasheet.targeting) == "2D" and str(result.datasheet.hull) == "2D+1"


# --- R-SPC-4 -------------------------------------------------------------------------------


def a_vs_unarmed():
    return [ship(1)], [unarmed(2)]


def test_r_spc_4_lower_attack_misses():
    outcome, _ = fight([2, 4, 2, 1, 1, 1], *a_vs_unarmed())
    attack = steps(outcome, "attack", ship=1)[0]
    assert (attack["total"], attack["vs"], attack["decision"]) == (3, 4, "miss")
    assert steps(outcome, "attack", ship=2)[0]["decision"] == "no guns"


def test_r_spc_4_equal_attack_hits():
    outcome, _ = fight([2, 4, 2, 2, 5, 5, 1, 1], *a_vs_unarmed())
    attack = steps(outcome, "attack", ship=1)[0]
    assert (attack["code"], attack["total"], attack["decision"]) == ("2D", 4, "hit")
    defence = steps(outcome, "defence", ship=2)[0]
    assert (defence["total"], defence["difference"], defence["decision"]) == (10, -6,
                                                                              "no effect")


def test_r_spc_4_fumble_fails_and_costs_a_system_die():
    # wild 1 with a 6: would hit, but fails; hit table 3: targeting -1D; repair rolls 1
    outcome, _ = fight([2, 4, 1, 6, 3, 1, 1], *a_vs_unarmed())
    assert steps(outcome, "attack", ship=1)[0]["decision"] == "fumble"
    assert steps(outcome, "defence") == []
    assert outcome.ship(1).damage == {"targeting": 1}


def test_r_spc_4_fumble_bridge_with_captain_bonus_lost_for_round():
    a = ship(1, captain=Captain("gun_damage", "shields"))
    outcome, _ = fight([2, 4, 1, 1, 1, 6, 1, 1], [a], [unarmed(2)])
    assert steps(outcome, "fumble_damage")[0]["hit"] == "bridge (bonus off this round)"
    assert outcome.ship(1).captain_alive and outcome.ship(1).damage == {}


# --- R-SPC-5 in battle ----------------------------------------------------------------------


def test_r_spc_5_defence_fumble_counts_then_shields_down_for_next_hits():
    a1, a2 = ship(1), ship(2)
    b = unarmed(3, s="2D", h="2D")
    faces = [5, 4, 2,      # initiatives: A1 5, A2 4, B 2
             3, 3,         # A1 attacks: 6 hits
             1, 6, 6, 6,   # B defends 4D, fumble: 19 (the 1 counts), no effect; shields down
             4, 4,         # A2 attacks: 8 hits
             2, 2,         # B defends with hull only (2D): 4, difference 4
             5,            # hit table 5: hull -1D
             1, 1, 2]      # repairs: A1 and A2 nothing, B restores the hull die
    outcome, _ = fight(faces, [a1, a2], [b])
    first, second = steps(outcome, "defence", ship=3)
    assert (first["total"], first["fumble"], first["decision"]) == (19, True, "no effect")
    assert (second["code"], second["shields_down"], second["difference"]) == ("2D", True, 4)
    assert second["decision"] == "1D off one system"
    assert steps(outcome, "hit_table")[0]["hit"] == ["hull"]
    assert steps(outcome, "repair", ship=3)[0]["repaired"] == ["hull"]
    assert outcome.ship(3).damage == {} and outcome.ship(3).status == "active"


def test_r_spc_5_shields_return_next_round():
    a, b = ship(1), unarmed(2, s="2D")
    faces = [4, 2, 3, 3, 1, 1, 1,   # round 1: A hits 6 vs B's fumbled 3: diff 3, shields down
             1, 1,                  # repairs
             4, 2, 3, 3, 2, 2, 2,   # round 2: B defends with 3D again
             1, 1]
    outcome, _ = fight(faces, [a], [b], max_rounds=2)
    r1, r2 = steps(outcome, "defence", ship=2)
    assert r1["decision"] == "shields down" and r2["code"] == "3D" and not r2["shields_down"]


# --- R-SPC-7 in battle ----------------------------------------------------------------------


def test_r_spc_7_repair_roll_has_no_wild_die_and_6_repairs_two():
    a, b = ship(1), ship(2, g="0D", m="2D", t="2D", s="2D", h="3D")  # B acts after A
    faces = [5, 2, 1,         # A 5; B 2+1 = 3
             6, 2, 6, 5,      # A attacks 2D: wild 6 explodes twice: 6+2+6+5 = 19
             1, 1, 1, 1, 1,   # B defends 5D: 5 (fumble), difference 14: 2D off one system
             3,               # hit table 3: targeting 2D -> 0D: B has no attack dice left
             1, 6]            # repairs: A; B one face, a 6 does not explode: two repaired
    outcome, dice = fight(faces, [a], [b])
    defence = steps(outcome, "defence", ship=2)[0]
    assert defence["total"] == 5 and defence["fumble"]
    assert defence["difference"] == 14 and defence["decision"] == "2D off one system"
    assert steps(outcome, "hit_table")[0]["hit"] == ["targeting", "targeting"]
    assert steps(outcome, "attack", ship=2)[0]["decision"] == "no guns"
    repair = steps(outcome, "repair", ship=2)[0]
    assert repair["dice"] == [6] and repair["repaired"] == ["targeting", "targeting"]
    assert len(dice.log[-1].faces) == 1


def test_r_spc_7_a_repair_roll_of_1_repairs_nothing():
    outcome, dice = fight([2, 4, 1, 6, 3, 1, 1], *a_vs_unarmed())
    repairs = steps(outcome, "repair")
    assert [r["ship"] for r in repairs] == [1, 2] and repairs[0]["repaired"] == []
    assert outcome.ship(1).damage == {"targeting": 1}
    assert dice.log[-2].purpose == "spc:r1:repair:a1"


# --- R-SPC-8 -------------------------------------------------------------------------------


def test_r_spc_8_ends_when_a_side_has_no_active_ships():
    a = ship(1, t="5D", g="5D")
    b = unarmed(2)
    faces = [2, 3] + [5] * 10 + [2, 2]  # 50 vs 4: difference 46, destroyed; no repair phase
    outcome, _ = fight(faces, [a], [b], max_rounds=5)
    assert (outcome.winner, outcome.rounds, outcome.reason) == ("attacker", 1, "annihilation")
    assert outcome.ship(2).status == "destroyed" and outcome.ship(1).status == "active"
    assert steps(outcome, "destroyed")[0]["ship"] == 2
    assert outcome.events[-1] == {"rule": "R-SPC-8", "step": "end", "rounds": 1,
                                  "winner": "attacker", "reason": "annihilation",
                                  "active": [1]}


def test_r_spc_8_after_max_rounds_no_winner():
    outcome, _ = fight([2, 3, 1, 1] * 3, [unarmed(1)], [unarmed(2)], max_rounds=3)
    assert (outcome.winner, outcome.rounds, outcome.reason) == (None, 3, "max_rounds")
    assert all(s.status == "active" for s in outcome.ships)


def test_r_spc_8_both_sides_wiped_out_no_winner():
    # both fumble initiative and the hit table says hull: 1D hull, destroyed
    outcome, _ = fight([1, 5, 1, 5], [ship(1)], [ship(2)], max_rounds=4)
    assert (outcome.winner, outcome.rounds, outcome.reason) == (None, 1, "annihilation")
    assert {s.status for s in outcome.ships} == {"destroyed"}


# --- R-INT-4 a in d6_space ----------------------------------------------------------------


def test_r_int_4_a_space_advantage_one_pip_first_round_only():
    faces = [3, 2, 2, 2, 5, 5, 1, 1] * 2
    outcome, _ = fight(faces, *a_vs_unarmed(), max_rounds=2, advantage="attacker")
    inits = steps(outcome, "initiative", ship=1)
    assert [(i["total"], i["advantage_pip"]) for i in inits] == [(4, 1), (3, 0)]
    attacks = steps(outcome, "attack", ship=1)
    assert [(a["total"], a["advantage_pip"]) for a in attacks] == [(5, 1), (4, 0)]


def test_r_spc_events_name_rules_and_carry_every_face():
    faces = [5, 4, 2, 3, 3, 1, 6, 6, 6, 4, 4, 2, 2, 5, 1, 1, 2]
    outcome, dice = fight(faces, [ship(1), ship(2)], [unarmed(3, s="2D", h="2D")])
    assert all(e["rule"].startswith("R-SPC-") and e["step"] for e in outcome.events)
    replayed = [f for e in outcome.events for f in e.get("dice", [])]
    assert replayed == [f for record in dice.log for f in record.faces]


# --- R-SPC-4 guns at 0D, R-SPC-7 every active ship repairs --------------------------


def test_r_spc_4_guns_at_0d_still_attack_with_targeting_dice():
    a, b = ship(1, g="0D"), unarmed(2)
    faces = [2, 4,    # initiatives: A 2, B 4; order B, A
             5,       # A attacks with its targeting die alone (1D): 5 >= 4 hits
             2, 1,    # B defends 2D: 3, difference 2: shields down
             1, 1]    # repairs (R-SPC-7): A, B
    outcome, dice = fight(faces, [a], [b])
    attack = steps(outcome, "attack", ship=1)[0]
    assert (attack["code"], attack["dice"], attack["decision"]) == ("1D", [5], "hit")
    assert dice.log[2].purpose == "spc:r1:attack:a1"
    assert steps(outcome, "defence", ship=2)[0]["decision"] == "shields down"


def test_r_spc_4_targeting_at_0d_attacks_with_gun_dice():
    a, b = ship(1, t="0D", g="2D"), unarmed(2)
    outcome, _ = fight([2, 4, 3, 3, 5, 5, 1, 1], [a], [b])
    attack = steps(outcome, "attack", ship=1)[0]
    assert (attack["code"], attack["total"], attack["decision"]) == ("2D", 6, "hit")


def test_r_spc_4_only_a_ship_with_no_attack_dice_does_not_attack():
    a, b = ship(1, t="0D+2", g="0D+1"), unarmed(2)
    outcome, dice = fight([2, 4, 1, 1], [a], [b])
    assert [e["decision"] for e in steps(outcome, "attack")] == ["no guns", "no guns"]
    assert [r.purpose for r in dice.log[2:]] == ["spc:r1:repair:a1", "spc:r1:repair:d1"]


def test_r_spc_7_every_active_ship_rolls_repair_damaged_or_not():
    a, b = unarmed(1), unarmed(2)
    outcome, dice = fight([2, 3, 6, 4] * 2, [a], [b], max_rounds=2)
    repairs = steps(outcome, "repair")
    assert [(r["round"], r["ship"], r["dice"], r["repaired"]) for r in repairs] == [
        (1, 1, [6], []), (1, 2, [4], []), (2, 1, [6], []), (2, 2, [4], [])]
    assert [r.purpose for r in dice.log if ":repair:" in r.purpose] == [
        "spc:r1:repair:a1", "spc:r1:repair:d1",
        "spc:r2:repair:a1", "spc:r2:repair:d1"]
    assert all(len(r.faces) == 1 and r.sides == 6 for r in dice.log if ":repair:" in r.purpose)


def test_r_spc_7_draw_sequence_does_not_depend_on_damage():
    """The same draws follow whether a ship was hurt or not; only what a repair does differs."""
    a, b = unarmed(1, m="2D"), unarmed(2)
    hurt, _ = fight([1, 1, 1,   # A's initiative fumbles; hit table 1: engines, maneuver -1D
                     4,         # B's initiative
                     2, 2], [a], [b])  # repairs: A gets its maneuver die back, B has none
    whole, _ = fight([2, 1, 4, 2, 2], [a], [b])
    for outcome, repaired in ((hurt, ["maneuver"]), (whole, [])):
        repairs = steps(outcome, "repair")
        assert [(r["ship"], r["repaired"]) for r in repairs] == [(1, repaired), (2, [])]
    assert outcome.ship(1).damage == {} == hurt.ship(1).damage
