"""GET /map/ and POST /map/import/ (API.md; R-MAP, R-MRK-4, R-FLT-7, R-SEC-2): a whole map in
one document, validated whole, replacing the old map, lossless on a round trip."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from campaigns.models import Marker, Planet, Round, Tile, TileLink
from campaigns.services.campaigns import campaign_create, campaign_update, player_add
from fleets.models import Area, Fleet, Ship
from tests.budget import examples
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def new_league(admin, users, name="League"):
    campaign = campaign_create(creator=admin, name=name)
    players = [player_add(campaign=campaign, user=user, faction=f"F{user.pk}") for user in users]
    return campaign, players


@pytest.fixture
def admin():
    return UserFactory(username="orga", is_staff=True)


@pytest.fixture
def users():
    return [UserFactory(username="alice"), UserFactory(username="bob")]


@pytest.fixture
def league(admin, users):
    return new_league(admin, users)


def document(p1: int, p2: int) -> dict:
    """Two planets, every feature, both marker types, links, every area kind, fleets with
    ships; keys are strings and integers."""
    return {
        "planets": [
            {"id": "arm", "name": "Armageddon", "tiles": [
                {"id": "t1", "q": 0, "r": 0, "owner": p1, "features": ["mountain", "spaceport"],
                 "markers": [{"type": "manufactorum", "owner": p1}]},
                {"id": "t2", "q": 1, "r": 0, "owner": p2, "features": ["macropole", "defence"],
                 "markers": [{"type": "shield_generator"}]},
                {"id": "t3", "q": 0, "r": 1, "owner": None, "features": [], "markers": []},
            ]},
            {"id": 7, "name": "Ryza", "tiles": [
                {"id": 1, "q": 0, "r": 0, "owner": p2, "features": ["spaceport"],
                 "markers": [{"type": "manufactorum"}, {"type": "shield_generator"}]},
                {"id": 2, "q": -1, "r": 1},
            ]},
        ],
        "links": [["t3", 1], [2, "t2"]],
        "areas": [
            {"id": "deep", "name": "Deep space", "kind": "ocean", "planet": None,
             "adjacent": ["orbit-arm", "orbit-ryza", "shore"], "borders_tiles": []},
            {"id": "orbit-arm", "name": "Armageddon orbit", "kind": "orbit", "planet": "arm",
             "adjacent": ["deep"], "borders_tiles": []},
            {"id": "orbit-ryza", "name": "Ryza orbit", "kind": "orbit", "planet": 7,
             "adjacent": ["deep"]},
            {"id": "shore", "name": "Hive shore", "kind": "coastal", "planet": None,
             "adjacent": ["deep", "rock"], "borders_tiles": ["t1", "t2"]},
            {"id": "rock", "name": "Rock", "kind": "island", "owner": p1,
             "adjacent": ["shore"]},
        ],
        "fleets": [
            {"id": "f1", "owner": p1, "area": "orbit-arm", "name": "Hammer", "kind": "regular",
             "admiral_rating": 2, "ships": [
                 {"name": "Vengeance", "class": "Cruiser", "attack": 5, "defence": 6,
                  "agility": 2, "capacity": 2, "cargo": [{"name": "Boyz mob", "points": 450}],
                  "crew": [{"name": "Warboss Grukk", "cp": 12}, {"name": "Nob", "cp": 6}],
                  "datasheet": None},
                 {"name": "Kill Kroozer", "class": "Kroozer", "attack": 4, "defence": 5,
                  "agility": 3, "capacity": 0, "cargo": [], "crew": [],
                  "datasheet": {"maneuver": "2D", "speed": 3, "targeting": "3D+1",
                                "gun_damage": "4D", "shields": "2D", "hull": "4D"}},
             ]},
            {"owner": None, "area": "deep", "name": "Corsairs", "kind": "pirate",
             "admiral_rating": 3, "ships": [{"name": "Black Gull"}]},
            {"owner": p2, "area": "shore", "kind": "treasure"},
        ],
    }


def import_url(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/map/import/"


def map_url(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/map/"


def do_import(client, campaign, doc):
    return client.post(import_url(campaign), doc, format="json")


def test_import_builds_the_whole_map(admin, league):
    campaign, (alice, bob) = league
    response = do_import(api(admin), campaign, document(alice.pk, bob.pk))
    assert response.status_code == 201, response.content
    shown = response.json()
    assert shown == api(admin).get(map_url(campaign)).json()

    arm, ryza = shown["planets"]
    assert [arm["name"], ryza["name"]] == ["Armageddon", "Ryza"]
    t1, t2, t3 = arm["tiles"]
    r1, r2 = ryza["tiles"]
    assert t1["features"] == ["mountain", "spaceport"]
    assert t2["features"] == ["macropole", "defence"]
    assert (t1["owner"], t2["owner"], t3["owner"], r2["owner"]) == (alice.pk, bob.pk, None, None)
    # R-MRK-4: a marker's owner is its tile's owner.
    assert t1["markers"] == [{"type": "manufactorum", "owner": alice.pk}]
    assert t2["markers"] == [{"type": "shield_generator", "owner": bob.pk}]
    assert r1["markers"] == [{"type": "manufactorum", "owner": bob.pk},
                             {"type": "shield_generator", "owner": bob.pk}]
    assert sorted(shown["links"]) == sorted([sorted([t3["id"], r1["id"]]),
                                             sorted([t2["id"], r2["id"]])])
    assert all(a < b for a, b in shown["links"])

    deep, orbit_arm, orbit_ryza, shore, rock = shown["areas"]
    assert [a["kind"] for a in shown["areas"]] == ["ocean", "orbit", "orbit", "coastal",
                                                   "island"]
    assert (orbit_arm["planet"], orbit_ryza["planet"]) == (arm["id"], ryza["id"])
    assert sorted(deep["adjacent"]) == sorted([orbit_arm["id"], orbit_ryza["id"], shore["id"]])
    assert rock["adjacent"] == [shore["id"]] and shore["borders_tiles"] == [t1["id"], t2["id"]]
    assert Area.objects.get(pk=rock["id"]).owner == alice

    hammer, corsairs, treasure = shown["fleets"]
    assert hammer == {"id": hammer["id"], "owner": alice.pk, "area": orbit_arm["id"],
                      "kind": "regular", "ship_count": 2}
    assert corsairs["owner"] is None and corsairs["kind"] == "pirate"
    assert treasure["ship_count"] == 0
    fleet = Fleet.objects.get(pk=hammer["id"])
    assert (fleet.name, fleet.admiral_rating) == ("Hammer", 2)
    vengeance, kroozer = fleet.ships.all()
    assert (vengeance.position, vengeance.name, vengeance.ship_class) == (1, "Vengeance",
                                                                         "Cruiser")
    assert (vengeance.attack, vengeance.defence, vengeance.agility, vengeance.capacity) == \
        (5, 6, 2, 2)
    assert vengeance.cargo == [{"name": "Boyz mob", "points": 450}]
    assert vengeance.crew == [{"name": "Warboss Grukk", "cp": 12}, {"name": "Nob", "cp": 6}]
    assert kroozer.datasheet["targeting"] == "3D+1" and vengeance.datasheet is None


def test_import_replaces_the_old_map(admin, league):
    campaign, (alice, bob) = league
    client = api(admin)
    first = do_import(client, campaign, document(alice.pk, bob.pk)).json()
    small = {"planets": [{"id": 1, "name": "Solo", "tiles": [{"id": 1, "q": 0, "r": 0}]}]}
    second = do_import(client, campaign, small).json()
    assert [p["name"] for p in second["planets"]] == ["Solo"]
    assert second["links"] == second["areas"] == second["fleets"] == []
    old_tiles = [t["id"] for p in first["planets"] for t in p["tiles"]]
    assert not Tile.objects.filter(pk__in=old_tiles).exists()
    assert not Ship.objects.exists() and not Marker.objects.exists()
    assert do_import(client, campaign, {}).status_code == 400  # planets is required
    assert do_import(client, campaign, {"planets": []}).json() == {
        "planets": [], "links": [], "areas": [], "fleets": []}


def _normalized(doc: dict, players: dict) -> dict:
    """``doc`` with server ids replaced by positions and player ids by ``players``."""
    planets = {p["id"]: i for i, p in enumerate(doc["planets"])}
    tiles = {t["id"]: i for i, t in enumerate(t for p in doc["planets"] for t in p["tiles"])}
    areas = {a["id"]: i for i, a in enumerate(doc["areas"])}
    owner = lambda pk: players.get(pk)  # noqa: E731
    return {
        "planets": [{"name": p["name"], "tiles": [
            {"q": t["q"], "r": t["r"], "owner": owner(t["owner"]), "features": t["features"],
             "markers": [{"type": m["type"], "owner": owner(m["owner"])} for m in t["markers"]]}
            for t in p["tiles"]]} for p in doc["planets"]],
        "links": sorted(sorted([tiles[a], tiles[b]]) for a, b in doc["links"]),
        "areas": [{"name": a["name"], "kind": a["kind"],
                   "planet": None if a["planet"] is None else planets[a["planet"]],
                   "adjacent": sorted(areas[x] for x in a["adjacent"]),
                   "borders_tiles": sorted(tiles[x] for x in a["borders_tiles"])}
                  for a in doc["areas"]],
        "fleets": [{"owner": owner(f["owner"]), "area": areas[f["area"]], "kind": f["kind"],
                    "ship_count": f["ship_count"]} for f in doc["fleets"]],
    }


def test_round_trip_is_lossless(admin, users, league):
    campaign, (alice, bob) = league
    exported = do_import(api(admin), campaign, document(alice.pk, bob.pk)).json()

    fresh, (alice2, bob2) = new_league(admin, users, name="Fresh")
    renumber = {alice.pk: alice2.pk, bob.pk: bob2.pk}
    doc = json.loads(json.dumps(exported))  # exactly what a client got
    for planet in doc["planets"]:
        for tile in planet["tiles"]:
            tile["owner"] = renumber.get(tile["owner"])
            for marker in tile["markers"]:
                marker["owner"] = renumber.get(marker["owner"])
    for fleet in doc["fleets"]:
        fleet["owner"] = renumber.get(fleet["owner"])
    response = do_import(api(admin), fresh, doc)
    assert response.status_code == 201, response.content
    again = api(admin).get(map_url(fresh)).json()

    assert _normalized(again, {alice2.pk: "alice", bob2.pk: "bob"}) == \
        _normalized(exported, {alice.pk: "alice", bob.pk: "bob"})
    assert again["planets"][0]["tiles"][0]["id"] != exported["planets"][0]["tiles"][0]["id"]
    # Exporting the re-imported map and importing it into itself changes nothing but ids.
    third = do_import(api(admin), fresh, again).json()
    mapping = {alice2.pk: "alice", bob2.pk: "bob"}
    assert _normalized(third, mapping) == _normalized(again, mapping)


def _set(doc, path, value):
    """Set ``value`` at ``path`` (a list of keys and indexes) in ``doc``."""
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


INVALID = [
    # (path to change, new value, offending path named in errors)
    (["planets", 0, "tiles", 0, "features", 1], "lava", "planets[0].tiles[0].features[1]"),
    (["planets", 0, "tiles", 0, "features", 1], "mountain", "planets[0].tiles[0].features[1]"),
    (["planets", 0, "tiles", 1, "q"], 0, "planets[0].tiles[1]"),  # duplicate hex (0, 0)
    (["planets", 0, "tiles", 0, "q"], 1.5, "planets[0].tiles[0].q"),
    (["planets", 0, "tiles", 0, "q"], "0", "planets[0].tiles[0].q"),
    (["planets", 0, "tiles", 0, "q"], True, "planets[0].tiles[0].q"),
    (["planets", 0, "tiles", 0, "r"], 10**30, "planets[0].tiles[0].r"),
    (["planets", 0, "tiles", 0, "owner"], 999_999, "planets[0].tiles[0].owner"),
    (["planets", 0, "tiles", 0, "owner"], "alice", "planets[0].tiles[0].owner"),
    (["planets", 0, "tiles", 0, "markers", 0, "type"], "relic",
     "planets[0].tiles[0].markers[0].type"),
    (["planets", 0, "tiles", 0, "markers", 0, "owner"], None,
     "planets[0].tiles[0].markers[0].owner"),
    (["planets", 0, "tiles", 0, "markers"], {"type": "manufactorum"},
     "planets[0].tiles[0].markers"),
    (["planets", 0, "tiles", 0, "colour"], "red", "planets[0].tiles[0].colour"),
    (["planets", 1, "tiles", 0, "id"], "t1", "planets[1].tiles[0].id"),
    (["planets", 1, "id"], "arm", "planets[1].id"),
    (["planets", 1, "id"], [1], "planets[1].id"),
    (["planets", 1], "Ryza", "planets[1]"),
    (["planets", 1, "name"], "", "planets[1].name"),
    (["planets", 1, "tiles"], None, "planets[1].tiles"),
    (["planets"], {"0": {}}, "planets"),
    (["links", 0, 1], "nowhere", "links[0][1]"),
    (["links", 0], ["t3", "t3"], "links[0]"),
    (["links", 0], ["t3"], "links[0]"),
    (["links", 1], [1, "t3"], "links[1]"),  # the same pair again
    (["areas", 0, "adjacent", 0], "nowhere", "areas[0].adjacent[0]"),
    (["areas", 0, "adjacent", 0], "deep", "areas[0].adjacent"),
    (["areas", 3, "borders_tiles", 0], "t9", "areas[3].borders_tiles[0]"),
    (["areas", 1, "planet"], None, "areas[1].planet"),  # an orbit needs a planet
    (["areas", 1, "planet"], "mars", "areas[1].planet"),
    (["areas", 0, "planet"], "arm", "areas[0].planet"),
    (["areas", 0, "kind"], "nebula", "areas[0].kind"),
    (["areas", 4, "borders_tiles"], ["t1"], "areas[4].borders_tiles"),
    (["areas", 0, "borders_tiles"], ["t1"], "areas[0].borders_tiles"),  # an ocean (R-MAP-3)
    (["areas", 0, "owner"], "OWNER", "areas[0].owner"),
    (["areas", 2, "id"], "deep", "areas[2].id"),
    (["fleets", 0, "kind"], "armada", "fleets[0].kind"),
    (["fleets", 0, "area"], "t1", "fleets[0].area"),
    (["fleets", 0, "owner"], None, "fleets[0].owner"),  # only pirates are ownerless
    (["fleets", 0, "admiral_rating"], 4, "fleets[0].admiral_rating"),
    (["fleets", 0, "ship_count"], 5, "fleets[0].ship_count"),
    (["fleets", 0, "ships", 0, "attack"], -1, "fleets[0].ships[0].attack"),
    (["fleets", 0, "ships", 0, "capacity"], 0, "fleets[0].ships[0].cargo"),
    (["fleets", 0, "ships", 0, "cargo", 0, "points"], 501, "fleets[0].ships[0].cargo[0].points"),
    (["fleets", 0, "ships", 0, "crew", 0], {"name": "Grukk"}, "fleets[0].ships[0].crew[0].cp"),
    (["fleets", 0, "ships", 0, "datasheet"], "2D", "fleets[0].ships[0].datasheet"),
    (["fleets", 0, "ships", 1, "name"], None, "fleets[0].ships[1].name"),
    (["fleets", 0, "ships"], [{"class": "Cruiser"}], "fleets[0].ships[0].name"),
    (["fleets", 1], 17, "fleets[1]"),
]


@pytest.mark.parametrize(("where", "value", "path"), INVALID,
                         ids=[case[2] + "=" + repr(case[1])[:20] for case in INVALID])
def test_invalid_documents_are_rejected_whole_naming_the_path(admin, league, where, value,
                                                              path):
    campaign, (alice, bob) = league
    client = api(admin)
    before = do_import(client, campaign, document(alice.pk, bob.pk)).json()
    doc = document(alice.pk, bob.pk)
    _set(doc, where, alice.pk if value == "OWNER" else value)
    response = client.post(import_url(campaign), doc, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert path in body["errors"], body
    assert body["code"] == "invalid" and body["detail"]
    assert client.get(map_url(campaign)).json() == before  # nothing changed



CONTRADICTIONS = [
    # (path to change, new value, offending path named in errors, rule)
    (["fleets", 1, "owner"], "OWNER", "fleets[1].owner", "R-FLT-1"),  # a pirate with an owner
    (["areas", 2, "planet"], "arm", "areas[2].planet", "R-MAP-3"),  # a second orbit of "arm"
    (["planets", 0, "tiles", 2, "markers"], [{"type": "manufactorum"}],
     "planets[0].tiles[2].markers[0]", "R-MRK-4"),  # a marker on a neutral tile
    (["planets", 1, "tiles", 1, "markers"], [{"type": "shield_generator", "owner": None}],
     "planets[1].tiles[1].markers[0]", "R-MRK-4"),
]


@pytest.mark.parametrize(("where", "value", "path", "rule"), CONTRADICTIONS,
                         ids=[case[3] + ":" + case[2] for case in CONTRADICTIONS])
def test_item_7_contradictory_documents_are_refused_naming_path_and_rule(
        admin, league, where, value, path, rule):
    """A pirate fleet with an owner (R-FLT-1), two orbit areas of one planet (R-MAP-3) and
    markers on neutral tiles (R-MRK-4) were imported as given."""
    campaign, (alice, bob) = league
    client = api(admin)
    before = do_import(client, campaign, document(alice.pk, bob.pk)).json()
    doc = document(alice.pk, bob.pk)
    _set(doc, where, alice.pk if value == "OWNER" else value)
    response = do_import(client, campaign, doc)
    assert response.status_code == 400, response.content
    body = response.json()
    assert list(body["errors"]) == [path], body
    assert rule in body["errors"][path][0] and body["detail"].startswith(f"{path}: ")
    assert client.get(map_url(campaign)).json() == before  # nothing changed


def test_item_7_the_builders_refuse_the_same_with_the_same_words(admin, league):
    """The one-object builders answer what the import answers, with the rule id as code."""
    campaign, (alice, bob) = league
    client = api(admin)
    shown = do_import(client, campaign, document(alice.pk, bob.pk)).json()
    arm = shown["planets"][0]
    base = f"/api/v1/campaigns/{campaign.pk}/"
    cases = [
        ("fleets/", {"name": "Corsairs", "kind": "pirate", "owner": alice.pk,
                     "area": shown["areas"][0]["id"]}, "owner"),
        ("areas/", {"name": "Low orbit", "kind": "orbit", "planet": arm["id"]}, "planet"),
        ("markers/", {"tile": arm["tiles"][2]["id"], "type": "manufactorum"}, "tile"),
    ]
    for (where, value, path, rule), (url, body, field) in zip(
            CONTRADICTIONS, cases, strict=False):
        doc = document(alice.pk, bob.pk)
        _set(doc, where, alice.pk if value == "OWNER" else value)
        imported = do_import(client, campaign, doc).json()["errors"][path][0]
        built = client.post(base + url, body, format="json")
        assert built.status_code == 400, built.content
        assert built.json()["code"] == rule
        assert built.json()["errors"][field][0].split(" (")[0] == imported.split(" (")[0]
    assert client.get(map_url(campaign)).json() == shown  # nothing was built


DATASHEET = ("maneuver", "speed", "targeting", "gun_damage", "shields", "hull")


@pytest.mark.parametrize(("sheet", "first"), [
    ({"maneuver": "2D"}, "speed"),
    ({"maneuver": "99999D+99999", "speed": -5}, "maneuver"),
])
def test_r_spc_1_a_partial_datasheet_is_refused_as_by_the_ship_api(admin, league, sheet, first):
    """R-SPC-1, R-FLT-2: a datasheet is complete or absent, within the bounds of
    ``rules.ship_values``. The import refused nothing of it before: the ship was stored and
    fought with default values. Now it answers the 400 that POST .../ships/ answers for the
    same ship, naming the path in the document and the rule."""
    campaign, (alice, bob) = league
    client = api(admin)
    assert do_import(client, campaign, document(alice.pk, bob.pk)).status_code == 201
    before = client.get(map_url(campaign)).json()
    doc = document(alice.pk, bob.pk)
    doc["fleets"][0]["ships"][0]["datasheet"] = sheet
    response = do_import(client, campaign, doc)
    assert response.status_code == 400, response.content
    body = response.json()
    ship = "fleets[0].ships[0].datasheet"
    assert body["detail"].startswith(f"{ship}.{first}: ") and "R-SPC-1" in body["detail"]
    for key in DATASHEET:
        if key not in sheet:
            assert "R-FLT-2" in body["errors"][f"{ship}.{key}"][0]  # complete or absent
    if "speed" in sheet:
        assert "R-SPC-1" in body["errors"][f"{ship}.speed"][0]
    assert client.get(map_url(campaign)).json() == before  # nothing changed
    fleet = Fleet.objects.get(campaign=campaign, name="Hammer")
    refused = client.post(f"/api/v1/campaigns/{campaign.pk}/fleets/{fleet.pk}/ships/",
                          {"name": "Vengeance", "datasheet": sheet}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "R-SPC-1"
    assert refused.json()["errors"] == {f"datasheet.{first}": body["errors"][f"{ship}.{first}"]}
    assert body["detail"] == f"{ship}.{first}: {refused.json()['detail']}"


@pytest.mark.parametrize(("where", "value", "path"), [
    (["attack"], 51, "attack"), (["defence"], 0, "defence"), (["agility"], 8, "agility"),
    (["capacity"], 51, "capacity"), (["crew", 0, "cp"], 201, "crew[0].cp"),
    (["datasheet"], {"hull": "3D"}, "datasheet.maneuver"),
])
def test_r_flt_2_the_import_checks_the_bounds_of_the_fleet_api(admin, league, where, value,
                                                                path):
    """R-FLT-2: attack 0..50, defence 1..50, agility 0..7, capacity 0..50, cp 0..200 (the map
    document allowed 0..1000 before)."""
    campaign, (alice, bob) = league
    doc = document(alice.pk, bob.pk)
    _set(doc["fleets"][0]["ships"][0], where, value)
    response = do_import(api(admin), campaign, doc)
    assert response.status_code == 400, response.content
    message = response.json()["errors"][f"fleets[0].ships[0].{path}"][0]
    assert "R-FLT-2" in message or "R-SPC-1" in message
    assert not Fleet.objects.filter(campaign=campaign).exists()


def test_invalid_document_error_message_names_the_value(admin, league):
    campaign, (alice, bob) = league
    doc = document(alice.pk, bob.pk)
    doc["planets"][0]["tiles"][3 - 1]["features"] = ["mountain", "lava"]
    errors = do_import(api(admin), campaign, doc).json()["errors"]
    assert "unknown feature 'lava'" in errors["planets[0].tiles[2].features[1]"][0]


def test_all_errors_of_a_document_are_reported(admin, league):
    campaign, (alice, bob) = league
    doc = document(alice.pk, bob.pk)
    doc["planets"][0]["tiles"][0]["features"] = ["lava"]
    doc["areas"][1]["planet"] = None
    doc["fleets"][0]["area"] = "nowhere"
    errors = do_import(api(admin), campaign, doc).json()["errors"]
    assert {"planets[0].tiles[0].features[0]", "areas[1].planet", "fleets[0].area"} <= \
        set(errors)


@pytest.mark.parametrize("body", [{}, [], "map", 17, None, {"planets": "Mars"},
                                  {"planets": [], "extra": []}])
def test_a_document_that_is_not_a_map_is_400(admin, league, body):
    campaign, _ = league
    response = api(admin).post(import_url(campaign), json.dumps(body),
                               content_type="application/json")
    assert response.status_code == 400


def test_malformed_json_is_400(admin, league):
    campaign, _ = league
    client = api(admin)
    for raw in ("", "{", '{"planets": [}', "[" * 100_000, '{"planets": [1e999999]}',
                '{"planets": [{"id": 1' + "0" * 5000 + "}]}"):
        response = client.post(import_url(campaign), raw, content_type="application/json")
        assert response.status_code == 400, raw[:20]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["arm", "t1", "deep", "orbit", "manufactorum"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "q", "r", "owner", "kind", "name", "planet",
                                       "tiles", "area", "ships", "type", "x"]),
                      children, max_size=4),
    max_leaves=12)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(where=st.integers(min_value=0, max_value=10_000), value=_json)
def test_no_document_makes_a_500(admin, league, where, value):
    """Replace one node of a valid document by arbitrary JSON: 201 or 400, never a 500."""
    campaign, (alice, bob) = league
    doc = document(alice.pk, bob.pk)
    nodes = []

    def walk(node, path):
        nodes.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, child in children:
            walk(child, [*path, key])

    walk(doc, [])
    path = nodes[where % len(nodes)]
    if path:
        _set(doc, path, value)
    else:
        doc = value
    response = api(admin).post(import_url(campaign), json.dumps(doc),
                               content_type="application/json")
    assert response.status_code in (201, 400), response.content


# --- phase and permissions ---

def _round(campaign, number, phase):
    return Round.objects.create(campaign=campaign, number=number, phase=phase,
                                server_seed=bytes(32), seed_commitment="0" * 64)


@pytest.mark.parametrize("phase", ["declare", "fleets", "lists", "battles", "conquest"])
def test_import_is_allowed_until_round_1_closes(admin, league, phase):
    campaign, (alice, bob) = league
    _round(campaign, 1, phase)
    assert do_import(api(admin), campaign, document(alice.pk, bob.pk)).status_code == 201


def test_import_after_round_1_closed_is_409_before_any_rule(admin, league):
    campaign, (alice, bob) = league
    client = api(admin)
    do_import(client, campaign, document(alice.pk, bob.pk))
    before = client.get(map_url(campaign)).json()
    _round(campaign, 1, "closed")
    _round(campaign, 2, "declare")
    response = do_import(client, campaign, {"planets": []})
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"
    assert do_import(client, campaign, {"planets": "not a list"}).status_code == 409
    assert client.get(map_url(campaign)).json() == before


def test_only_the_campaign_admin_imports(admin, league):
    campaign, (alice, bob) = league
    doc = document(alice.pk, bob.pk)
    assert do_import(api(), campaign, doc).status_code == 401
    assert do_import(api(UserFactory()), campaign, doc).status_code == 404
    assert do_import(api(alice.user), campaign, doc).status_code == 403
    campaign_update(campaign=campaign, visibility="public")
    assert do_import(api(UserFactory()), campaign, doc).status_code == 403
    assert not Planet.objects.exists()
    assert do_import(api(), campaign, {"planets": "bad"}).status_code == 401


def test_map_is_readable_by_members_and_for_public_campaigns(admin, league):
    campaign, (alice, bob) = league
    do_import(api(admin), campaign, document(alice.pk, bob.pk))
    assert api(alice.user).get(map_url(campaign)).status_code == 200
    assert api().get(map_url(campaign)).status_code == 404
    assert api(UserFactory()).get(map_url(campaign)).status_code == 404
    campaign_update(campaign=campaign, visibility="public")
    assert api().get(map_url(campaign)).status_code == 200


def test_r_flt_7_map_shows_no_hidden_fleet_fields(admin, league):
    campaign, (alice, bob) = league
    do_import(api(admin), campaign, document(alice.pk, bob.pk))
    for viewer in (None, alice.user, bob.user, admin):
        client = api(viewer) if viewer else api()
        campaign_update(campaign=campaign, visibility="public")
        response = client.get(map_url(campaign))
        raw = response.content.decode()
        for secret in ("Vengeance", "Kroozer", "Cruiser", "Boyz mob", "Warboss", "Hammer",
                       "Corsairs", "cargo", "crew", "datasheet", "admiral", "attack",
                       "standing_orders", "3D+1", "points", "\"cp\""):
            assert secret not in raw, secret
        for fleet in response.json()["fleets"]:
            assert set(fleet) == {"id", "owner", "area", "kind", "ship_count"}


def test_map_shape_is_exactly_the_contract(admin, league):
    campaign, (alice, bob) = league
    shown = do_import(api(admin), campaign, document(alice.pk, bob.pk)).json()
    assert set(shown) == {"planets", "links", "areas", "fleets"}
    assert set(shown["planets"][0]) == {"id", "name", "tiles"}
    assert set(shown["planets"][0]["tiles"][0]) == {"id", "q", "r", "name", "owner",
                                                    "features", "markers"}  # name: its own
    assert set(shown["planets"][0]["tiles"][0]["markers"][0]) == {"type", "owner"}
    assert set(shown["areas"][0]) == {"id", "name", "kind", "planet", "adjacent",
                                      "borders_tiles"}
    assert TileLink.objects.count() == len(shown["links"]) == 2


def test_markers_follow_the_tile_owner(admin, league):
    """R-MRK-4: conquering a tile takes its markers along, with no marker row changed."""
    campaign, (alice, bob) = league
    shown = do_import(api(admin), campaign, copy.deepcopy(document(alice.pk, bob.pk))).json()
    tile_id = shown["planets"][0]["tiles"][0]["id"]
    Tile.objects.filter(pk=tile_id).update(owner=bob)
    tile = api(admin).get(map_url(campaign)).json()["planets"][0]["tiles"][0]
    assert tile["markers"] == [{"type": "manufactorum", "owner": bob.pk}]
