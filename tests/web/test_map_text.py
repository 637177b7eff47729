"""The map as text (R-MAP-1, R-MAP-3 read without sight): tables of tiles and areas built from
the same map document and labels as the drawing, reachable from the map page, showing only
what the reader may see (R-FLT-7, R-SEA-2, R-SEC-2), in a fixed number of queries."""

import re
from html import unescape

import pytest

from campaigns.models import Tile, TileLink
from fleets.models import Fleet
from tests.factories import FleetFactory, MarkerFactory, MarkerTypeFactory, ShipFactory
from tests.web.queries import assert_constant_queries
from tests.web.test_map_view import HAZARD, theatre  # noqa: F401 (a fixture)
from tests.worlds import (
    SECRET_CARGO,
    SECRET_ORDER,
    SECRET_SHIP,
    advance_to,
    client_for,
    declare,
    row,
)
from web.presenters.hexmap import owner_labels

pytestmark = pytest.mark.django_db


def _text(world, user, language: str = "en") -> str:
    response = client_for(user).get(world.url("map/text/"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return unescape(response.content.decode())


def _row(html: str, tile: Tile) -> str:
    return html.split(f'<tr data-tile-id="{tile.pk}">', 1)[1].split("</tr>", 1)[0]


def test_the_map_page_links_to_the_map_as_text(page_world):
    html = client_for(page_world.lg.c.user).get(page_world.url("map/")).content.decode()
    assert f'href="{page_world.url("map/text/")}" data-map-text-link>Map as text</a>' in html


def test_r_map_1_each_tile_has_its_owner_terrain_markers_and_neighbours(page_world):
    tiles, lg = page_world.tiles, page_world.lg
    Tile.objects.filter(pk=tiles["free"].pk).update(name="Grauer Pass")
    kind = MarkerTypeFactory(campaign=page_world.campaign, code="shield_generator",
                             name="Shield generator")
    MarkerFactory(tile=tiles["b-home"], type=kind)
    TileLink.objects.create(campaign=page_world.campaign, a=tiles["a-edge"], b=tiles["free"])
    html = _text(page_world, lg.c.user)
    assert html.count("<tr data-tile-id=") == len(tiles)
    home = _row(html, tiles["b-home"])
    label = owner_labels({p.pk: p for p in lg.players})[lg.b.pk]
    assert "(4, 0)" in home and f">{label}</abbr> {lg.b.faction}" in home
    assert "Macropole" in home and "Defence line" in home and "Shield generator" in home
    assert "Grauer Pass" in _row(html, tiles["a-edge"])  # its neighbour, by name
    assert "(1, 0)" in _row(html, tiles["free"])  # an unnamed neighbour by coordinates
    assert "neutral" in _row(html, tiles["far"])


def test_r_sec_2_pending_attacks_only_as_the_declarations_list_shows_them(page_world):
    lg, tiles = page_world.lg, page_world.tiles
    declare(lg.a, page_world.rnd, tiles["free"])
    declare(lg.b, page_world.rnd, tiles["a-edge"])
    anna = _text(page_world, lg.a.user)
    assert lg.a.faction in _row(anna, tiles["free"])
    assert lg.b.faction not in _row(anna, tiles["a-edge"])  # ben's, during declare
    assert lg.b.faction in _row(_text(page_world, lg.admin), tiles["a-edge"])
    advance_to(page_world.rnd, "lists")
    assert lg.b.faction in _row(_text(page_world, lg.a.user), tiles["a-edge"])


def test_r_flt_7_areas_list_fleets_by_public_facts_and_only_own_names(theatre):  # noqa: F811
    ben = theatre.fleets["ben"]
    ShipFactory(fleet=ben, name="Sentinel Ship Name")
    html = _text(theatre, theatre.lg.a.user)
    ocean = html.split(f'<tr data-area-id="{theatre.areas["ocean"].pk}">', 1)[1].split("</tr>")[0]
    assert theatre.lg.b.faction in ocean and "2 ships" in ocean
    assert "Orbit" in html and "Far Reach" in ocean  # kind and neighbours
    for secret in (ben.name, "Sentinel Ship Name", SECRET_SHIP, SECRET_CARGO, SECRET_ORDER,
                   HAZARD):
        assert secret not in html, secret
    assert f"your fleet {theatre.fleets['anna'].name}" in html
    assert f"your fleet {ben.name}" in _text(theatre, theatre.lg.b.user)


def test_the_map_as_text_in_german(page_world):
    """Needs the compiled catalogue with this page's strings."""
    html = _text(page_world, page_world.lg.c.user, "de")
    assert "<h1>Karte als Text</h1>" in html and "neutral" in html


def test_map_text_queries_stay_constant_as_the_map_grows(page_world):
    lg = page_world.lg
    declare(lg.a, page_world.rnd, page_world.tiles["free"])

    def grow():
        gamma = lg.planet("Gamma")
        tiles = row(gamma, lg.d, range(8)) + row(gamma, None, range(8), r=1)
        for tile in tiles[:4]:
            MarkerFactory(tile=tile)
        TileLink.objects.create(campaign=page_world.campaign, a=tiles[0], b=tiles[1])
        FleetFactory(area=Fleet.objects.first().area, owner=lg.c)
        declare(lg.d, page_world.rnd, tiles[-1])

    for user in (lg.a.user, lg.admin):
        assert_constant_queries(client_for(user), page_world.url("map/text/"), grow)
    assert re.search(r"<tr data-tile-id=", _text(page_world, lg.a.user))
