"""A throwaway database for a benchmark: created and migrated beside ``DATABASE_URL``'s (as
Django's test runner does), dropped afterwards."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def throwaway_database() -> Iterator[None]:
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
