"""The no-events path of both engines (odds previews, R-ODDS-1) fights the same battle as the
recorded path (R-NAV-13, R-SPC): same dice in the same order, same outcome, for the same seed."""

import random
from dataclasses import replace

import pytest

from rules.boarding import Character
from rules.dice import RoundStream, SimulationDice
from rules.naval import STANCES, NavalShip, NavalSide, resolve_naval_battle
from rules.space import Captain, Datasheet, SpaceShip, SpaceSide, resolve_space_battle

SEED = bytes(range(32))


def naval_sides(rng: random.Random) -> tuple[NavalSide, NavalSide]:
    def ship(sid: int) -> NavalShip:
        crew = [Character(f"c{sid}-{k}", rng.choice((0, 5, 6, 8, 12, 14, 19)))
                for k in range(rng.randint(0, 3))]
        # agility 0 (R-NAV-5 never raises it), seats 1 (R-BRD-1: only the combat card fights)
        return NavalShip(sid, f"s{sid}", rng.randint(1, 6), rng.randint(2, 9),
                         rng.randint(0, 5), crew, [rng.choice((100, 250))] * rng.randint(0, 2),
                         rng.choice((None, None, 1, 2)))
    sizes = rng.randint(1, 7), rng.randint(1, 7)
    return (NavalSide("attacker", 1, [ship(i) for i in range(sizes[0])],
                      rng.choice(STANCES), rng.choice((None, 5))),
            NavalSide("defender", 2, [ship(100 + i) for i in range(sizes[1])],
                      rng.choice(STANCES), rng.choice((None, 6))))


def space_sides(rng: random.Random) -> tuple[SpaceSide, SpaceSide]:
    def code(low: int = 0) -> str:
        return f"{rng.randint(low, 4)}D+{rng.randint(0, 2)}"

    def ship(sid: int) -> SpaceShip:
        captain = rng.choice((None, Captain("gun_damage", "speed"), Captain("hull", "shields")))
        sheet = Datasheet(code(), rng.randint(0, 6), code(), code(), code(), code(1))
        return SpaceShip(sid, f"s{sid}", sheet, captain)
    sizes = rng.randint(1, 7), rng.randint(1, 7)
    return (SpaceSide("attacker", 1, [ship(i) for i in range(sizes[0])]),
            SpaceSide("defender", 2, [ship(100 + i) for i in range(sizes[1])]))


def naval(dice, sides, advantage, record):
    return resolve_naval_battle(dice, *sides, max_rounds=12, advantage=advantage,
                                record_events=record)


def space(dice, sides, advantage, record):
    return resolve_space_battle(dice, *sides, max_rounds=12, start_distance_cm=30,
                                advantage=advantage, record_events=record)


def without_events(outcome):
    return replace(outcome, events=())


ENGINES = [(naval, naval_sides), (space, space_sides)]


def random_battles(make, rng_seed: int, count: int):
    """``count`` random battles of one engine: (dice seed, sides from ``make``, advantage)."""
    rng = random.Random(rng_seed)
    for seed in range(count):
        yield seed, make(rng), rng.choice((None, "attacker", "defender"))


@pytest.mark.parametrize(("fight", "make"), ENGINES, ids=["dark_force", "d6_space"])
def test_fast_path_equals_recorded_path_with_simulation_dice(fight, make):
    for seed, sides, advantage in random_battles(make, 99, 150):
        recorded_dice, quiet_dice = SimulationDice(seed), SimulationDice(seed)
        recorded = fight(recorded_dice, sides, advantage, True)
        quiet = fight(quiet_dice, sides, advantage, False)
        assert recorded.events and not quiet.events
        assert without_events(quiet) == without_events(recorded)
        assert quiet_dice.roll(4) == recorded_dice.roll(4)  # the same faces were consumed


@pytest.mark.parametrize(("fight", "make"), ENGINES, ids=["dark_force", "d6_space"])
def test_fast_path_draws_the_same_round_stream(fight, make):
    rng = random.Random(7)
    for _ in range(30):
        sides = make(rng)
        recorded_dice, quiet_dice = RoundStream(SEED, 3, 1), RoundStream(SEED, 3, 1)
        recorded = fight(recorded_dice, sides, "attacker", True)
        quiet = fight(quiet_dice, sides, "attacker", False)
        assert without_events(quiet) == without_events(recorded)
        assert [r.as_dict() for r in quiet_dice.log] == [r.as_dict() for r in recorded_dice.log]
