"""The map view draws the whole theatre. The chart of sea and space areas with
their links and the fleets in them (R-MAP-3; public facts only, a player's own fleets in full,
R-FLT-7), the player's own movement orders as arrows during ``declare`` (R-FLT-4), tile names,
zoom controls, and links to the map from the battle, conquest and naval battle pages."""

import gzip
import re

import pytest

from battles.models import Battle
from campaigns.models import Round, RoundMap
from campaigns.revision import bump
from fleets.models import Area, Fleet
from fleets.services.orders import fleet_set_standing_orders
from fleets.services.ships import ship_update
from tests.factories import (
    AreaFactory,
    FleetFactory,
    FleetOrderFactory,
    SeaHazardFactory,
    ShipFactory,
)
from tests.web.queries import assert_constant_queries
from tests.worlds import advance_to, client_for, declare, row, transport
from web.presenters.hexmap import MapState, draw_map

HAZARD = "Kraken Sentinel of the Deep"


@pytest.fixture
def theatre(page_world):
    """The page world with linked areas: Beta's orbit (anna's transport) - Deep Ocean (ben's
    Armada Obscura) - Far Reach (a hidden hazard); anna and ben have movement orders."""
    world = page_world
    orbit = Area.objects.get(campaign=world.campaign, kind="orbit")
    ocean = Area.objects.get(campaign=world.campaign, name="Deep Ocean")
    reach = AreaFactory(campaign=world.campaign, name="Far Reach")
    orbit.adjacent.add(ocean)
    ocean.adjacent.add(reach)
    SeaHazardFactory(area=reach, name=HAZARD)
    anna_fleet = Fleet.objects.get(owner=world.lg.a)
    ben_fleet = Fleet.objects.get(owner=world.lg.b)
    FleetOrderFactory(round=world.rnd, fleet=anna_fleet, path=[ocean.pk, reach.pk])
    FleetOrderFactory(round=world.rnd, fleet=ben_fleet, path=[reach.pk])
    world.areas = {"orbit": orbit, "ocean": ocean, "reach": reach}
    world.fleets = {"anna": anna_fleet, "ben": ben_fleet}
    return world


def _map(world, user, rest: str = "") -> str:
    response = client_for(user).get(world.url(f"map/{rest}"))
    assert response.status_code == 200
    return response.content.decode()


def _chart(html: str) -> str:
    return html.split('<svg class="theatre"', 1)[1].split("</svg>", 1)[0]


def _node(html: str, area: Area) -> str:
    return _chart(html).split(f'id="chart-area-{area.pk}"', 1)[1].split('<g class="area-node',
                                                                         1)[0]


def test_r_map_3_every_area_is_drawn_with_its_links(theatre):
    html = _map(theatre, theatre.lg.c.user)
    chart = _chart(html)
    for area in Area.objects.filter(campaign=theatre.campaign):
        assert f'id="chart-area-{area.pk}"' in chart and area.name in chart
    assert chart.count('<line class="link"') + chart.count('<path class="link"') == 2
    assert chart.count('<line class="tether"') == 1  # the orbit hangs on Beta
    assert f'href="#planet-{theatre.beta.pk}"' in chart
    area = theatre.areas["ocean"]
    assert f'href="{theatre.url("map/")}?area={area.pk}#area-{area.pk}"' in chart


def test_r_flt_7_others_fleets_show_owner_colour_and_ship_count_only(theatre):
    html = _map(theatre, theatre.lg.a.user)
    token = _node(html, theatre.areas["ocean"])
    ben = theatre.lg.b
    assert f'fill="{ben.colour}"' in token and f"{ben.faction}: 1 ship" in token
    assert 'class="fleet-token own"' not in token and "Armada Obscura" not in html


def test_r_flt_7_own_fleets_show_their_name_and_ships(theatre):
    html = _map(theatre, theatre.lg.a.user)
    fleet = theatre.fleets["anna"]
    token = _node(html, theatre.areas["orbit"])
    assert f'class="fleet-token own" data-fleet-id="{fleet.pk}"' in token
    assert f"<title>{fleet.name}: 1 ship</title>" in token
    card = html.split(f'id="area-{theatre.areas["orbit"].pk}"', 1)[1].split("</li>\n", 1)[0]
    assert 'class="fleet-full"' in card  # the ships' table of anna's own fleet


def test_r_flt_4_own_orders_are_arrows_during_declare_only(theatre):
    anna, ben = theatre.fleets["anna"], theatre.fleets["ben"]
    html = _map(theatre, theatre.lg.a.user)
    chart = _chart(html)
    assert chart.count('<path class="order"') == 1
    arrow = re.search(rf'<path class="order" d="([^"]+)"[^>]*data-fleet-id="{anna.pk}"'
                      r"><title>([^<]+)</title>", chart)
    assert arrow and len(re.findall("[LQ]", arrow.group(1))) == 2  # orbit, ocean, reach
    assert "Deep Ocean → Far Reach" in arrow.group(2)
    assert f'data-fleet-id="{ben.pk}"' not in chart.split('<path class="order"', 1)[1]
    ben_html = _chart(_map(theatre, theatre.lg.b.user))
    assert '<path class="order" d=' in ben_html
    assert f'data-fleet-id="{anna.pk}"><title>' not in ben_html
    for viewer in (theatre.lg.c.user, theatre.lg.admin):
        assert 'class="order"' not in _chart(_map(theatre, viewer))
    Round.objects.filter(pk=theatre.rnd.pk).update(phase=Round.Phase.LISTS)
    assert 'class="order"' not in _chart(_map(theatre, theatre.lg.a.user))


def test_hidden_information_never_reaches_another_player(theatre):
    """R-FLT-7, R-SEA-2: a sentinel in every hidden field of ben's fleet and of the hazard."""
    ben = theatre.fleets["ben"]
    ben.name = "Sentinel Fleet Name"
    ben.save()
    ShipFactory(fleet=ben, name="Sentinel Ship Name", cargo=[{"name": "Sentinel Cargo",
                                                             "points": 500}])
    for viewer in (theatre.lg.a.user, theatre.lg.c.user):
        html = _map(theatre, viewer)
        for secret in ("Sentinel Fleet Name", "Sentinel Ship Name", "Sentinel Cargo", HAZARD,
                       "ambush-at-dawn"):
            assert secret not in html, secret
        assert "2 ships" in _node(html, theatre.areas["ocean"])  # the public count


def test_own_fleets_are_kept_per_reader_and_redrawn_after_a_change(theatre):
    """The full fleets a reader may see are kept between requests under whom they
    are for: another player never gets them (R-FLT-7), and a change to the fleet or its ships
    shows at once."""
    anna, ben = theatre.fleets["anna"], theatre.fleets["ben"]
    assert anna.name in _map(theatre, theatre.lg.a.user)  # anna's are now kept
    ben_html = _map(theatre, theatre.lg.b.user)
    assert ben.name in ben_html and anna.name not in ben_html
    assert anna.name not in _map(theatre, theatre.lg.c.user)
    admin_html = _map(theatre, theatre.lg.admin)
    assert anna.name in admin_html and ben.name in admin_html
    assert f"{ben.name}</strong>" not in _map(theatre, theatre.lg.a.user)

    fleet_set_standing_orders(fleet=anna, changes={"stance": "withdraw"})
    assert "stance: withdraw" in _map(theatre, theatre.lg.a.user)
    ship_update(ship=anna.ships.first(), name="Renamed Barge")
    assert "Renamed Barge" in _map(theatre, theatre.lg.a.user)
    assert "Renamed Barge" in _map(theatre, theatre.lg.admin)
    assert "Renamed Barge" not in _map(theatre, theatre.lg.b.user)


def test_tiles_show_their_names_or_coordinates(page_world):
    named = page_world.tiles["free"]
    named.name = "Hive <Primus>"
    named.save()
    html = _map(page_world, page_world.lg.c.user)
    drawn = html.split(f'data-tile-id="{named.pk}"', 1)
    assert 'aria-label="Hive &lt;Primus&gt; — Alpha (2, 0): neutral"' in drawn[1][:200]
    # the whole name, wrapped to fit the hex (web.presenters.hex_text)
    assert re.search(r'<text class="tile-name" font-size="[\d.]+"><tspan x="0" y="[-\d.]+">Hive'
                     r'</tspan><tspan x="0" y="[-\d.]+">&lt;Primus&gt;</tspan></text>',
                     drawn[1][:600])
    far = page_world.tiles["far"]
    after = html.split(f'data-tile-id="{far.pk}"', 1)[1].split("</g>", 1)[0]
    assert '<text class="tile-name" y="2">0,3</text>' in after


def test_a_selected_tile_is_pressed_and_anchored(page_world):
    tile = page_world.tiles["b-home"]
    html = _map(page_world, page_world.lg.a.user, f"?tile={tile.pk}")
    shape = re.search(rf'<polygon[^>]*data-tile-id="{tile.pk}"[^>]*>', html).group(0)
    assert f'id="tile-{tile.pk}"' in shape and 'aria-pressed="true"' in shape
    assert html.count('aria-pressed="true"') == 1
    assert f'data-selected-tile="{tile.pk}"' in html  # the tile panel shows it


def test_a_selected_area_is_marked_on_the_chart_and_in_the_list(theatre):
    area = theatre.areas["reach"]
    html = _map(theatre, theatre.lg.a.user, f"?area={area.pk}")
    assert f'class="area-node area-ocean selected" id="chart-area-{area.pk}"' in html
    assert f'<li class="card area selected" id="area-{area.pk}"' in html


def test_zoom_controls_and_their_script_are_on_the_page(theatre):
    html = _map(theatre, theatre.lg.a.user)
    assert html.count("data-zoom>") == 3  # two planets and the chart
    assert html.count("data-zoom-in") == 3 and "data-zoom-reset" in html
    assert re.search(r'<script src="/static/mapzoom[^"]*\.js" defer>', html)
    assert "<style" not in html and " style=" not in html  # CSP: no inline styles
    assert f'data-tile-url="{theatre.url("map/tiles/")}"' in html


def test_the_map_is_compressed_on_the_wire(theatre):
    """Pages go out gzip-compressed to browsers that accept it, the API too
    (web/compression.py)."""
    client = client_for(theatre.lg.a.user)
    page = client.get(theatre.url("map/"), HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    assert gzip.decompress(page.content).decode().count('<svg class="hexmap"') == 2
    api = client.get(f"/api/v1/campaigns/{theatre.campaign.pk}/map/",
                     HTTP_ACCEPT_ENCODING="gzip")
    assert api.status_code == 200 and api["Content-Encoding"] == "gzip"


def test_a_past_state_is_drawn_from_a_snapshot(page_world):
    """Map history: the presenter draws the map state it is given (RoundMap's shape)."""
    from web.views.map import map_inputs

    document, players, names = map_inputs(page_world.campaign)
    free, b_home = page_world.tiles["free"], page_world.tiles["b-home"]
    ocean = Area.objects.get(name="Deep Ocean")
    state = MapState.from_snapshot(
        {str(free.pk): {"owner": page_world.lg.c.pk, "markers": ["manufactorum"]},
         str(b_home.pk): {"owner": None, "markers": []}},
        [{"area": ocean.pk, "owner": page_world.lg.d.pk, "ships": 4}])
    drawn = draw_map(document, players=players, marker_names=names, map_url="/m/", state=state,
                     interactive=False)
    alpha = drawn["planets"][0]["svg"]
    shape = alpha.split(f'data-tile-id="{free.pk}"', 1)[0].rsplit("<polygon", 1)[1]
    assert f'fill="url(#owner-{page_world.lg.c.pk})"' in shape  # carl's colour and pattern
    assert 'href="#icon-manufactorum"' in alpha.split(f'data-tile-id="{free.pk}"', 1)[1][:400]
    home = alpha.split(f'data-tile-id="{b_home.pk}"', 1)[0].rsplit("<polygon", 1)[1]
    assert 'fill="#d8d8d0"' in home
    chart = drawn["theatre"]["svg"]
    assert f'fill="{page_world.lg.d.colour}"' in chart and ">4</text>" in chart
    assert "data-fleet-id" not in chart and drawn["tile_url"] == ""
    assert not RoundMap.objects.exists()  # drawn without touching the database's snapshots


def _grow_theatre(world):
    """More tiles, areas, fleets with ships and orders."""
    lg = world.lg
    gamma = lg.planet("Gamma")
    row(gamma, lg.d, range(8))
    row(gamma, None, range(8), r=1)
    areas = [AreaFactory(campaign=world.campaign, name=f"Sea {i}") for i in range(4)]
    for first, second in zip(areas, areas[1:], strict=False):
        first.adjacent.add(second)
    for index, area in enumerate(areas):
        fleet = FleetFactory(area=area, owner=(lg.a, lg.b, lg.c, None)[index])
        ShipFactory(fleet=fleet)
        if index < 3:
            FleetOrderFactory(round=world.rnd, fleet=fleet, path=[areas[index + 1].pk])
    transport(gamma, lg.a, (500, 1000))
    world.tiles["free"] = declare(lg.a, world.rnd, row(gamma, None, [9])[0]).tile


@pytest.mark.parametrize("role", ["player", "admin", "outsider"])
def test_map_queries_stay_constant_as_the_theatre_grows(theatre, role, outsider):
    theatre.campaign.visibility = "public"
    theatre.campaign.save()
    user = {"player": theatre.lg.a.user, "admin": theatre.lg.admin, "outsider": outsider}[role]
    assert_constant_queries(client_for(user), theatre.url("map/"),
                            lambda: _grow_theatre(theatre))


def test_the_battle_page_and_card_link_to_the_tile_on_the_map(page_world):
    attack = declare(page_world.lg.b, page_world.rnd, page_world.tiles["a-edge"])
    advance_to(page_world.rnd, "lists")
    battle = Battle.objects.get(attack=attack)
    link = (f'href="{page_world.url("map/")}?tile={battle.tile_id}#tile-{battle.tile_id}"')
    client = client_for(page_world.lg.a.user)
    assert link in client.get(page_world.url(f"battles/{battle.pk}/")).content.decode()
    assert link in client.get(page_world.url("battles/")).content.decode()
    html = client.get(page_world.url(f"map/?tile={battle.tile_id}")).content.decode()
    assert f'id="tile-{battle.tile_id}"' in html


def test_the_conquest_page_links_to_the_tile_on_the_map(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=2)
    advance_to(page_world.rnd, "conquest")
    html = client_for(page_world.lg.a.user).get(page_world.url("conquest/")).content.decode()
    tile = page_world.tiles["free"]
    assert f'href="{page_world.url("map/")}?tile={tile.pk}#tile-{tile.pk}"' in html


def test_the_naval_battle_page_links_to_the_area_on_the_map(resolved_fleet_phase):
    from fleets.models import NavalBattle

    sc = resolved_fleet_phase
    battle = NavalBattle.objects.filter(round=sc.rnd).first()
    base = f"/campaigns/{sc.league.campaign.pk}/"
    html = client_for(sc.league.a.user).get(f"{base}naval-battles/{battle.pk}/").content.decode()
    assert f'href="{base}map/?area={battle.area_id}#area-{battle.area_id}"' in html
    page = client_for(sc.league.a.user).get(f"{base}map/?area={battle.area_id}").content.decode()
    assert f'id="area-{battle.area_id}"' in page and "area-node" in page


def test_r_map_3_a_long_area_name_is_whole_on_two_lines_under_its_disc(theatre):
    Area.objects.filter(pk=theatre.areas["reach"].pk).update(name="Hive Tempestora shore")
    bump(theatre.campaign.pk)  # the chart is cached until the campaign changes
    node = _node(_map(theatre, theatre.lg.a.user), theatre.areas["reach"])
    assert ">Hive Tempestora</tspan>" in node and ">shore</tspan>" in node
    assert "…" not in node
