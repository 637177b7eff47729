"""The round's dice: a provably fair stream whose draws are stored in the dice log (R-DICE-2/3).

Use only while holding the round's row lock (the counter must not be shared)."""

from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager

from campaigns.bulk import insert_values
from campaigns.models import DiceRoll, Round
from rules.dice import RoundStream


class LoggedStream(RoundStream):
    """A round stream that remembers which object each draw belongs to: setting
    ``current_object`` names the object of the draws that follow."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._firsts: list[int] = []  # the counter from which each object was current
        self._objects: list[str] = []

    @property
    def current_object(self) -> str:
        return self._objects[-1] if self._objects else ""

    @current_object.setter
    def current_object(self, text: str) -> None:
        if self._firsts and self._firsts[-1] == self.next_counter:
            self._objects[-1] = text  # no draw under the previous one
        else:
            self._firsts.append(self.next_counter)
            self._objects.append(text)

    def object_of(self, counter: int) -> str:
        """The object that was current when draw ``counter`` was made."""
        index = bisect_right(self._firsts, counter)
        return self._objects[index - 1] if index else ""


@contextmanager
def round_dice(rnd: Round) -> Iterator[LoggedStream]:
    """Yield the round's stream continuing its counter; on exit store every draw made."""
    stream = LoggedStream(bytes(rnd.server_seed), rnd.campaign_id, rnd.number,
                          start=rnd.next_counter)
    yield stream
    if not stream.log:
        return
    insert_values(  # COPY on PostgreSQL, no model instances
        DiceRoll, ["round_id", "counter", "purpose", "sides", "faces", "object"],
        [(rnd.pk, rec.counter, rec.purpose, rec.sides, rec.faces, stream.object_of(rec.counter))
         for rec in stream.log])
    rnd.next_counter = stream.next_counter
    Round.objects.filter(pk=rnd.pk).update(next_counter=rnd.next_counter)
