"""``campaigns.prepared.run_prepared`` prepares each statement once per connection
(PostgreSQL), sends them in one round trip and answers as the plain statements do; a rollback
keeps them prepared."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign
from campaigns.prepared import run_prepared
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db
BY_ID = f"SELECT name FROM {Campaign._meta.db_table} WHERE id = %(id)s"
BY_NAME = (f"SELECT id, visibility FROM {Campaign._meta.db_table} "
           f"WHERE name = %(name)s OR name = %(other)s ORDER BY id")


def run(campaign_id: int, names: tuple[str, str]) -> tuple[list, list[str]]:
    statements = (("test_by_id", BY_ID, {"id": campaign_id}),
                  ("test_by_name", BY_NAME, {"name": names[0], "other": names[1]}))
    with CaptureQueriesContext(connection) as queries:
        results = run_prepared(*statements)
    return results, [q["sql"] for q in queries]


def plain(sql: str, params: dict) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # closes the connection
def test_prepared_once_per_connection_sent_together_and_kept_after_a_rollback():
    first, second = CampaignFactory(name="Erste"), CampaignFactory(name="Zweite")
    connection.close()  # a new connection has nothing prepared
    with transaction.atomic():
        results, sent = run(first.pk, ("Zweite", "nobody"))
        transaction.set_rollback(True)
    assert [q.split()[0] for q in sent] == ["PREPARE", "PREPARE", "EXECUTE"]
    assert sent[-1].count("EXECUTE") == 2  # both in one round trip
    assert results == [plain(BY_ID, {"id": first.pk}),
                       plain(BY_NAME, {"name": "Zweite", "other": "nobody"})]
    assert results == [[("Erste",)], [(second.pk, second.visibility)]]
    results, sent = run(second.pk, ("Erste", "Zweite"))  # after the rollback: still prepared
    assert len(sent) == 1 and sent[0].startswith("EXECUTE")
    assert results == [[("Zweite",)], [(first.pk, first.visibility),
                                      (second.pk, second.visibility)]]
    connection.close()
    assert [q.split()[0] for q in run(first.pk, ("a", "b"))[1]] == ["PREPARE", "PREPARE",
                                                                     "EXECUTE"]


def test_turned_off_it_runs_the_plain_statements_one_by_one(settings):
    settings.PREPARED_STATEMENTS = False
    campaign = CampaignFactory(name="Dritte")
    results, sent = run(campaign.pk, ("Dritte", "x"))
    assert [q.split()[0] for q in sent] == ["SELECT", "SELECT"]
    assert results == [[("Dritte",)], [(campaign.pk, campaign.visibility)]]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's")
def test_a_placeholder_without_a_value_is_refused():
    with pytest.raises(ValueError, match="placeholder"):
        run_prepared(("test_missing", BY_NAME, {"name": "x"}))
