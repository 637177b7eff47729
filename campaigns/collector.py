"""Python's cyclic garbage collector, paused for a burst of work.

The fleets job and the phase transitions around it build hundreds of thousands of objects
(event logs, dice records, rows) that live until the work stores them and then die together.
With the collector running, each collection of the generation holding them walks them all,
and a full collection walks the whole process besides: at league size that cost more than the
naval engine. They hold no reference cycles, so reference counting frees them as usual; a
cycle made meanwhile waits for the collector's next run."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off (nested: the outermost turns it back on).
    Let the block's big objects die inside it, so that the collector never sees them."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
