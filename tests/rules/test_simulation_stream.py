"""The odds preview under 1 s (R-ODDS-1): with ``SimulationDice`` both engines read the
faces straight from the dice's face streams (``rules.dice.simulation_faces``) instead of
calling ``roll``/``faces``/``wild_total``/``one_face``/``count_at_most``. They must fight exactly
the battles the ordinary calls fight: the same outcome and the same faces consumed, with and
without events."""


import pytest

from rules.dice import SimulationDice, simulation_faces
from tests.rules.test_engine_fastpath import ENGINES, random_battles, without_events


class CalledDice(SimulationDice):
    """The same faces, but every roll goes through the ``Dice`` methods (a subclass that
    overrides them is never read directly)."""

    def roll(self, n, sides=6, purpose="roll"):
        return super().roll(n, sides, purpose)

    def faces(self, n, sides, purpose):
        return super().faces(n, sides, purpose)

    def wild_total(self, n, pips=0, purpose="d6"):
        return super().wild_total(n, pips, purpose)

    def one_face(self, sides, purpose):
        return super().one_face(sides, purpose)

    def count_at_most(self, n, sides, limit, purpose):
        return super().count_at_most(n, sides, limit, purpose)


def test_only_plain_simulation_dice_are_read_directly():
    assert simulation_faces(SimulationDice(1)) is not None
    assert simulation_faces(SimulationDice(1), 8) is not None
    assert simulation_faces(CalledDice(1)) is None


@pytest.mark.parametrize("record", [False, True], ids=["quiet", "recorded"])
@pytest.mark.parametrize(("fight", "make"), ENGINES, ids=["dark_force", "d6_space"])
def test_r_odds_1_direct_stream_fights_the_same_battles(fight, make, record):
    for seed, sides, advantage in random_battles(make, 21, 150):
        direct, called = SimulationDice(seed), CalledDice(seed)
        fast = fight(direct, sides, advantage, record)
        slow = fight(called, sides, advantage, record)
        assert without_events(fast) == without_events(slow)
        assert fast.events == slow.events
        assert direct.roll(6) == called.roll(6)  # the same faces were consumed
        assert direct.roll(4, 8) == called.roll(4, 8)
