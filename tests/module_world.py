"""Worlds built once per test module (the suite's time)."""

import sys

import pytest


class OpenWorld:
    """The world ``build()`` makes, in a transaction of its own that stays open until
    ``close`` rolls it back. Tests run inside it, each in its own savepoint (pytest-django)."""

    def __init__(self, blocker, build):
        from django.db import transaction

        self.blocker = blocker
        with blocker.unblock():
            self.outer = transaction.atomic()
            self.outer.__enter__()
            try:
                self.world = build()
            except BaseException:
                self.outer.__exit__(*sys.exc_info())  # rolls back what was built
                raise

    def close(self) -> None:
        from django.db import transaction

        with self.blocker.unblock():
            transaction.set_rollback(True)
            self.outer.__exit__(None, None, None)


def module_world(build):
    """A fixture of the world ``build()`` makes, built once per test module (the
    suite's time): its rows stay for the module's tests, each test runs in its own savepoint
    (pytest-django) and sees the world as built, and the whole world is rolled back when the
    module ends. For modules whose tests change the world only in the database (never a
    transactional test, nor the world's Python objects); ``tests/shared_worlds.py`` for the
    others."""

    @pytest.fixture(scope="module")
    def world(django_db_setup, django_db_blocker):
        opened = OpenWorld(django_db_blocker, build)
        yield opened.world
        opened.close()

    return world
