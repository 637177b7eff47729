"""Worlds built once per test module (issue 21: the suite's time)."""

import pytest


def module_world(build):
    """A fixture of the world ``build()`` makes, built once per test module (issue 21: the
    suite's time): its rows stay for the module's tests, each test runs in its own savepoint
    (pytest-django) and sees the world as built, and the whole world is rolled back when the
    module ends. For modules whose tests change the world only in the database (never a
    transactional test, nor the world's Python objects)."""

    @pytest.fixture(scope="module")
    def world(django_db_setup, django_db_blocker):
        from django.db import transaction

        with django_db_blocker.unblock():
            outer = transaction.atomic()
            outer.__enter__()
            built = build()
        yield built
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)

    return world
