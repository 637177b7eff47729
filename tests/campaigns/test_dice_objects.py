"""R-DICE-3: every logged draw names the object it belongs to - the one current when it was
drawn (the labels are kept as ranges of counters instead of one entry per draw)."""

import pytest

from campaigns.models import DiceRoll
from campaigns.services.dice import round_dice
from tests.worlds import make_league

pytestmark = pytest.mark.django_db


def test_r_dice_3_each_draw_is_stored_with_its_object():
    rnd = make_league().start()
    with round_dice(rnd) as dice:
        dice.roll(2)
        dice.current_object = "skipped"  # nothing drawn under it
        dice.current_object = "fleet=1"
        dice.roll(1)
        dice.roll(3)
        dice.current_object = "naval-battle:area=2:seq=1"
        faces = dice.draw("boarding", 6)
        next(faces), next(faces)
        dice.current_object = "fleet=1"
        dice.roll(1)
        assert dice.current_object == "fleet=1"
    rows = DiceRoll.objects.filter(round=rnd).order_by("counter")
    assert [(r.counter, r.object, len(r.faces)) for r in rows] == [
        (0, "", 2), (1, "fleet=1", 1), (2, "fleet=1", 3), (3, "naval-battle:area=2:seq=1", 2),
        (4, "fleet=1", 1)]
    rnd.refresh_from_db()
    assert rnd.next_counter == 5
