"""A whole round through the REST API with three players: buy, declare (legal and
every kind of illegal), withdraw, advance, results including a three-attacker chain on one tile,
chain roll decisions, conquest choices, close, verify the dice log against the revealed seed,
next round and frozen standings. Every response before the close is checked for the seed."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from campaigns.models import Player, Round, Tile

pytestmark = pytest.mark.django_db


class Session:
    """API clients per user that remember every response body, to search for the seed."""

    def __init__(self):
        self.bodies: list[str] = []
        self.clients: dict[str, APIClient] = {}

    def as_(self, user: User) -> "Caller":
        return Caller(self, user)


class Caller:
    def __init__(self, session: Session, user: User):
        self.session, self.client = session, APIClient()
        self.client.force_authenticate(User.objects.get(pk=user.pk))

    def _keep(self, response):
        self.session.bodies.append(response.content.decode())
        return response

    def get(self, url):
        return self._keep(self.client.get(url))

    def post(self, url, data=None):
        return self._keep(self.client.post(url, data, format="json"))

    def delete(self, url):
        return self._keep(self.client.delete(url))


def tile_doc(key, q, r, owner, features=()):
    return {"id": key, "q": q, "r": r, "owner": owner, "features": list(features),
            "markers": []}


@pytest.fixture
def world():
    staff = User.objects.create_user("orga", password="x", is_staff=True)
    users = {n: User.objects.create_user(n, password="x") for n in ("anna", "ben", "carl")}
    s = Session()
    admin = s.as_(staff)
    campaign = admin.post("/api/v1/campaigns/", {"name": "Season 1", "visibility": "private",
                                                  "ruleset": {"income_per_tile": 1,
                                                              # the admin steps
                                                              "early_advance": False}})
    assert campaign.status_code == 201, campaign.content
    cid = campaign.json()["id"]
    base = f"/api/v1/campaigns/{cid}/"
    players = {}
    for name in users:
        made = admin.post(base + "players/", {"username": name, "faction": name.title(),
                                              "colour": "#123456"})
        assert made.status_code == 201, made.content
        players[name] = made.json()["id"]
    anna, ben, carl = players["anna"], players["ben"], players["carl"]
    doc = {"planets": [
        {"id": "alpha", "name": "Alpha", "tiles": [
            tile_doc("a-home", 0, 0, anna, ["spaceport"]), tile_doc("a-edge", 1, 0, anna),
            tile_doc("b1", 0, 2, ben), tile_doc("b2", 1, 2, ben),
            tile_doc("c1", 2, 0, carl), tile_doc("c2", 3, 0, carl),
            tile_doc("n", 1, 1, None, ["defence"])]},
        {"id": "beta", "name": "Beta", "tiles": [tile_doc("beta-c", 0, 0, carl)]}],
        "links": [],
        "areas": [{"id": "beta-orbit", "name": "Beta orbit", "kind": "orbit", "planet": "beta",
                   "adjacent": []}],
        "fleets": [{"owner": ben, "area": "beta-orbit", "name": "Drop fleet", "kind": "regular",
                    "admiral_rating": 0, "ships": [
                        {"name": "Lander", "class": "Transport", "attack": 1, "defence": 3,
                         "agility": 2, "capacity": 1,
                         "cargo": [{"name": "Boyz", "points": 500}], "crew": [],
                         "datasheet": None}]}]}
    imported = admin.post(base + "map/import/", doc)
    assert imported.status_code == 201, imported.content
    tiles = {(t["q"], t["r"], p["name"]): t["id"] for p in imported.json()["planets"]
             for t in p["tiles"]}
    callers = {name: s.as_(user) for name, user in users.items()}
    return s, admin, callers, players, base, tiles


def test_whole_round_through_the_api(world, django_capture_on_commit_callbacks):
    s, admin, who, players, base, tiles = world
    anna, ben, carl = who["anna"], who["ben"], who["carl"]
    n, c1, c2 = tiles[(1, 1, "Alpha")], tiles[(2, 0, "Alpha")], tiles[(3, 0, "Alpha")]
    a_edge, a_home, beta_c = tiles[(1, 0, "Alpha")], tiles[(0, 0, "Alpha")], tiles[(0, 0, "Beta")]

    started = admin.post(base + "advance/").json()
    assert (started["number"], started["phase"]) == (1, "declare")
    seed_commitment = admin.get(base + "rounds/1/").json()["seed_commitment"]
    r1 = base + "rounds/1/"

    # R-ECO-1: everyone starts with 1 requisition (income_base pays more at close)
    short = anna.post(r1 + "purchases/", {"attack_armies": 3})
    assert short.status_code == 400 and short.json()["code"] == "R-ECO-1"
    for caller in (anna, ben, carl):
        assert caller.post(r1 + "purchases/", {"attack_armies": 1}).status_code == 201
    Player.objects.update(requisition=5)  # more armies than the starting balance buys
    assert anna.post(r1 + "purchases/", {"attack_armies": 2}).status_code == 201
    assert carl.post(r1 + "purchases/", {"attack_armies": 1}).status_code == 201
    assert ben.post(r1 + "purchases/", {"attack_armies": 1}).status_code == 201

    def declare(caller, tile):
        return caller.post(r1 + "attacks/", {"tile": tile})

    # declaration order on the neutral tile n: anna, ben, carl (R-ATK-5)
    first = declare(anna, n)
    assert first.status_code == 201 and first.json()["source"] == "adjacent"
    assert declare(ben, n).status_code == 201
    assert declare(carl, n).status_code == 201
    anna_c1 = declare(anna, c1).json()
    assert declare(carl, a_edge).json()["source"] == "adjacent"
    # illegal ones, each with its rule (R-ATK-6)
    assert declare(anna, a_home).json()["code"] == "R-ATK-1"  # own tile
    assert declare(anna, n).json()["code"] == "R-ATK-1"  # same tile twice
    assert declare(ben, c2).json()["code"] == "R-ATK-2"  # not adjacent, no structure
    assert declare(ben, beta_c).json()["code"] == "R-ATK-3"  # 500 < 1500 embarked in orbit
    assert declare(carl, a_home).json()["code"] == "R-ATK-1"  # no army left
    withdrawn = declare(anna, c2)  # via anna's spaceport (R-ATK-2 b)
    assert withdrawn.json()["source"] == "structure"
    assert anna.delete(r1 + f"attacks/{withdrawn.json()['id']}/").status_code == 204
    # before the declare deadline players see only their own declarations
    assert {a["attacker"] for a in ben.get(r1 + "attacks/").json()["results"]} == {players["ben"]}

    with django_capture_on_commit_callbacks(execute=True):  # the fleets job runs after commit
        assert admin.post(base + "advance/", {"expected_phase": "declare"}).json()["phase"] in (
            "fleets", "lists")
    assert Round.objects.get(number=1).phase == "lists"
    seen = ben.get(r1 + "attacks/").json()["results"]  # now everyone sees all
    assert sorted(a["status"] for a in seen) == ["active"] * 5 + ["withdrawn"]
    assert admin.post(base + "advance/", {"expected_phase": "lists"}).json()["phase"] == "battles"

    battles = {(b["tile"], b["attacker"]): b for b in
               admin.get(base + "battles/?round=1").json()["results"]}
    link1 = battles[(n, players["anna"])]
    link2, link3 = battles[(n, players["ben"])], battles[(n, players["carl"])]
    assert [link1["chain_position"], link2["chain_position"], link3["chain_position"]] == [1, 2, 3]
    assert link1["result"]["outcome"] == "victory"  # neutral tile: a walkover (R-ATK-4)
    assert link2["status"] == "pending" and link2["defender"] is None

    # link 1: anna decides at once to roll (R-CON-6)
    roll = anna.post(base + f"battles/{link1['id']}/conquest/", {"roll": True}).json()
    assert roll["modifiers"] == [{"rule": "R-CON-3", "name": "defence", "value": -1}]
    holder = players["anna"] if roll["success"] else None
    link2 = admin.get(base + f"battles/{link2['id']}/").json()
    assert link2["defender"] == holder and link2["status"] in ("open", "done")
    if holder is not None:
        assert admin.post(base + f"battles/{link2['id']}/result/",
                          {"outcome": "victory", "attacker_vp": 9,
                           "defender_vp": 3}).status_code == 200
    assert ben.post(base + f"battles/{link2['id']}/conquest/",
                    {"roll": False}).json() == {"waived": True}
    link3 = admin.get(base + f"battles/{link3['id']}/").json()
    assert link3["defender"] == holder
    if holder is not None:
        assert admin.post(base + f"battles/{link3['id']}/result/",
                          {"outcome": "moral_victory", "attacker_vp": 7,
                           "defender_vp": 6}).status_code == 200
    admin.post(base + f"battles/{battles[(c1, players['anna'])]['id']}/result/",
               {"outcome": "victory", "attacker_vp": 12, "defender_vp": 2})
    admin.post(base + f"battles/{battles[(a_edge, players['carl'])]['id']}/result/",
               {"outcome": "defeat", "attacker_vp": 1, "defender_vp": 10})

    assert admin.post(base + "advance/",
                      {"expected_phase": "battles"}).json()["phase"] == "conquest"
    anna_items = anna.get(r1 + "conquest/").json()["items"]
    assert [i["attack"] for i in anna_items] == [anna_c1["id"]]
    carl_items = carl.get(r1 + "conquest/").json()["items"]
    assert [i["tile"] for i in carl_items] == [n]  # the last link rolls in this phase
    assert anna.post(r1 + "conquest/", {"roll": [anna_c1["id"]]}).json()["resolved"] is False
    done = carl.post(r1 + "conquest/", {"roll": [carl_items[0]["attack"]]}).json()
    assert done["resolved"] is True and len(done["rolls"]) == 1
    assert ben.get(r1 + "conquest/").status_code == 200

    # nothing so far revealed the seed
    seed_hex = bytes(Round.objects.get(number=1).server_seed).hex()
    assert not [b for b in s.bodies if seed_hex in b]
    assert admin.get(r1 + "verify/").status_code == 409

    closed = admin.post(base + "advance/", {"expected_phase": "conquest"}).json()
    assert (closed["number"], closed["phase"]) == (2, "declare")
    round1 = admin.get(r1).json()
    assert round1["server_seed"] == seed_hex and round1["seed_commitment"] == seed_commitment
    log = anna.get(r1 + "rolls/").json()
    assert log["server_seed"] == seed_hex and len(log["rolls"]) == 3  # chain roll + 2 conquest
    assert anna.get(r1 + "verify/").json() == {"verified": True, "checked": 3, "mismatches": []}

    frozen = anna.get(base + "standings/?round=1").json()
    live = anna.get(base + "standings/").json()
    assert frozen["round"] == 1 and frozen["rows"] == live["rows"]
    rows = {r["username"]: r for r in frozen["rows"]}
    owned = {name: Tile.objects.filter(owner_id=pid).count() for name, pid in players.items()}
    assert {name: row["tiles"] for name, row in rows.items()} == owned
    assert [r["rank"] for r in frozen["rows"]] == sorted(r["rank"] for r in frozen["rows"])
    assert rows["anna"]["battles_won"] >= 2  # the walkover and the battle on c1
