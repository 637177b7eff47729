"""The page and fleet worlds, built once for the tests of a module that read them (
about 340 tests read one, and building it costs more than most of them).

A module's tests run as usual, each in its own savepoint (pytest-django), so what a test writes
ends with it; each gets a deep copy of the world's objects, so what it changes in them ends too.
The world's rows must not be seen by a test that did not ask for them, so within a module the
tests that read a world run first (``order``), and the world is rolled back before the first
test that does not read it (``close_unread``, before that test's fixtures). A module with a
transactional test builds the world in each test, as before: such a test commits, and would see
(or wipe) the module's open transaction."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.module_world import OpenWorld

WORLDS = ("page_world", "public_page_world", "fleet_world")  # their readers run in this order
READS = pytest.StashKey[frozenset]()  # the shared worlds a test reads
_TRANSACTIONAL: set[Path] = set()  # the modules that build their worlds per test
_OPEN: list[_Open] = []  # the open worlds, innermost last


class _Open(OpenWorld):
    """A shared world, open on the stack ``_OPEN``."""

    def __init__(self, name: str, blocker, build):
        super().__init__(blocker, build)
        self.name = name

    def close(self) -> None:
        """Roll back this world and every world opened after it (atomic blocks nest)."""
        while self in _OPEN:
            OpenWorld.close(_OPEN.pop())


def _transactional(item) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool({"transactional_db", "live_server"} & set(item.fixturenames)
                or (marker and marker.kwargs.get("transaction")))


def order(items: list) -> None:
    """Note what each test reads and, within each module, run the readers of each world
    first (a stable sort: every xdist worker collects the same order)."""
    _TRANSACTIONAL.clear()
    _TRANSACTIONAL.update(item.path for item in items
                          if hasattr(item, "fixturenames") and _transactional(item))
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        shared = item.path not in _TRANSACTIONAL
        item.stash[READS] = frozenset(n for n in WORLDS if n in names) if shared else frozenset()

    def group(item) -> int:
        reads = item.stash[READS]
        return next((i for i, name in enumerate(WORLDS) if name in reads), len(WORLDS))
    runs: list[list] = []  # consecutive tests of one module
    for item in items:
        if runs and runs[-1][0].path == item.path:
            runs[-1].append(item)
        else:
            runs.append([item])
    items[:] = [item for run in runs for item in sorted(run, key=group)]  # stable


def close_unread(item) -> None:
    """Before a test's fixtures: roll back the open worlds it does not read."""
    reads = item.stash.get(READS, frozenset())
    for opened in list(_OPEN):
        if opened.name not in reads:
            opened.close()


def shared_world(name: str, build):
    """The module-scoped fixture behind the world fixture ``name``: the open world, or None
    where this module's tests build their own."""

    @pytest.fixture(scope="module")
    def fixture(request, django_db_setup, django_db_blocker):
        if Path(request.module.__file__) in _TRANSACTIONAL:
            yield None
            return
        opened = _Open(name, django_db_blocker, build)
        _OPEN.append(opened)
        yield opened
        opened.close()

    return fixture


def own_copy(opened: _Open | None):
    """A test's own deep copy of the open world, or None when it must build its own (its
    module builds per test, or the world was rolled back for a test that did not read it)."""
    return copy.deepcopy(opened.world) if opened is not None and opened in _OPEN else None
