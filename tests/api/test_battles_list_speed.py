"""The battles list keeps its finished rows in memory (api/battle_list.py). It must
still answer as each battle's detail does after every write to what it shows, also writes that
do not bump the campaign's revision (proposals, lists, history, rolls, the round), and after a
lists deadline passes with no write at all (R-ARM-3)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import ConquestRoll, ResultChange, ScheduleProposal
from campaigns.models import Round
from tests.worlds import api, build_page_world, hand_in, page_duel

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = build_page_world()
    world.battle = page_duel(world, "battles")
    return world


def _listed(client, world) -> dict:
    rows = client.get(world.lg.url("battles/?page_size=500")).json()["results"]
    return {row["id"]: row for row in rows}


def _propose(world):
    ScheduleProposal.objects.create(battle=world.battle, proposed_by=world.lg.b,
                                    proposed_at=timezone.now() + timedelta(days=2),
                                    place="Club", created_at=timezone.now())


def _hand_in(world):
    hand_in(world.battle, world.lg.a, "Skitarii")


def _history(world):
    ResultChange.objects.create(battle=world.battle, old=None,
                                new={"outcome": "draw", "attacker_vp": 1, "defender_vp": 1,
                                     "status": "confirmed"})


def _roll(world):
    battle = world.battle
    ConquestRoll.objects.create(
        round=battle.round, attack=battle.attack, battle=battle, tile=battle.tile,
        player=world.lg.b, dice=[4, 3], modifiers=[], total=7, threshold=7,
        threshold_rule="R-CON-1", k=None, success=True, immediate=True, counter=1)


@pytest.mark.parametrize("write", [_propose, _hand_in, _history, _roll])
def test_the_cached_battles_list_follows_writes_the_revision_misses(world, write):
    client = api(world.lg.c.user)
    before = _listed(client, world)
    write(world)
    after = _listed(client, world)
    detail = client.get(world.lg.url(f"battles/{world.battle.pk}/")).json()
    assert after[world.battle.pk] == detail != before[world.battle.pk]


@pytest.fixture
def lists_world():
    world = build_page_world()
    world.battle = page_duel(world, "lists")
    return world


def test_the_cached_battles_list_follows_the_round(lists_world):
    """R-ARM-3: the admin moving the lists deadline into the past (a round write, no revision
    bump) reveals the lists."""
    world, client = lists_world, api(lists_world.lg.c.user)
    assert _listed(client, world)[world.battle.pk]["lists_revealed"] is False
    Round.objects.filter(pk=world.rnd.pk).update(  # no signal, no revision bump
        phase_deadline=timezone.now() - timedelta(minutes=1))
    assert _listed(client, world)[world.battle.pk]["lists_revealed"] is True


def test_the_cached_battles_list_reveals_lists_at_the_deadline(lists_world,
                                                                        monkeypatch):
    """R-ARM-3: the lists phase's deadline passing reveals the lists with no write."""
    world, client = lists_world, api(lists_world.lg.c.user)
    deadline = Round.objects.get(pk=world.rnd.pk).phase_deadline
    assert _listed(client, world)[world.battle.pk]["lists_revealed"] is False
    later = deadline + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert _listed(client, world)[world.battle.pk]["lists_revealed"] is True


def test_the_battles_list_filters_and_pages_its_cached_rows(world):
    """Filters and pages answer as before: round, either side, status, page links."""
    client, url = api(world.lg.c.user), world.lg.url
    everything = client.get(url("battles/")).json()
    assert everything["count"] == 1 and everything["next"] is None
    assert client.get(url(f"battles/?player={world.lg.a.pk}")).json()["count"] == 1
    assert client.get(url(f"battles/?player={world.lg.c.pk}")).json()["count"] == 0
    assert client.get(url("battles/?round=2")).json()["count"] == 0
    status = everything["results"][0]["status"]
    assert client.get(url(f"battles/?status={status}")).json()["count"] == 1
    assert client.get(url("battles/?page=2")).status_code == 404
    assert client.get(url("battles/?round=x")).status_code == 400
