"""The rounds list keeps its finished rows in memory (api/round_list.py). Rounds send
no revision bump: the list must still answer as each round's detail does after every change of
the latest round (R-RND-2) and after a new round opens."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import Round
from tests.factories import RoundFactory
from tests.worlds import api, build_page_world

pytestmark = pytest.mark.django_db
NOW = timezone.now()


@pytest.fixture
def world():
    return build_page_world()


def _listed(client, world) -> list[dict]:
    return client.get(world.lg.url("rounds/")).json()["results"]


def _details(client, world, rows) -> list[dict]:
    return [client.get(world.lg.url(f"rounds/{row['number']}/")).json() for row in rows]


WRITES = {  # QuerySet.update: no signal, no revision bump
    "phase": {"phase": Round.Phase.LISTS, "phase_started_at": NOW,
              "phase_deadline": NOW + timedelta(hours=24)},
    "deadline": {"phase_deadline": NOW + timedelta(hours=48)},
    "attention": {"attention_at": NOW},
    "paused": {"phase_deadline": None, "deadline_left": timedelta(hours=5)},
    "closed": {"phase": Round.Phase.CLOSED, "closed_at": NOW, "seed_revealed": True},
}


@pytest.mark.parametrize("write", WRITES)
def test_the_cached_rounds_list_follows_the_latest_round(world, write):
    client = api(world.lg.b.user)
    before = _listed(client, world)
    Round.objects.filter(pk=world.rnd.pk).update(**WRITES[write])
    after = _listed(client, world)
    assert after == _details(client, world, after) and after != before


def test_the_cached_rounds_list_shows_a_new_round(world):
    client = api(world.lg.b.user)
    assert [row["number"] for row in _listed(client, world)] == [1]
    Round.objects.filter(pk=world.rnd.pk).update(phase=Round.Phase.CLOSED, closed_at=NOW)
    RoundFactory(campaign=world.campaign, number=2)
    after = _listed(client, world)
    assert [row["number"] for row in after] == [1, 2] and after == _details(client, world, after)
