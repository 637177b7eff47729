"""The map page: one SVG hex map per planet, the click-a-tile legality check (htmx), declaring,
buying attack armies and withdrawing a declaration."""

import re

from campaigns.models import Attack, Round
from tests.factories import MarkerFactory, MarkerTypeFactory
from tests.web.rule_text import unlinked
from tests.worlds import build_page_world, buy, client_for, declare

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_one_svg_per_planet_and_one_shape_per_tile(page_world):
    html = client_for(page_world.lg.c.user).get(page_world.url("map/")).content.decode()
    assert html.count('<svg class="hexmap"') == 2
    shapes = re.findall(r'<polygon class="tile[^"]*"[^>]*data-tile-id="(\d+)"', html)
    assert sorted(map(int, shapes)) == sorted(t.pk for t in page_world.tiles.values())
    home = page_world.tiles["b-home"]
    shape = re.search(rf'<polygon[^>]*data-tile-id="{home.pk}"[^>]*>', html, re.S).group(0)
    # the owner's colour, pattern and label (web.presenters.hexmap.owner_defs)
    assert 'class="tile defence"' in shape and f'fill="url(#owner-{page_world.lg.b.pk})"' in shape
    assert re.search(rf'<pattern id="owner-{page_world.lg.b.pk}"[^>]*><rect [^>]*'
                     rf'fill="{page_world.lg.b.colour}"/>', html)
    assert 'href="#icon-macropole"' in html and 'href="#icon-mountain"' in html
    assert 'tabindex="0"' in shape and 'role="button"' in shape
    assert "Legend" in html and "Deep Ocean" in html


def test_r_mrk_1_each_marker_type_has_its_own_icon_on_the_tile_and_in_the_legend(page_world):
    campaign, tiles = page_world.campaign, page_world.tiles
    kinds = {"manufactorum": "Manufactorum", "shield_generator": "Shield generator",
             "relic": "Relic"}
    for (code, name), where in zip(kinds.items(), ("a-home", "a-edge", "b-edge"), strict=True):
        kind = MarkerTypeFactory(campaign=campaign, code=code, name=name)
        MarkerFactory(tile=tiles[where], type=kind)
    html = client_for(page_world.lg.c.user).get(page_world.url("map/")).content.decode()
    for where, icon in (("a-home", "manufactorum"), ("a-edge", "shield"), ("b-edge", "marker")):
        tile = tiles[where]
        drawn = html.split(f'data-tile-id="{tile.pk}"', 1)[1].split("<polygon", 1)[0]
        assert f'href="#icon-{icon}"' in drawn, where
        assert f'<symbol id="icon-{icon}"' in html
    legend = html.split('id="legend-title"', 1)[1]
    for icon, name in (("manufactorum", "Manufactorum"), ("shield", "Shield generator"),
                       ("marker", "Relic")):
        assert re.search(rf'data-marker-icon="{icon}".*?#icon-{icon}.*?{name}', legend, re.S)


def test_clicking_a_tile_without_an_army_names_the_broken_rule(page_world):
    url = page_world.url(f"map/tiles/{page_world.tiles['free'].pk}/")
    response = client_for(page_world.lg.a.user).get(url, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'data-rule="R-ATK-1"' in html and "no attack army left" in html
    assert "Declare attack" not in html


def test_clicking_a_legal_tile_offers_to_declare(page_world):
    buy(page_world.lg.a, page_world.rnd, 1)
    html = client_for(page_world.lg.a.user).get(
        page_world.url(f"map/tiles/{page_world.tiles['free'].pk}/"), **HTMX).content.decode()
    assert "You may attack this tile" in html and "Declare attack" in html


def test_clicking_a_tile_out_of_reach_names_r_atk_2(page_world):
    buy(page_world.lg.c, page_world.rnd, 1)
    html = client_for(page_world.lg.c.user).get(
        page_world.url(f"map/tiles/{page_world.tiles['free'].pk}/"), **HTMX).content.decode()
    assert 'data-rule="R-ATK-2"' in html and "no fleet in its orbit" in html


def test_tile_panel_without_htmx_is_the_map_showing_it(page_world):
    tile = page_world.tiles["free"]
    client = client_for(page_world.lg.a.user)
    response = client.get(page_world.url(f"map/tiles/{tile.pk}/"))
    assert response.status_code == 302 and f"?tile={tile.pk}" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert f'data-selected-tile="{tile.pk}"' in page and "<html" in page


def test_a_tile_of_another_campaign_is_404(page_world, db):
    other = build_page_world()
    url = page_world.url(f"map/tiles/{other.tiles['free'].pk}/")
    assert client_for(page_world.lg.a.user).get(url, **HTMX).status_code == 404


def test_declare_then_withdraw(page_world):
    buy(page_world.lg.a, page_world.rnd, 1)
    client = client_for(page_world.lg.a.user)
    response = client.post(page_world.url("map/declare/"), {"tile": page_world.tiles["free"].pk})
    assert response.status_code == 302
    attack = Attack.objects.get(player=page_world.lg.a)
    assert attack.tile == page_world.tiles["free"] and attack.source == "adjacent"
    page = client.get(response["Location"]).content.decode()
    assert "Attack declared on Alpha (2, 0)." in page
    client.post(page_world.url(f"map/attacks/{attack.pk}/withdraw/"), {"confirm": "yes"})
    attack.refresh_from_db()
    assert attack.status == Attack.Status.WITHDRAWN


def test_an_illegal_declaration_is_refused_with_its_rule(page_world):
    client = client_for(page_world.lg.a.user)
    response = client.post(page_world.url("map/declare/"), {"tile": page_world.tiles["free"].pk},
                           follow=True)
    assert not Attack.objects.exists()
    html = unlinked(response.content.decode())
    assert "Refused: An attack needs an unused attack army" in html
    assert "(R-ATK-1: no attack army left" in html


def test_another_players_declaration_can_not_be_withdrawn(page_world):
    attack = declare(page_world.lg.b, page_world.rnd, page_world.tiles["free"])
    response = client_for(page_world.lg.a.user).post(
        page_world.url(f"map/attacks/{attack.pk}/withdraw/"), {"confirm": "yes"})
    assert response.status_code == 404
    attack.refresh_from_db()
    assert attack.status == Attack.Status.ACTIVE


def test_purchase_spends_requisition(page_world):
    client = client_for(page_world.lg.a.user)
    response = client.post(page_world.url("map/purchase/"), {"attack_armies": 3})
    assert response.status_code == 302
    page_world.lg.a.refresh_from_db()
    assert page_world.lg.a.requisition == 7
    assert "Bought 3 attack armies" in client.get(response["Location"]).content.decode()


def test_purchase_errors_sit_next_to_the_field(page_world):
    client = client_for(page_world.lg.a.user)
    too_many = client.post(page_world.url("map/purchase/"), {"attack_armies": 11})
    html = unlinked(too_many.content.decode())
    assert too_many.status_code == 400
    assert re.search(r'id="id_attack_armies_error"><li>Attack armies cost requisition[^<]*'
                     r'\(R-ECO-1: 11 attack armies cost 11', html)
    assert 'aria-invalid="true"' in html
    nonsense = client.post(page_world.url("map/purchase/"), {"attack_armies": "many"})
    assert nonsense.status_code == 400
    assert 'id="id_attack_armies_error"' in nonsense.content.decode()
    page_world.lg.a.refresh_from_db()
    assert page_world.lg.a.requisition == 10


def test_outside_declare_the_map_offers_no_purchase_or_declaration(page_world):
    Round.objects.filter(pk=page_world.rnd.pk).update(phase=Round.Phase.LISTS)
    client = client_for(page_world.lg.a.user)
    html = client.get(page_world.url("map/")).content.decode()
    assert f'action="{page_world.url("map/purchase/")}"' not in html
    panel = client.get(page_world.url(f"map/tiles/{page_world.tiles['free'].pk}/"), **HTMX)
    assert "declare phase" in panel.content.decode()
    refused = client.post(page_world.url("map/declare/"), {"tile": page_world.tiles["free"].pk},
                          follow=True)
    assert "Refused" in refused.content.decode() and not Attack.objects.exists()


def test_own_orbit_fleet_is_drawn_on_the_ring(page_world):
    html = client_for(page_world.lg.a.user).get(page_world.url("map/")).content.decode()
    assert re.search(r'<circle class="fleet own"[^>]*data-fleet-id=', html)
