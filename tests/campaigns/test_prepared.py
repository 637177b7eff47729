"""Issue 21: ``campaigns.prepared.execute_prepared`` prepares a statement once per connection
(PostgreSQL) and answers as the plain statement does; a rollback keeps it prepared."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign
from campaigns.prepared import execute_prepared
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db
SQL = (f"SELECT name, visibility FROM {Campaign._meta.db_table} "
       f"WHERE id = %(id)s OR name = %(name)s ORDER BY id")


def run(params: dict) -> tuple[list, list[str]]:
    with CaptureQueriesContext(connection) as queries, connection.cursor() as cursor:
        execute_prepared(cursor, "test_campaigns", SQL, params)
        rows = cursor.fetchall()
    return rows, [q["sql"].split()[0] for q in queries]


def plain(params: dict) -> list:
    with connection.cursor() as cursor:
        cursor.execute(SQL, params)
        return cursor.fetchall()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # closes the connection
def test_prepared_once_per_connection_and_kept_after_a_rollback():
    first, second = CampaignFactory(name="Erste"), CampaignFactory(name="Zweite")
    connection.close()  # a new connection has nothing prepared
    with transaction.atomic():
        rows, sent = run({"id": first.pk, "name": "nobody"})
        transaction.set_rollback(True)
    assert sent == ["PREPARE", "EXECUTE"]
    assert rows == plain({"id": first.pk, "name": "nobody"}) == [("Erste", first.visibility)]
    rows, sent = run({"id": -1, "name": "Zweite"})  # after the rollback: still prepared
    assert sent == ["EXECUTE"]
    assert rows == [("Zweite", second.visibility)]
    connection.close()
    assert run({"id": first.pk, "name": "Zweite"})[1] == ["PREPARE", "EXECUTE"]


def test_turned_off_it_runs_the_plain_statement(settings):
    settings.PREPARED_STATEMENTS = False
    campaign = CampaignFactory(name="Dritte")
    rows, sent = run({"id": campaign.pk, "name": "x"})
    assert sent == ["SELECT"] and rows == [("Dritte", campaign.visibility)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's")
def test_a_placeholder_without_a_value_is_refused():
    with pytest.raises(ValueError, match="placeholder"), connection.cursor() as cursor:
        execute_prepared(cursor, "test_missing", SQL, {"id": 1})
