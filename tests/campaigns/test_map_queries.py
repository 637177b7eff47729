"""GET /map/ costs the same number of SQL queries for 20 tiles as for 2,000, and fewer once the
map is kept for the campaign's revision."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaigns.models import Marker, MarkerType, Planet, Tile, TileLink
from campaigns.services.campaigns import campaign_create, player_add
from fleets.models import Area, Fleet, Ship
from league.selectors.map import map_document
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def build_map(tiles: int):
    """A public campaign with ``tiles`` tiles on 4 planets, with markers, links, areas (each
    adjacent to the previous, bordering 5 tiles) and fleets with ships, all in bulk."""
    admin = UserFactory(is_staff=True)
    campaign = campaign_create(creator=admin, name=f"{tiles} tiles", visibility="public")
    players = [player_add(campaign=campaign, user=UserFactory(), faction=f"F{i}")
               for i in range(3)]
    planets = Planet.objects.bulk_create(Planet(campaign=campaign, name=f"P{i}")
                                         for i in range(4))
    made = Tile.objects.bulk_create(
        Tile(campaign=campaign, planet=planets[i % 4], q=i, r=0,
             owner=players[i % 3] if i % 4 else None, features=["mountain"] if i % 5 else [])
        for i in range(tiles))
    marker_type = MarkerType.objects.get(campaign=campaign, code="manufactorum")
    Marker.objects.bulk_create(Marker(campaign=campaign, tile=tile, type=marker_type)
                               for tile in made[::7])
    TileLink.objects.bulk_create(TileLink(campaign=campaign, a=made[i], b=made[i + 1])
                                 for i in range(0, tiles - 1, 10))
    areas = Area.objects.bulk_create(Area(campaign=campaign, name=f"A{i}", kind="coastal")
                                     for i in range(tiles // 10))
    Adjacent, Borders = Area.adjacent.through, Area.borders_tiles.through
    Adjacent.objects.bulk_create(
        Adjacent(from_area=a, to_area=b) for x, y in zip(areas, areas[1:], strict=False)
        for a, b in ((x, y), (y, x)))
    Borders.objects.bulk_create(Borders(area=area, tile=made[i * 10 + k])
                                for i, area in enumerate(areas) for k in range(5))
    fleets = Fleet.objects.bulk_create(Fleet(campaign=campaign, area=area, owner=players[0],
                                             name="F") for area in areas[::2])
    Ship.objects.bulk_create(Ship(fleet=fleet, name=f"S{n}") for fleet in fleets
                             for n in range(3))
    return campaign


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as queries:
        fn()
    return len(queries)


def test_map_selector_query_count_is_constant_in_the_map_size():
    small, large = build_map(20), build_map(2_000)
    small_doc = []
    large_doc = []
    small_queries = _count(lambda: small_doc.append(map_document(small)))
    large_queries = _count(lambda: large_doc.append(map_document(large)))
    assert sum(len(p["tiles"]) for p in large_doc[0]["planets"]) == 2_000
    assert len(large_doc[0]["fleets"]) == 100 and large_doc[0]["fleets"][0]["ship_count"] == 3
    assert len(small_doc[0]["areas"]) == 2
    assert small_queries == large_queries <= 8


def test_map_endpoint_query_count_is_constant_in_the_map_size():
    small, large = build_map(20), build_map(2_000)
    client = APIClient()

    def get(campaign):
        response = client.get(f"/api/v1/campaigns/{campaign.pk}/map/")
        assert response.status_code == 200

    cold = _count(lambda: get(small)), _count(lambda: get(large))
    warm = _count(lambda: get(small)), _count(lambda: get(large))
    assert cold[0] == cold[1] and warm[0] == warm[1]
    assert warm[0] < cold[0]  # kept per revision, no map rows read


def test_map_endpoint_is_the_document_as_the_api_renders_it():
    """The kept bytes are what DRF's JSON renderer makes of the document, and the
    browsable and indented answers still come from the document itself."""
    from rest_framework.renderers import JSONRenderer

    campaign = build_map(30)
    client = APIClient()
    url = f"/api/v1/campaigns/{campaign.pk}/map/"
    client.get(url)
    response = client.get(url)
    assert response["Content-Type"] == "application/json"
    assert response.content == JSONRenderer().render(map_document(campaign))
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=2")
    assert indented.content.decode().startswith('{\n  "planets"')
    assert indented.json() == response.json()
    browsable = client.get(url, HTTP_ACCEPT="text/html")
    assert browsable.status_code == 200 and b"&quot;planets&quot;" in browsable.content
