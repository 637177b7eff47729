"""Property tests of the naval engine over random fleets and seeds (R-NAV-1..13, R-VP-1)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.boarding import Character
from rules.dice import RoundStream, SimulationDice
from rules.naval import STANCES, NavalShip, NavalSide, hazard_exchange, resolve_naval_battle
from tests.budget import examples

STATES = {"afloat", "sunk", "captured", "retreated"}

characters = st.builds(Character, st.sampled_from(["Ana", "Bo", "Cy", "Di"]),
                       st.integers(0, 30))


@st.composite
def fleets(draw, key, first_id):
    ships = []
    for offset in range(draw(st.integers(0, 6))):
        ships.append(NavalShip(
            first_id + offset, f"ship {first_id + offset}", draw(st.integers(0, 6)),
            draw(st.integers(1, 10)), draw(st.integers(0, 6)),
            tuple(draw(st.lists(characters, max_size=3))),
            tuple(draw(st.lists(st.integers(0, 500), max_size=2))),
            draw(st.none() | st.integers(1, 4))))
    return NavalSide(key, None, tuple(ships), draw(st.sampled_from(STANCES)),
                     draw(st.none() | st.integers(1, 9)))


battles = st.fixed_dictionaries({
    "attacker": fleets("attacker", 1),
    "defender": fleets("defender", 101),
    "max_rounds": st.integers(1, 15),
    "advantage": st.sampled_from([None, "attacker", "defender"]),
    "seed": st.integers(0, 2**32),
})


def resolve(battle, dice, **kw):
    return resolve_naval_battle(dice, battle["attacker"], battle["defender"],
                                max_rounds=battle["max_rounds"],
                                advantage=battle["advantage"], **kw)


@settings(max_examples=examples(200), deadline=None)
@given(battles)
def test_r_nav_11_every_battle_terminates_within_its_round_cap(battle):
    out = resolve(battle, SimulationDice(battle["seed"]))
    assert 0 <= out.rounds <= battle["max_rounds"]
    assert out.end in ("destroyed", "retreat", "round_cap")
    if out.end == "round_cap":
        assert out.rounds == battle["max_rounds"] and out.winner is None
    if out.winner is not None:
        loser = "defender" if out.winner == "attacker" else "attacker"
        assert not any(r.state == "afloat" for r in out.ships if r.side == loser)
        assert any(r.state == "afloat" for r in out.ships if r.side == out.winner)


@settings(max_examples=examples(200), deadline=None)
@given(battles)
def test_r_nav_every_ship_ends_in_exactly_one_consistent_state(battle):
    out = resolve(battle, SimulationDice(battle["seed"]))
    ships = {s.id: s for side in (battle["attacker"], battle["defender"]) for s in side.ships}
    assert [r.ship_id for r in out.ships] == list(ships)
    captured = {c.ship_id: c for c in out.captures}
    retreated = {"attacker", "defender"} if out.retreated == "both" else {out.retreated}
    for r in out.ships:
        assert r.state in STATES
        assert (r.state == "captured") == (r.ship_id in captured)
        if r.state == "retreated":
            assert r.side in retreated
        elif r.side in retreated:
            assert r.state != "afloat"  # lost before its side retreated
        if r.state == "sunk":
            assert r.holder is None and r.hits >= ships[r.ship_id].defence
        else:
            assert r.hits < ships[r.ship_id].defence
        if r.state in ("afloat", "retreated"):
            assert r.holder == r.side and r.captured_by is None
        if r.state == "captured":
            assert r.captured_by != r.side and r.holder == captured[r.ship_id].holder


@settings(max_examples=examples(200), deadline=None)
@given(battles)
def test_r_nav_no_statistic_negative_and_nothing_counted_twice(battle):
    out = resolve(battle, SimulationDice(battle["seed"]))
    assert out.rounds >= 0 and min(out.vp.values()) >= 0
    total_cp = 0
    for side in (battle["attacker"], battle["defender"]):
        for s in side.ships:
            r = out.ship(s.id)
            total_cp += sum(c.cp for c in s.crew)
            assert r.hits >= 0
            lost = Counter(r.crew_destroyed) + Counter(r.crew_overwhelmed)
            assert not lost - Counter(s.crew)  # only characters that were aboard are lost
            assert not Counter(r.cargo_destroyed) - Counter(s.cargo)
            if r.holder is not None:  # still exists: everything aboard is accounted for
                assert Counter(r.crew) + lost == Counter(s.crew)
                assert Counter(r.cargo) + Counter(r.cargo_destroyed) == Counter(s.cargo)
    assert sum(out.vp.values()) <= total_cp  # every character scores at most once (R-VP-1)
    assert all(c.vp >= 0 for c in out.captures)


@settings(max_examples=examples(200), deadline=None)
@given(battles)
def test_r_brd_1_and_3_who_fights_and_the_body_hits_an_attack_deals(battle):
    """R-BRD-1: on a single-seat ship (seats 1) only the bottom card fights, the rest stand
    aside; R-BRD-3: an attack deals hits - evades body hits, two overwhelm and more are lost."""
    out = resolve(battle, SimulationDice(battle["seed"]))
    seats = {s.id: s.seats for side in (battle["attacker"], battle["defender"])
             for s in side.ships}
    ships = None
    for event in out.events:
        if event["step"] == "boarding":
            ships = {"boarders": event["boarder"], "defenders": event["target"]}
        elif event["step"] == "duel_start":
            assert ships is not None
            for key, ship_id in ships.items():
                fighting, aside = event[key], event.get(f"{key}_aside", [])
                if seats[ship_id] == 1 and len(fighting) + len(aside) > 1:
                    assert len(fighting) == 1 and aside
                else:
                    assert not aside
        elif event["step"] == "duel_attack":
            assert event["dealt"] == max(0, event["hits"] - event["evades"])
            assert event["body_hit"] == (event["dealt"] > 0)
            assert 0 <= event["body_hits"] <= 2


@settings(max_examples=examples(100), deadline=None)
@given(battles)
def test_r_nav_13_same_seed_same_event_log(battle):
    first = resolve(battle, SimulationDice(battle["seed"]))
    second = resolve(battle, SimulationDice(battle["seed"]))
    assert first.events == second.events and first == second
    quiet = resolve(battle, SimulationDice(battle["seed"]), record_events=False)
    assert quiet == first and quiet.events == []


@settings(max_examples=examples(100), deadline=None)
@given(battles, st.binary(min_size=32, max_size=32))
def test_r_nav_13_event_log_holds_every_face_drawn_in_order(battle, seed):
    dice = RoundStream(seed, 1, 1)
    out = resolve(battle, dice)
    drawn = [f for record in dice.log for f in record.faces]
    assert [f for e in out.events for f in e.get("dice", [])] == drawn
    for event in out.events:
        assert event["rule"].startswith("R-") and isinstance(event["step"], str)
        assert "round" in event


@settings(max_examples=examples(100), deadline=None)
@given(fleets("attacker", 1), fleets("defender", 50), st.integers(0, 2**32))
def test_r_sea_2_hazard_outcome_is_consistent(fleet, hazards, seed):
    if not fleet.ships or not hazards.ships:
        return
    hazard, flagship = hazards.ships[0], fleet.ships[0]
    out = hazard_exchange(SimulationDice(seed), hazard, flagship)
    assert out.hazard_hits >= 0 and out.ship_hits >= 0
    assert out.hazard_removed == (out.hazard_hits >= hazard.defence)
    assert out.ship_sunk == (out.ship_hits >= flagship.defence) == (out.ship is None)
