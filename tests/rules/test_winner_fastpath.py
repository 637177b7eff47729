"""The winner-only entry points of odds previews (R-ODDS-1) fight the very battle of the full
engines: same winner, same faces consumed, for the same SimulationDice seed (R-DICE-4)."""


import pytest

from rules.dice import SimulationDice
from rules.naval import naval_battle_winner, resolve_naval_battle
from rules.space import resolve_space_battle, space_battle_winner
from tests.rules.test_engine_fastpath import naval_sides, random_battles, space_sides


@pytest.mark.parametrize(("full", "lean", "make"), [
    (resolve_naval_battle, naval_battle_winner, naval_sides),
    (resolve_space_battle, space_battle_winner, space_sides),
], ids=["dark_force", "d6_space"])
def test_winner_only_path_equals_the_full_engine(full, lean, make):
    for seed, sides, advantage in random_battles(make, 5, 120):
        full_dice, lean_dice = SimulationDice(seed), SimulationDice(seed)
        for _ in range(2):  # the second battle reuses the ships' per-ship values
            outcome = full(full_dice, *sides, max_rounds=12, advantage=advantage,
                           record_events=False)
            assert lean(lean_dice, *sides, max_rounds=12, advantage=advantage) == outcome.winner
        assert lean_dice.roll(5) == full_dice.roll(5)


def test_r_dice_4_simulation_faces_are_uniform_per_die_size():
    dice = SimulationDice(3)
    for sides in (2, 6, 8, 11):
        counts = [0] * sides
        for face in dice.roll(60_000, sides):
            counts[face - 1] += 1
        expected = 60_000 / sides
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        assert chi2 < 40, (sides, counts)
