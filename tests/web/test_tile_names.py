"""Tile names (the organiser names tiles in the map editor): a named tile is called by
its name and planet everywhere a person reads about it - battle page and list, declarations,
conquest page, news feed, calendar, API - and an unnamed tile by its planet and coordinates
(``campaigns.labels``, the one definition)."""

from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.utils import timezone
from icalendar import Calendar

from battles.models import Battle
from battles.services.campaign_events import result_confirmed_emit
from battles.services.feeds import calendar_token_of
from campaigns.labels import place_label
from campaigns.models import Tile
from tests.worlds import advance_to, api, battle_url, client_for, declare

NAMED, UNNAMED = "Grauer Pass (Alpha)", "Alpha (3, 0)"
T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def _text(response) -> str:
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.fixture
def two_battles(page_world):
    """Ben attacks anna's edge tile, named "Grauer Pass"; anna attacks ben's unnamed edge tile
    (Alpha (3, 0)) through her spaceport (R-ATK-2). Both battles dated, in lists."""
    world = page_world
    Tile.objects.filter(pk=world.tiles["a-edge"].pk).update(name="Grauer Pass")
    named = declare(world.lg.b, world.rnd, world.tiles["a-edge"])
    unnamed = declare(world.lg.a, world.rnd, world.tiles["b-edge"])
    advance_to(world.rnd, "lists")
    Battle.objects.update(scheduled_at=timezone.now() + timedelta(days=2))
    return (world, Battle.objects.get(attack=named), Battle.objects.get(attack=unnamed))


def test_place_label_names_a_named_tile_by_name_and_an_unnamed_one_by_coordinates():
    assert place_label(planet="Nordmark Prime", q=0, r=1, name="Grauer Pass") == \
        "Grauer Pass (Nordmark Prime)"
    assert place_label(planet="Nordmark Prime", q=0, r=1) == "Nordmark Prime (0, 1)"


def test_battle_pages_and_list_call_a_named_tile_by_its_name(two_battles):
    world, named, unnamed = two_battles
    client = client_for(world.lg.c.user)
    assert f"{NAMED}: Orks" in _text(client.get(battle_url(world, named)))
    assert "Alpha (1, 0)" not in _text(client.get(battle_url(world, named)))
    assert f"{UNNAMED}: Mechanicus" in _text(client.get(battle_url(world, unnamed)))
    listing = _text(client.get(world.url("battles/")))
    assert f"{NAMED}: Orks" in listing and f"{UNNAMED}: Mechanicus" in listing
    assert "Alpha (1, 0)" not in listing


def test_declarations_list_names_the_tiles(two_battles):
    world, _named, _unnamed = two_battles
    html = _text(client_for(world.lg.c.user).get(world.url("map/")))
    assert f"Orks on {NAMED}" in html and f"Mechanicus on {UNNAMED}" in html


def test_the_api_battle_has_the_tiles_display_name(two_battles):
    world, named, unnamed = two_battles
    client = api(world.lg.c.user)
    detail = client.get(world.lg.url(f"battles/{named.pk}/")).json()
    assert detail["tile"] == named.tile_id and detail["tile_name"] == NAMED
    rows = client.get(world.lg.url("battles/")).json()
    rows = rows.get("results", rows) if isinstance(rows, dict) else rows
    assert {row["id"]: row["tile_name"] for row in rows} == {named.pk: NAMED,
                                                               unnamed.pk: UNNAMED}


def test_the_calendar_feed_names_the_tiles(two_battles):
    world, _named, _unnamed = two_battles
    feed = Calendar.from_ical(api(world.lg.c.user).get(world.lg.url("calendar.ics")).content)
    summaries = sorted(str(event["SUMMARY"]) for event in feed.walk("VEVENT")
                       if str(event["UID"]).startswith("battle-"))
    assert summaries == [f"Battle: anna vs ben ({UNNAMED})",
                         f"Battle: ben vs anna ({NAMED})"]


def test_the_news_feed_and_webhook_facts_name_the_tiles(two_battles):
    world, named, unnamed = two_battles
    for change, battle in enumerate((named, unnamed), start=1):
        Battle.objects.filter(pk=battle.pk).update(outcome="victory", attacker_vp=3,
                                                   defender_vp=1)
        battle.refresh_from_db()
        result_confirmed_emit(battle=battle, change_id=change, now=T0)
    facts = named.campaign.events.get(key=f"result:{named.pk}:1").facts["battle"]
    assert (facts["tile"], facts["tile_name"]) == ("Alpha (1, 0)", NAMED)
    token = calendar_token_of(user=world.lg.a.user, now=T0).token
    feed = _text(client_for().get(world.url(f"feed.atom?token={token}")))
    assert f"{NAMED}: " in feed and f"{UNNAMED}: " in feed and "Alpha (1, 0)" not in feed


def test_the_conquest_page_names_the_tiles(page_world):
    world = page_world
    Tile.objects.filter(pk=world.tiles["far"].pk).update(name="Ödland")
    declare(world.lg.a, world.rnd, world.tiles["free"], armies=2)
    declare(world.lg.a, world.rnd, world.tiles["far"], armies=0)
    advance_to(world.rnd, "conquest")
    html = _text(client_for(world.lg.a.user).get(world.url("conquest/")))
    assert "Ödland (Alpha)" in html and "Alpha (2, 0)" in html
    assert "Alpha (0, 3)" not in html
