"""The map at league scale: the map page and the API map keep what only changes with
the map under the campaign's revision (``campaigns/cache.py``), so a warm page or API map
reads no map rows, yet shows a conquest or a fleet move at once; the kept drawing is public,
and each reader's own fleets, orders and selection are laid over it per request (R-FLT-7,
R-FLT-4); the declarations list keeps its text, its withdraw forms and R-SEC-2."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import cache
from campaigns.models import Attack, Round, Tile
from fleets.models import Area
from fleets.services.fleets import fleet_update
from tests.web.queries import assert_constant_queries
from tests.web.test_map_view import HAZARD, theatre  # noqa: F401 (a fixture)
from tests.worlds import (
    SECRET_ORDER,
    SECRET_SHIP,
    advance_to,
    api,
    client_for,
    declare,
    row,
    sure_conquest,
)

pytestmark = pytest.mark.django_db
MAP_TABLES = ('"campaigns_tile"', '"campaigns_tilelink"', '"campaigns_planet"',
              '"campaigns_marker"', '"fleets_area"')


def _map_rows_read(client, url: str) -> list[str]:
    """The queries of one GET that read the map's own rows: tiles, links, planets, markers,
    areas, and the fleets with their ship counts."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries
            if any(f"FROM {t}" in q["sql"] for t in MAP_TABLES) or 'COUNT("fleets_ship' in q["sql"]]


def _tile_shape(html: str, tile: Tile) -> str:
    return re.search(rf'<polygon[^>]*data-tile-id="{tile.pk}"[^>]*>', html).group(0)


def test_a_warm_map_page_and_api_map_read_no_map_rows(page_world):
    page, client = page_world.url("map/"), client_for(page_world.lg.c.user)
    api_url, reader = f"/api/v1{page_world.url('map/')}", api(page_world.lg.c.user)
    for reads in ((client, page), (reader, api_url)):
        cache.clear()
        assert _map_rows_read(*reads)  # cold
        assert _map_rows_read(*reads) == []  # warm
    assert _map_rows_read(client, page) == [] and _map_rows_read(reader, api_url) == []


def test_a_conquest_and_a_fleet_move_show_at_once(page_world):
    """Revision-cached in this process: the next request after the write draws it."""
    lg, free = page_world.lg, page_world.tiles["free"]
    client, reader = client_for(lg.c.user), api(lg.c.user)
    page, api_url = page_world.url("map/"), f"/api/v1{page_world.url('map/')}"

    def seen() -> tuple[str, dict]:
        return client.get(page).content.decode(), reader.get(api_url).json()

    attack = declare(lg.a, page_world.rnd, free)
    html, document = seen()
    assert 'fill="#d8d8d0"' in _tile_shape(html, free)  # neutral, and now kept
    advance_to(page_world.rnd, Round.Phase.CONQUEST)
    sure_conquest(page_world.rnd, attack)
    seen()  # kept again for this revision
    advance_to(page_world.rnd, Round.Phase.CLOSED)  # the conquest roll gives anna the tile
    html, document = seen()
    assert f'fill="url(#owner-{lg.a.pk})"' in _tile_shape(html, free)  # anna's colour
    assert f"{lg.a.faction}" in _tile_shape(html, free)
    tiles = {t["id"]: t for p in document["planets"] for t in p["tiles"]}
    assert tiles[free.pk]["owner"] == lg.a.pk

    armada = page_world.lg.b.fleets.get()
    reach = Area.objects.create(campaign=page_world.campaign, name="Far Reach")
    html, document = seen()
    fleet_update(fleet=armada, area=reach, actor=lg.admin)
    html, document = seen()
    node = html.split(f'id="chart-area-{reach.pk}"', 1)[1].split('<g class="area-node', 1)[0]
    assert f'data-fleet-id="{armada.pk}"' in node
    assert {"id": armada.pk, "area": reach.pk}.items() <= next(
        f for f in document["fleets"] if f["id"] == armada.pk).items()


def test_the_kept_drawing_holds_nobody_s_fleets_orders_or_selection(theatre):  # noqa: F811
    """The admin and ben fill the cache first (ben's fleet in full, his order, a selected tile
    and area); anna's and carl's next pages show none of it (R-FLT-7, R-FLT-4, R-SEA-2)."""
    lg, anna_fleet, ben_fleet = theatre.lg, theatre.fleets["anna"], theatre.fleets["ben"]
    ben_fleet.name = "Sentinel Fleet Name"
    ben_fleet.save()
    tile, area = theatre.tiles["b-home"], theatre.areas["reach"]
    for user in (lg.admin, lg.b.user):
        html = client_for(user).get(theatre.url(f"map/?tile={tile.pk}&area={area.pk}"))
        assert "Sentinel Fleet Name" in html.content.decode()
    for user, orders in ((lg.a.user, [anna_fleet.pk]), (lg.c.user, [])):
        html = client_for(user).get(theatre.url("map/")).content.decode()
        for secret in ("Sentinel Fleet Name", SECRET_SHIP, SECRET_ORDER, HAZARD):
            assert secret not in html, secret
        assert 'aria-pressed="true"' not in html and f'id="tile-{tile.pk}"' not in html
        assert not re.search(r'class="(card area|area-node [^"]*) selected"', html)
        chart = html.split('<svg class="theatre"', 1)[1].split("</svg>", 1)[0]
        drawn = re.findall(r'<path class="order"[^>]*data-fleet-id="(\d+)"', chart)
        assert [int(pk) for pk in drawn] == orders
        assert 'class="fleet-token own"' not in _node_of(chart, theatre.areas["ocean"])


def _node_of(chart: str, area: Area) -> str:
    return chart.split(f'id="chart-area-{area.pk}"', 1)[1].split('<g class="area-node', 1)[0]


def test_each_language_gets_its_own_drawing(page_world):
    client = client_for(page_world.lg.c.user)
    english = client.get(page_world.url("map/"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(page_world.url("map/"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Map of Alpha" in english and "Karte von Alpha" in german
    assert "Map of Alpha" not in german


def test_declarations_keep_their_text_forms_and_visibility(page_world):
    """One line per visible declaration, labels translated; a withdraw form only on the
    reader's own active ones during declare (R-ATK-5); the others' only after declare
    (R-SEC-2)."""
    lg = page_world.lg
    own = declare(lg.a, page_world.rnd, page_world.tiles["free"])
    other = declare(lg.b, page_world.rnd, page_world.tiles["a-edge"])
    anna = client_for(lg.a.user)
    html = anna.get(page_world.url("map/")).content.decode()
    items = re.findall(r'<li data-attack-id="(\d+)">(.*?)</li>', html, re.S)
    assert [int(pk) for pk, _ in items] == [own.pk]
    text = items[0][1]
    assert "#1 Mechanicus on Alpha (2, 0) — adjacent to your territory, active" in text
    assert f'action="{page_world.url(f"map/attacks/{own.pk}/withdraw/")}"' in text
    assert 'name="csrfmiddlewaretoken"' in text
    german = anna.get(page_world.url("map/"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "#1 Mechanicus auf Alpha (2, 0)" in german and "Zurückziehen" in german
    advance_to(page_world.rnd, Round.Phase.LISTS)
    html = anna.get(page_world.url("map/")).content.decode()
    items = re.findall(r'<li data-attack-id="(\d+)">(.*?)</li>', html, re.S)
    assert [int(pk) for pk, _ in items] == [own.pk, other.pk]
    assert "withdraw" not in html.split('<ol class="declarations">', 1)[1].split("</ol>")[0]
    assert Attack.objects.filter(status=Attack.Status.ACTIVE).count() == 2


@pytest.mark.parametrize("role", ["admin", "player"])
def test_map_page_queries_stay_constant_as_declarations_grow(page_world, role):
    """Cold and warm (``assert_constant_queries``): one query for the list however long."""
    lg = page_world.lg
    declare(lg.a, page_world.rnd, page_world.tiles["free"])
    user = lg.admin if role == "admin" else lg.a.user

    def grow():
        declare(lg.b, page_world.rnd, page_world.tiles["a-edge"])
        spare = row(page_world.beta, None, [3])
        declare(lg.c, page_world.rnd, spare[0])

    assert_constant_queries(client_for(user), page_world.url("map/"), grow)
    assert Attack.objects.count() == 3
