"""Building the map one object at a time (R-MAP-1..3, R-MRK-4, R-SEC-2): planets, tiles,
links, areas, markers; every reference must belong to the campaign of the URL."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from campaigns.models import Attack, Marker, Planet, Round, Tile, TileLink
from campaigns.services.campaigns import campaign_create, campaign_update, player_add
from fleets.models import Area
from tests.budget import examples
from tests.factories import (
    AreaFactory,
    FleetFactory,
    MarkerFactory,
    PlanetFactory,
    TileFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


class League:
    """A campaign with its admin, a player, a planet and a client for the admin."""

    def __init__(self, name="League"):
        self.admin = UserFactory(is_staff=True)
        self.campaign = campaign_create(creator=self.admin, name=name)
        self.player = player_add(campaign=self.campaign, user=UserFactory(), faction="Orks")
        self.planet = PlanetFactory(campaign=self.campaign)
        self.client = api(self.admin)

    def url(self, plural, pk=None):
        base = f"/api/v1/campaigns/{self.campaign.pk}/{plural}/"
        return base if pk is None else f"{base}{pk}/"

    def post(self, plural, body):
        return self.client.post(self.url(plural), body, format="json")

    def patch(self, plural, pk, body):
        return self.client.patch(self.url(plural, pk), body, format="json")

    def tile(self, q=0, r=0, **kwargs):
        return TileFactory(planet=self.planet, q=q, r=r, **kwargs)


@pytest.fixture
def league():
    return League()


@pytest.fixture
def other():
    return League("Other league")


def _errors(response) -> dict:
    assert response.status_code == 400, response.content
    return response.json()["errors"]


# --- planets ---

def test_planet_create_update_delete(league):
    response = league.post("planets", {"name": "Armageddon"})
    assert response.status_code == 201
    pk = response.json()["id"]
    assert response.json() == {"id": pk, "name": "Armageddon"}
    assert league.patch("planets", pk, {"name": "Armageddon Prime"}).json()["name"] == \
        "Armageddon Prime"
    assert league.client.get(league.url("planets", pk)).json()["name"] == "Armageddon Prime"
    assert league.client.delete(league.url("planets", pk)).status_code == 204
    assert not Planet.objects.filter(pk=pk).exists()


def test_planet_name_is_required(league):
    assert "name" in _errors(league.post("planets", {"name": "  "}))
    assert "name" in _errors(league.post("planets", {}))


# --- tiles ---

def test_r_map_2_tile_with_owner_and_features(league):
    response = league.post("tiles", {"planet": league.planet.pk, "q": 2, "r": -1,
                                     "owner": league.player.pk,
                                     "features": ["defence", "mountain"]})
    assert response.status_code == 201
    body = response.json()
    assert body == {"id": body["id"], "planet": league.planet.pk, "q": 2, "r": -1, "name": "",
                    "owner": league.player.pk, "features": ["mountain", "defence"]}
    response = league.patch("tiles", body["id"], {"owner": None, "features": []})
    assert response.json()["owner"] is None and response.json()["features"] == []


def test_r_map_1_a_hex_is_taken_once_per_planet(league):
    league.tile(q=1, r=1)
    assert "q" in _errors(league.post("tiles", {"planet": league.planet.pk, "q": 1, "r": 1}))
    other_planet = PlanetFactory(campaign=league.campaign)
    assert league.post("tiles", {"planet": other_planet.pk, "q": 1, "r": 1}).status_code == 201
    moved = league.tile(q=5, r=5)
    assert "q" in _errors(league.patch("tiles", moved.pk, {"q": 1, "r": 1}))


@pytest.mark.parametrize(("features", "path"), [
    (["mountain", "lava"], "features[1]"),
    (["spaceport", "spaceport"], "features[1]"),
    ([7], "features[0]"),
    ("mountain", "features"),
])
def test_bad_features_name_the_item(league, features, path):
    errors = _errors(league.post("tiles", {"planet": league.planet.pk, "q": 0, "r": 0,
                                           "features": features}))
    assert list(errors) == [path]


@pytest.mark.parametrize(("body", "field"), [
    ({"q": 0, "r": 0}, "planet"),
    ({"planet": "x", "q": 0, "r": 0}, "planet"),
    ({"planet": None, "q": 0, "r": 0}, "planet"),
    ({"planet": 10**30, "q": 0, "r": 0}, "planet"),
    ({"planet": "P", "q": 10**20, "r": 0}, "q"),
    ({"planet": "P", "q": "a", "r": 0}, "q"),
    ({"planet": "P", "q": 0}, "r"),
    ({"planet": "P", "q": 0, "r": 0, "owner": 10**30}, "owner"),
    ({"planet": "P", "q": 0, "r": 0, "owner": True}, "owner"),
])
def test_bad_tile_input_is_400(league, body, field):
    if body.get("planet") == "P":
        body["planet"] = league.planet.pk
    assert field in _errors(league.post("tiles", body))


def test_cross_campaign_references_are_rejected(league, other):
    foreign_tile = other.tile()
    assert "planet" in _errors(league.post("tiles", {"planet": other.planet.pk, "q": 0, "r": 0}))
    assert "owner" in _errors(league.post("tiles", {"planet": league.planet.pk, "q": 0, "r": 0,
                                                    "owner": other.player.pk}))
    mine = league.tile()
    assert "b" in _errors(league.post("links", {"a": mine.pk, "b": foreign_tile.pk}))
    assert "tile" in _errors(league.post("markers", {"tile": foreign_tile.pk,
                                                     "type": "manufactorum"}))
    foreign_area = AreaFactory(campaign=other.campaign)
    assert "adjacent" in _errors(league.post("areas", {"name": "A", "kind": "ocean",
                                                       "adjacent": [foreign_area.pk]}))
    assert "borders_tiles" in _errors(league.post("areas", {
        "name": "A", "kind": "coastal", "borders_tiles": [mine.pk, foreign_tile.pk]}))
    assert "planet" in _errors(league.post("areas", {"name": "O", "kind": "orbit",
                                                     "planet": other.planet.pk}))
    assert "owner" in _errors(league.post("areas", {"name": "I", "kind": "island",
                                                    "owner": other.player.pk}))
    assert "owner" in _errors(league.patch("tiles", mine.pk, {"owner": other.player.pk}))
    # Another campaign's objects are not reachable through this campaign's URLs.
    assert league.client.get(league.url("tiles", foreign_tile.pk)).status_code == 404
    assert league.patch("tiles", foreign_tile.pk, {"q": 9}).status_code == 404
    assert league.client.delete(league.url("planets", other.planet.pk)).status_code == 404
    assert Tile.objects.filter(campaign=league.campaign).count() == 1


def test_tile_delete_is_refused_while_attacks_name_it(league):
    tile = league.tile()
    rnd = Round.objects.create(campaign=league.campaign, number=1, server_seed=bytes(32),
                               seed_commitment="0" * 64)
    Attack.objects.create(round=rnd, player=league.player, tile=tile, source="adjacent",
                          order=1)
    response = league.client.delete(league.url("tiles", tile.pk))
    assert response.status_code == 409 and response.json()["code"] == "in_use"
    assert league.client.delete(league.url("planets", league.planet.pk)).status_code == 409
    assert Tile.objects.filter(pk=tile.pk).exists()


# --- links ---

def test_r_map_1_links_are_stored_ordered_and_once(league):
    a, b = league.tile(q=0), league.tile(q=5)
    response = league.post("links", {"a": b.pk, "b": a.pk})
    assert response.status_code == 201
    assert response.json() == {"id": response.json()["id"], "a": a.pk, "b": b.pk}
    assert "b" in _errors(league.post("links", {"a": a.pk, "b": b.pk}))
    assert "b" in _errors(league.post("links", {"a": a.pk, "b": a.pk}))
    link = TileLink.objects.get()
    assert (link.a_id, link.b_id) == (a.pk, b.pk)
    assert league.client.delete(league.url("links", link.pk)).status_code == 204
    assert not TileLink.objects.exists()


# --- areas ---

def test_r_map_3_areas_of_every_kind(league):
    coast_tile = league.tile()
    ocean = league.post("areas", {"name": "Deep", "kind": "ocean"}).json()
    orbit = league.post("areas", {"name": "High orbit", "kind": "orbit",
                                  "planet": league.planet.pk, "adjacent": [ocean["id"]]})
    assert orbit.status_code == 201
    coastal = league.post("areas", {"name": "Shore", "kind": "coastal",
                                    "borders_tiles": [coast_tile.pk],
                                    "adjacent": [ocean["id"]]}).json()
    island = league.post("areas", {"name": "Rock", "kind": "island",
                                   "owner": league.player.pk}).json()
    assert coastal["borders_tiles"] == [coast_tile.pk]
    assert island["owner"] == league.player.pk and island["planet"] is None
    assert orbit.json()["planet"] == league.planet.pk
    # Adjacency is symmetric.
    deep = league.client.get(league.url("areas", ocean["id"])).json()
    assert sorted(deep["adjacent"]) == sorted([orbit.json()["id"], coastal["id"]])


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "O", "kind": "orbit"}, "planet"),
    ({"name": "S", "kind": "ocean", "planet": "PLANET"}, "planet"),
    ({"name": "I", "kind": "island", "borders_tiles": ["TILE"]}, "borders_tiles"),
    # R-MAP-3: only a coastal area lists its tiles (rules.board.area_borders)
    ({"name": "S", "kind": "ocean", "borders_tiles": ["TILE"]}, "borders_tiles"),
    ({"name": "O", "kind": "orbit", "planet": "PLANET", "borders_tiles": ["TILE"]},
     "borders_tiles"),
    ({"name": "C", "kind": "coastal", "owner": "PLAYER"}, "owner"),
    ({"name": "X", "kind": "lava"}, "kind"),
    ({"name": "X", "kind": "ocean", "adjacent": [1.5]}, "adjacent"),
    ({"name": "X", "kind": "ocean", "adjacent": "all"}, "adjacent"),
    ({"name": "X", "kind": "ocean", "adjacent": [10**30]}, "adjacent"),
    ({"kind": "ocean"}, "name"),
])
def test_bad_areas_are_rejected(league, body, field):
    refs = {"PLANET": league.planet.pk, "TILE": league.tile().pk, "PLAYER": league.player.pk}
    body = {key: refs.get(value, value) if isinstance(value, str) and key != "name" else value
            for key, value in body.items()}
    body = {key: [refs.get(v, v) for v in value] if isinstance(value, list) else value
            for key, value in body.items()}
    assert field in _errors(league.post("areas", body))
    assert not Area.objects.exists()


def test_area_update_checks_the_resulting_shape(league):
    area = AreaFactory(campaign=league.campaign, kind="ocean")
    assert "planet" in _errors(league.patch("areas", area.pk, {"kind": "orbit"}))
    response = league.patch("areas", area.pk, {"kind": "orbit", "planet": league.planet.pk})
    assert response.status_code == 200 and response.json()["kind"] == "orbit"
    assert "adjacent[0]" in _errors(league.patch("areas", area.pk, {"adjacent": [area.pk]}))


def test_area_with_fleets_can_not_be_deleted(league):
    area = AreaFactory(campaign=league.campaign)
    FleetFactory(area=area, owner=league.player)
    response = league.client.delete(league.url("areas", area.pk))
    assert response.status_code == 409 and response.json()["code"] == "in_use"
    response = league.client.delete(league.url("planets", league.planet.pk))
    assert response.status_code == 204  # no fleet in its orbit


# --- markers ---

def test_r_mrk_4_marker_by_type_code_belongs_to_the_tile_owner(league):
    tile = league.tile(owner=league.player)
    response = league.post("markers", {"tile": tile.pk, "type": "shield_generator"})
    assert response.status_code == 201
    body = response.json()
    assert body == {"id": body["id"], "tile": tile.pk, "type": "shield_generator",
                    "owner": league.player.pk}
    rival = player_add(campaign=league.campaign, user=UserFactory(), faction="Eldar")
    other_tile = league.tile(q=3, owner=rival)
    body = league.patch("markers", body["id"], {"tile": other_tile.pk, "type": "manufactorum"})
    assert body.json() == {"id": body.json()["id"], "tile": other_tile.pk,
                           "type": "manufactorum", "owner": rival.pk}
    assert "type" in _errors(league.post("markers", {"tile": tile.pk, "type": "orbital_laser"}))
    assert league.client.delete(league.url("markers", body.json()["id"])).status_code == 204
    assert not Marker.objects.exists()


def _refused(response, rule: str, field: str) -> str:
    assert response.status_code == 400, response.content
    assert response.json()["code"] == rule and rule in response.json()["errors"][field][0]
    return response.json()["errors"][field][0]


def test_r_mrk_4_a_neutral_tile_carries_no_marker(league):
    """Item 7: a marker belongs to its tile's owner, so none on a neutral tile -
    not created there, not moved there, and its tile not made neutral under it."""
    neutral, owned_tile = league.tile(), league.tile(q=1, owner=league.player)
    _refused(league.post("markers", {"tile": neutral.pk, "type": "manufactorum"}),
             "R-MRK-4", "tile")
    assert not Marker.objects.exists()
    marker = league.post("markers", {"tile": owned_tile.pk, "type": "manufactorum"}).json()
    _refused(league.patch("markers", marker["id"], {"tile": neutral.pk}), "R-MRK-4", "tile")
    _refused(league.patch("tiles", owned_tile.pk, {"owner": None}), "R-MRK-4", "owner")
    assert Marker.objects.get().tile_id == owned_tile.pk
    assert Tile.objects.get(pk=owned_tile.pk).owner == league.player
    assert league.patch("tiles", neutral.pk, {"owner": None}).status_code == 200  # no marker


def test_r_map_3_a_planet_has_one_orbit_area(league):
    """Item 7: an orbit area is the orbit of one planet; a second one for the same
    planet is refused, on create and on update."""
    first = league.post("areas", {"name": "High orbit", "kind": "orbit",
                                  "planet": league.planet.pk})
    assert first.status_code == 201
    message = _refused(league.post("areas", {"name": "Low orbit", "kind": "orbit",
                                             "planet": league.planet.pk}), "R-MAP-3", "planet")
    assert "High orbit" in message
    ocean = AreaFactory(campaign=league.campaign, kind="ocean")
    _refused(league.patch("areas", ocean.pk, {"kind": "orbit", "planet": league.planet.pk}),
             "R-MAP-3", "planet")
    renamed = league.patch("areas", first.json()["id"], {"name": "Highest orbit"})
    assert renamed.status_code == 200  # the orbit itself is no second orbit
    elsewhere = PlanetFactory(campaign=league.campaign)
    assert league.post("areas", {"name": "Other orbit", "kind": "orbit",
                                 "planet": elsewhere.pk}).status_code == 201
    assert Area.objects.filter(planet=league.planet).count() == 1


def test_r_flt_1_a_pirate_fleet_belongs_to_no_player(league):
    """Item 7: pirates are the non-player force; every other fleet has an owner."""
    area = AreaFactory(campaign=league.campaign, kind="ocean")
    body = {"name": "Corsairs", "kind": "pirate", "area": area.pk}
    _refused(league.post("fleets", {**body, "owner": league.player.pk}), "R-FLT-1", "owner")
    _refused(league.post("fleets", {**body, "kind": "regular"}), "R-FLT-1", "owner")
    assert league.post("fleets", body).status_code == 201


def test_marker_types_of_another_campaign_do_not_count(league, other):
    foreign = MarkerFactory(tile=other.tile(), type__code="relic")
    assert foreign.type.code == "relic"
    tile = league.tile(owner=league.player)
    assert "type" in _errors(league.post("markers", {"tile": tile.pk, "type": "relic"}))


# --- who may build ---

@pytest.mark.parametrize(("plural", "body"), [
    ("planets", {"name": "P"}), ("areas", {"name": "A", "kind": "ocean"}),
])
def test_only_the_campaign_admin_builds(league, plural, body):
    url = league.url(plural)
    assert api().post(url, body, format="json").status_code == 401
    assert api(UserFactory()).post(url, body, format="json").status_code == 404
    assert api(league.player.user).post(url, body, format="json").status_code == 403
    campaign_update(campaign=league.campaign, visibility="public")
    assert api(UserFactory()).post(url, body, format="json").status_code == 403
    tile = league.tile()
    assert api(league.player.user).delete(league.url("tiles", tile.pk)).status_code == 403
    assert api(league.player.user).patch(league.url("tiles", tile.pk), {"q": 4},
                                         format="json").status_code == 403
    assert Tile.objects.get(pk=tile.pk).q == 0


def test_site_admin_may_build_any_campaign(league):
    root = UserFactory(is_superuser=True, is_staff=True)
    assert api(root).post(league.url("planets"), {"name": "P"}, format="json").status_code == 201


_FIELDS = ["name", "planet", "q", "r", "owner", "features", "a", "b", "kind", "adjacent",
           "borders_tiles", "tile", "type"]
_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10) | st.sampled_from(["ocean", "orbit", "island", "mountain",
                                              "manufactorum", "#ffffff"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(_FIELDS), children, max_size=3),
    max_leaves=6)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck))
@given(plural=st.sampled_from(["planets", "tiles", "links", "areas", "markers"]),
       method=st.sampled_from(["post", "patch"]),
       body=st.dictionaries(st.sampled_from(_FIELDS), _value, max_size=6)
       | st.sampled_from([[], "x", 1, None]))
def test_no_builder_input_makes_a_500(plural, method, body):
    """Arbitrary JSON bodies get 2xx or 400, never a 500 (small ids hit real objects)."""
    league = League()
    tile = league.tile(q=99, r=99)
    if method == "post":
        response = league.client.post(league.url(plural), json.dumps(body),
                                      content_type="application/json")
    else:
        target = {"planets": league.planet.pk, "tiles": tile.pk,
                  "areas": AreaFactory(campaign=league.campaign).pk,
                  "markers": MarkerFactory(tile=tile).pk,
                  "links": league.tile(q=98, r=99).pk}[plural]
        response = league.client.patch(league.url(plural, target), json.dumps(body),
                                       content_type="application/json")
    assert response.status_code in (200, 201, 400, 405), response.content
