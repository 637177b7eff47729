"""The seeded world (tests/api/world.py), built once per test module: its rows stay for the
module's tests, each test runs in its own savepoint (pytest-django), and the whole world is
rolled back when the module ends."""

import pytest
from django.db import transaction

from tests.api.world import World, build_world


@pytest.fixture(scope="module")
def seeded_world(django_db_setup, django_db_blocker) -> World:
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        world = build_world()
    yield world
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)
