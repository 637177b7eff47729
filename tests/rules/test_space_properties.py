"""Property tests of the D6 space engine (R-SPC-1..8) over random datasheets and seeds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import RoundStream, SimulationDice
from rules.space import (
    CODE_SYSTEMS,
    Captain,
    Datasheet,
    DiceCode,
    SpaceShip,
    SpaceSide,
    resolve_space_battle,
)
from tests.budget import examples

codes = st.builds(DiceCode, st.integers(0, 4), st.integers(0, 2))
hulls = st.builds(DiceCode, st.integers(1, 4), st.integers(0, 2))
sheets = st.builds(Datasheet, codes, st.integers(0, 8), codes, codes, codes, hulls)
captains = st.one_of(st.none(), st.tuples(st.sampled_from(CODE_SYSTEMS),
                                          st.sampled_from((*CODE_SYSTEMS, "speed")))
                     .filter(lambda pair: pair[0] != pair[1])
                     .map(lambda pair: Captain(*pair)))
fleets = st.lists(st.tuples(sheets, captains), min_size=1, max_size=4)
battles = st.fixed_dictionaries({
    "attacker": fleets, "defender": fleets,
    "max_rounds": st.integers(1, 12), "start_distance_cm": st.integers(10, 60),
    "advantage": st.sampled_from((None, "attacker", "defender")),
})


def sides(spec):
    ships, made = {}, 0
    for key in ("attacker", "defender"):
        ships[key] = []
        for sheet, captain in spec[key]:
            made += 1
            ships[key].append(SpaceShip(made, f"ship{made}", sheet, captain))
    return (SpaceSide("attacker", 1, tuple(ships["attacker"])),
            SpaceSide("defender", 2, tuple(ships["defender"])))


def fight(dice, spec, record_events=True):
    attacker, defender = sides(spec)
    return resolve_space_battle(dice, attacker, defender, max_rounds=spec["max_rounds"],
                                start_distance_cm=spec["start_distance_cm"],
                                advantage=spec["advantage"], record_events=record_events)


@settings(max_examples=examples(150), deadline=None)
@given(battles, st.integers(0, 2**32))
def test_r_spc_8_terminates_within_round_cap_and_states_are_consistent(spec, seed):
    outcome = fight(SimulationDice(seed), spec)
    assert 1 <= outcome.rounds <= spec["max_rounds"]
    if outcome.reason == "max_rounds":
        assert outcome.rounds == spec["max_rounds"] and outcome.winner is None
    ids = [s.id for s in outcome.ships]
    assert len(ids) == len(spec["attacker"]) + len(spec["defender"]) == len(set(ids))
    assert all(s.status in ("active", "destroyed") for s in outcome.ships)
    alive = {key: any(s.status == "active" for s in outcome.ships if s.side == key)
             for key in ("attacker", "defender")}
    expected = None if alive["attacker"] == alive["defender"] else (
        "attacker" if alive["attacker"] else "defender")
    assert outcome.winner == expected
    assert outcome.events[-1]["rule"] == "R-SPC-8"


@settings(max_examples=examples(150), deadline=None)
@given(battles, st.integers(0, 2**32))
def test_r_spc_6_no_dice_code_goes_negative(spec, seed):
    outcome = fight(SimulationDice(seed), spec, record_events=False)
    for result in outcome.ships:
        sheet = result.datasheet
        assert sheet.speed >= 0
        assert all(getattr(sheet, name).dice >= 0 for name in CODE_SYSTEMS)
        assert all(lost > 0 for lost in result.damage.values())
        if result.status == "active":
            assert sheet.hull.dice >= 1


@settings(max_examples=examples(100), deadline=None)
@given(battles, st.integers(0, 2**32))
def test_r_spc_same_seed_same_log_and_events_optional(spec, seed):
    first = fight(SimulationDice(seed), spec)
    second = fight(SimulationDice(seed), spec)
    assert first == second
    lean = fight(SimulationDice(seed), spec, record_events=False)
    assert lean.events == ()
    assert (lean.winner, lean.rounds, lean.ships) == (first.winner, first.rounds, first.ships)


@settings(max_examples=examples(60), deadline=None)
@given(battles, st.binary(min_size=32, max_size=32))
def test_r_spc_events_replay_every_logged_face(spec, seed):
    """Every face drawn from the round stream appears, in order, in the event log."""
    stream = RoundStream(seed, campaign_id=7, round_number=3)
    outcome = fight(stream, spec)
    replayed = [f for e in outcome.events for f in e.get("dice", [])]
    assert replayed == [f for record in stream.log for f in record.faces]
    assert all(r.purpose.startswith("spc:r") for r in stream.log)
    again = RoundStream(seed, campaign_id=7, round_number=3)
    fight(again, spec)
    assert [r.as_dict() for r in again.log] == [r.as_dict() for r in stream.log]


@settings(max_examples=examples(150), deadline=None)
@given(battles, st.integers(0, 2**32))
def test_r_spc_7_every_active_ship_rolls_repair_each_round(spec, seed):
    """R-SPC-7: at the end of every round that both sides survive, each active ship makes one
    repair roll, in datasheet order, damaged or not; none when a side is gone (R-SPC-8)."""
    outcome = fight(SimulationDice(seed), spec)
    side = {ship_id: ship["side"] for ship_id, ship in outcome.events[0]["ships"].items()}
    rounds: list[tuple[set[int], list[int]]] = []  # per round: ships destroyed, repairs
    for event in outcome.events:
        if event["step"] == "round":
            rounds.append((set(), []))
        elif event["step"] == "repair":
            rounds[-1][1].append(event["ship"])
        elif event.get("destroyed") is True or event["step"] == "destroyed":
            rounds[-1][0].add(event["ship"])
    assert len(rounds) == outcome.rounds
    gone: set[int] = set()
    for destroyed, repairs in rounds:
        gone |= destroyed
        active = [s for s in side if s not in gone]  # datasheet order
        both = {side[s] for s in active} == {"attacker", "defender"}
        assert repairs == (active if both else [])
