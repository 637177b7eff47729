"""A transactional test's cleanup on PostgreSQL (``tests/conftest.py``) deletes every
row a test wrote and keeps what the migrations wrote."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test import TransactionTestCase

from tests.conftest import KEPT_TABLES, _delete_every_row
from tests.worlds import duel, make_league


@pytest.mark.django_db(transaction=True)
def test_the_cleanup_deletes_every_row_but_the_migrations():
    if connection.vendor != "postgresql":
        pytest.skip("Django's own flush runs elsewhere")
    duel(make_league())  # rows in many tables, bound by foreign keys
    kept = ContentType.objects.count(), Permission.objects.count()
    tables = set(connection.introspection.django_table_names(only_existing=True)) - KEPT_TABLES
    quote = connection.ops.quote_name

    def filled() -> list[str]:
        with connection.cursor() as cursor:
            return [t for t in sorted(tables)
                    if cursor.execute(f"SELECT 1 FROM {quote(t)} LIMIT 1").fetchone()]

    assert len(filled()) > 10
    _delete_every_row(TransactionTestCase())
    assert filled() == []
    assert (ContentType.objects.count(), Permission.objects.count()) == kept > (0, 0)
