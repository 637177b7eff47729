"""The fleets page: own fleets in full with their forms, other fleets with public fields only
(R-FLT-7), hidden sea hazards (R-SEA-2); movement orders (R-FLT-4), standing orders (R-FLT-5)
and transport (R-FLT-8) through the services; constant queries."""

import pytest

from campaigns.models import Campaign, Round
from fleets.models import Fleet, FleetOrder, Ship
from fleets.services.orders import fleet_set_orders
from tests.factories import AreaFactory, FleetFactory, SeaHazardFactory, ShipFactory
from tests.web.queries import assert_constant_queries
from tests.worlds import FLEET_SECRETS, client_for


@pytest.fixture
def w(fleet_world):
    """The fleet world under this module's short name."""
    return fleet_world


def _url(w, rest: str = "") -> str:
    return f"/campaigns/{w.league.campaign.pk}/fleets/{rest}"


def _html(user, w, status: int = 200) -> str:
    response = client_for(user).get(_url(w))
    assert response.status_code == status
    return response.content.decode()


def _public(w) -> None:
    Campaign.objects.filter(pk=w.league.campaign.pk).update(visibility="public")


def test_status_per_role(w, outsider):
    lg = w.league
    for user in (lg.a.user, lg.b.user, lg.c.user, lg.admin):
        assert client_for(user).get(_url(w)).status_code == 200
    assert client_for(outsider).get(_url(w)).status_code == 404
    assert client_for().get(_url(w)).status_code == 302  # to the login page, as if missing
    _public(w)
    for user in (None, outsider):
        assert client_for(user).get(_url(w)).status_code == 200


@pytest.mark.parametrize("who", ["ben", "carl", "outsider", "anonymous"])
def test_r_flt_7_others_never_see_anna_s_hidden_fleet_or_the_hazard(w, outsider, who):
    _public(w)
    fleet_set_orders(player=w.league.a, fleet=w.anna_fleet, path=[w.sea.pk, w.island.pk])
    user = {"ben": w.league.b.user, "carl": w.league.c.user, "outsider": outsider,
            "anonymous": None}[who]
    html = _html(user, w)
    policy = "if_stronger"  # anna's policy; ben's own form offers it as a choice
    for secret in FLEET_SECRETS["anna"] + FLEET_SECRETS["hazard"] + FLEET_SECRETS["pirates"]:
        assert secret == policy or secret not in html, secret
    assert f'id="fleet-{w.anna_fleet.pk}"' not in html
    assert "→" not in html  # anna's movement order
    assert f'data-fleet-id="{w.anna_fleet.pk}"' in html  # the public row is there
    assert "Anna&#x27;s coast" in html or "Anna's coast" in html


def test_r_flt_7_the_owner_sees_its_fleet_and_the_admin_everything(w):
    fleet_set_orders(player=w.league.a, fleet=w.anna_fleet, path=[w.sea.pk, w.island.pk])
    anna = _html(w.league.a.user, w)
    assert "Anna&#x27;s coast → Open sea → Carl&#x27;s isle" in anna
    for secret in FLEET_SECRETS["anna"]:
        assert secret in anna, secret
    for secret in FLEET_SECRETS["ben"] + FLEET_SECRETS["hazard"]:
        assert secret not in anna, secret
    admin = _html(w.league.admin, w)
    for secret in (FLEET_SECRETS["anna"] + FLEET_SECRETS["ben"] + FLEET_SECRETS["pirates"]
                   + FLEET_SECRETS["hazard"]):
        assert secret in admin, secret


def test_r_sea_2_an_own_hazard_shows_to_its_owner_only(w):
    SeaHazardFactory(area=w.island, owner=w.league.c, name="Reef of Carl")
    assert "Reef of Carl" in _html(w.league.c.user, w)
    assert "Reef of Carl" not in _html(w.league.a.user, w)


def test_the_path_builder_offers_every_area_with_its_neighbours(w):
    html = _html(w.league.a.user, w)
    form = html.split(f'id="fleet-{w.anna_fleet.pk}"', 1)[1].split("</article>", 1)[0]
    assert f'data-start="{w.coast.pk}"' in form
    assert f'data-path-add="{w.sea.pk}" data-adjacent="{w.coast.pk} {w.orbit.pk} ' \
           f'{w.island.pk}"' in form


# --- movement orders (R-FLT-4) --------------------------------------------------------------

def test_r_flt_4_a_path_of_adjacent_areas_is_saved(w):
    client = client_for(w.league.a.user)
    prefix = f"f{w.anna_fleet.pk}-"
    response = client.post(_url(w, f"{w.anna_fleet.pk}/orders/"),
                           {prefix + "path": f"{w.sea.pk}, {w.orbit.pk}"})
    assert response.status_code == 302
    assert FleetOrder.objects.get(fleet=w.anna_fleet).path == [w.sea.pk, w.orbit.pk]
    assert "Anna&#x27;s coast → Open sea → Terra orbit" in _html(w.league.a.user, w)
    client.post(_url(w, f"{w.anna_fleet.pk}/orders/"), {prefix + "path": ""})
    assert not FleetOrder.objects.filter(fleet=w.anna_fleet).exists()


def test_r_flt_4_a_broken_path_is_explained_next_to_the_field(w):
    prefix = f"f{w.anna_fleet.pk}-"
    response = client_for(w.league.a.user).post(_url(w, f"{w.anna_fleet.pk}/orders/"),
                                                {prefix + "path": str(w.orbit.pk)})
    assert response.status_code == 400
    field = response.content.decode().split('<div class="field invalid">', 1)[1]
    field = field.split("</div>", 1)[0]
    assert f'name="{prefix}path"' in field and "is not adjacent" in field
    assert not FleetOrder.objects.exists()


def test_orders_for_another_players_fleet_are_refused(w):
    response = client_for(w.league.b.user).post(
        _url(w, f"{w.anna_fleet.pk}/orders/"), {f"f{w.anna_fleet.pk}-path": str(w.sea.pk)})
    assert response.status_code == 403
    assert not FleetOrder.objects.exists()


def test_movement_orders_only_in_declare(w):
    Round.objects.filter(pk=w.rnd.pk).update(phase=Round.Phase.LISTS)
    html = _html(w.league.a.user, w)
    assert "data-path-builder" not in html
    response = client_for(w.league.a.user).post(
        _url(w, f"{w.anna_fleet.pk}/orders/"), {f"f{w.anna_fleet.pk}-path": str(w.sea.pk)})
    assert response.status_code == 400 and "declare phase" in response.content.decode()


# --- standing orders (R-FLT-5) --------------------------------------------------------------

def _standing(w, **changes) -> dict:
    ships = list(Ship.objects.filter(fleet=w.anna_fleet).order_by("position"))
    prefix = f"s{w.anna_fleet.pk}-"
    data = {prefix + "interception": "never", prefix + "benefits": "c, a",
            prefix + "stance": "hold"}
    for position, ship in enumerate(reversed(ships), start=1):
        data[f"{prefix}line_{ship.pk}"] = position
    data.update({prefix + k: v for k, v in changes.items()})
    return data


def test_r_flt_5_standing_orders_and_the_line_are_saved(w):
    response = client_for(w.league.a.user).post(
        _url(w, f"{w.anna_fleet.pk}/standing-orders/"), _standing(w))
    assert response.status_code == 302
    fleet = Fleet.objects.get(pk=w.anna_fleet.pk)
    assert fleet.standing_orders["interception"] == "never"
    assert fleet.standing_orders["benefits"] == ["c", "a"]
    assert [s.name for s in fleet.ships.order_by("position")] == ["Escort", "Gloriana"]


def test_r_flt_5_a_wrong_benefit_is_explained_next_to_the_field(w):
    response = client_for(w.league.a.user).post(
        _url(w, f"{w.anna_fleet.pk}/standing-orders/"), _standing(w, benefits="a, z"))
    assert response.status_code == 400
    field = response.content.decode().split('<div class="field invalid">', 1)[1]
    assert "benefits" in field.split("</div>", 1)[0] and "&#x27;z&#x27; is not a benefit" in field


def test_standing_orders_of_another_players_fleet_are_refused(w):
    response = client_for(w.league.b.user).post(
        _url(w, f"{w.anna_fleet.pk}/standing-orders/"), _standing(w))
    assert response.status_code == 403


# --- transport (R-FLT-8) --------------------------------------------------------------------

def test_r_flt_8_embark_and_disembark(w):
    client = client_for(w.league.a.user)
    escort = Ship.objects.get(fleet=w.anna_fleet, name="Escort")
    response = client.post(_url(w, f"{w.anna_fleet.pk}/embark/"),
                           {"ship": escort.pk, "name": "Breacher Team", "points": 300})
    assert response.status_code == 302
    escort.refresh_from_db()
    assert escort.cargo == [{"name": "Breacher Team", "points": 300}]
    assert "Breacher Team (300)" in _html(w.league.a.user, w)
    response = client.post(_url(w, f"{w.anna_fleet.pk}/disembark/"),
                           {"ship": escort.pk, "index": 0})
    assert response.status_code == 302
    escort.refresh_from_db()
    assert escort.cargo == []


def test_r_flt_8_a_full_ship_refuses_more_cargo_next_to_the_form(w):
    escort = Ship.objects.get(fleet=w.anna_fleet, name="Escort")
    Ship.objects.filter(pk=escort.pk).update(cargo=[{"name": "Full", "points": 500}])
    response = client_for(w.league.a.user).post(
        _url(w, f"{w.anna_fleet.pk}/embark/"),
        {"ship": escort.pk, "name": "One too many", "points": 100})
    assert response.status_code == 400
    html = response.content.decode()
    assert "the ship carries 1 of its capacity of 1 detachment already (R-FLT-8)" \
        in html.split("errorlist nonfield", 1)[1]


# --- queries --------------------------------------------------------------------------------

def _grow(w) -> None:
    lg = w.league
    for owner in (lg.a, lg.b, None):
        area = AreaFactory(campaign=lg.campaign, name="New waters")
        area.adjacent.add(w.sea)
        fleet = FleetFactory(campaign=lg.campaign, owner=owner, area=area,
                             kind="regular" if owner else "pirate")
        for _ in range(3):
            ShipFactory(fleet=fleet, cargo=[{"name": "Troops", "points": 100}])
        SeaHazardFactory(area=area, owner=owner)


@pytest.mark.parametrize("who", ["owner", "other", "admin"])
def test_fleets_page_queries_stay_constant(w, who):
    user = {"owner": w.league.a.user, "other": w.league.c.user, "admin": w.league.admin}[who]
    assert_constant_queries(client_for(user), _url(w), lambda: _grow(w))
