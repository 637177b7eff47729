"""The budget of the slow tests: the API's schema fuzzing, the bad-input fuzzing, the property
tests and the browser flows (``make test`` on a developer's machine under 240 s).

The guide allows slow fuzzing and browser tests a smaller budget locally than in CI, as long
as they run in both. CI (``CI`` set) and ``TEST_BUDGET=full`` run every test on its whole
input. ``make test`` elsewhere runs the same tests on a share of it: a quarter of the
generated examples (at least a few), a fixed share of the systematic cases, each browser
flow at one of its two widths, and the compiled engines' rerun of the rules suite alone
(without the fleets suite and the odds API) with their previews on a work budget. A hash of
each case picks it, so every run picks the same ones and each share is spread over all
operations, pages and widths."""

import os
import zlib

FULL = bool(os.environ.get("CI")) or os.environ.get("TEST_BUDGET") == "full"
LOCAL_SHARE = 4


def examples(full: int, *, least: int = 10) -> int:
    """``full`` examples in CI; locally a quarter of them, at least ``least``."""
    return full if FULL else min(full, max(least, full // LOCAL_SHARE))


def picked(key: str, one_in: int) -> bool:
    """Whether the case named ``key`` runs: always in CI; locally one case in ``one_in``."""
    return FULL or zlib.crc32(key.encode()) % one_in == 0


def one_of(key: str, options: list) -> list:
    """Every option in CI; locally the one that the hash of ``key`` picks."""
    return options if FULL else [options[zlib.crc32(key.encode()) % len(options)]]
