"""The round's dice: a provably fair stream whose draws are stored in the dice log (R-DICE-2/3).

Use only while holding the round's row lock (the counter must not be shared)."""

from collections.abc import Iterator
from contextlib import contextmanager

from campaigns.bulk import insert_rows
from campaigns.models import DiceRoll, Round
from rules.dice import RoundStream


class LoggedStream(RoundStream):
    """A round stream that remembers which object each draw belongs to."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.current_object = ""
        self.objects: dict[int, str] = {}

    def draw(self, purpose: str, sides: int = 6):
        self.objects[self.next_counter] = self.current_object
        return super().draw(purpose, sides)


@contextmanager
def round_dice(rnd: Round) -> Iterator[LoggedStream]:
    """Yield the round's stream continuing its counter; on exit store every draw made."""
    stream = LoggedStream(bytes(rnd.server_seed), rnd.campaign_id, rnd.number,
                          start=rnd.next_counter)
    yield stream
    if not stream.log:
        return
    insert_rows(DiceRoll, [  # COPY on PostgreSQL (issue 21)
        DiceRoll(round=rnd, counter=rec.counter, purpose=rec.purpose, sides=rec.sides,
                 faces=list(rec.faces), object=stream.objects.get(rec.counter, ""))
        for rec in stream.log
    ])
    rnd.next_counter = stream.next_counter
    Round.objects.filter(pk=rnd.pk).update(next_counter=rnd.next_counter)
