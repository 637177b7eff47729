"""The demo campaign of ``manage.py demo``: two planets of 19 hex tiles with every feature and
both marker types, four players, orbit, ocean and coastal areas with fleets, round 1 in
``declare``. Built through the same services an admin uses."""

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign
from campaigns.services.campaigns import campaign_create, player_add
from league.services.map_document import map_import
from league.services.rounds import campaign_start

DEMO_NAME = "Demo: The Ryza Campaign"
PLAYERS = [  # username, faction, colour
    ("anna", "Adeptus Mechanicus", "#b3261e"),
    ("ben", "Orks", "#2e7d32"),
    ("carl", "Astra Militarum", "#1565c0"),
    ("dora", "Aeldari", "#f9a825"),
]
RING_2 = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]  # 19 hexes


def _features(index: int, q: int, r: int) -> list[str]:
    if (q, r) == (0, 0):
        return ["macropole", "defence"] if index == 0 else ["spaceport"]
    if (q, r) in ((2, -1), (-2, 1)):
        return ["spaceport"]
    if (q, r) in ((0, -2), (1, -2), (-1, 2), (0, 1)):
        return ["mountain"]
    if (q - r) % 4 == 0:
        return ["defence"]
    return []


def _owner(index: int, q: int, r: int, players: list[int]) -> int | None:
    """Planet 0 split between anna and ben, planet 1 between carl and dora; the middle free."""
    pair = players[:2] if index == 0 else players[2:]
    if q + r <= -1 and q <= 0:
        return pair[0]
    if q + r >= 1 and q >= 0:
        return pair[1]
    return None


def _marker(index: int, q: int, r: int, owner) -> list[dict]:
    if owner is None:
        return []
    if (q, r) in ((-1, -1), (1, 1)):
        return [{"type": "manufactorum"}]
    if (q, r) in ((-2, 0), (2, 0)) and index == 1:
        return [{"type": "shield_generator"}]
    return []


def _planet(index: int, name: str, players: list[int]) -> dict:
    tiles = []
    for q, r in RING_2:
        owner = _owner(index, q, r, players)
        tiles.append({"id": f"p{index}-{q}-{r}", "q": q, "r": r, "owner": owner,
                      "features": _features(index, q, r), "markers": _marker(index, q, r, owner)})
    return {"id": f"p{index}", "name": name, "tiles": tiles}


def _ship(name: str, cls: str, attack: int, defence: int, agility: int, *, cargo=(),
          crew=(), capacity: int = 0) -> dict:
    return {"name": name, "class": cls, "attack": attack, "defence": defence,
            "agility": agility, "capacity": capacity, "cargo": list(cargo), "crew": list(crew),
            "datasheet": {"maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "3D",
                          "shields": "2D", "hull": "3D"}}


def _fleets(players: list[int]) -> list[dict]:
    anna, ben, carl, dora = players
    detachment = [{"name": "Skitarii maniple", "points": 500}]
    return [
        {"owner": anna, "area": "orbit-0", "name": "Forge Fleet Ryza", "kind": "regular",
         "admiral_rating": 2, "ships": [
             _ship("Ark of Omnissiah", "Battleship", 5, 7, 2, capacity=3,
                   cargo=detachment * 3, crew=[{"name": "Magos Vettius", "cp": 12}]),
             _ship("Cog of Mars", "Cruiser", 4, 5, 3, crew=[{"name": "Enginseer", "cp": 6}])]},
        {"owner": ben, "area": "ocean-1", "name": "Da Red Armada", "kind": "regular",
         "admiral_rating": 1, "ships": [
             _ship("Gorkbreaka", "Kill Kroozer", 5, 5, 2, crew=[{"name": "Kaptin Badrukk",
                                                                  "cp": 18}]),
             _ship("Rokk 3", "Rok", 3, 6, 1)]},
        {"owner": carl, "area": "orbit-1", "name": "Battlegroup Cadia", "kind": "regular",
         "admiral_rating": 1, "ships": [
             _ship("Lord Solar's Pride", "Cruiser", 4, 6, 2, capacity=2, cargo=detachment)]},
        {"owner": dora, "area": "coast-1", "name": "Craftworld Wing", "kind": "regular",
         "admiral_rating": 3, "ships": [
             _ship("Starlight", "Eclipse", 4, 4, 5), _ship("Moonshadow", "Hellebore", 3, 4, 5)]},
        {"owner": None, "area": "ocean-2", "name": "Corsairs of the Maelstrom", "kind": "pirate",
         "admiral_rating": 2, "ships": [_ship("Black Wake", "Raider", 3, 4, 4)]},
    ]


def demo_document(players: list[int]) -> dict:
    coast_tiles = [f"p1-{q}-{r}" for q, r in ((2, 0), (2, -1), (1, 1))]
    return {
        "planets": [_planet(0, "Ryza", players), _planet(1, "Armageddon", players)],
        "links": [["p0-2-0", "p1--2-0"]],
        "areas": [
            {"id": "orbit-0", "name": "Ryza orbit", "kind": "orbit", "planet": "p0",
             "adjacent": ["ocean-1"]},
            {"id": "orbit-1", "name": "Armageddon orbit", "kind": "orbit", "planet": "p1",
             "adjacent": ["ocean-2", "coast-1"]},
            {"id": "ocean-1", "name": "Warp lane Alpha", "kind": "ocean",
             "adjacent": ["orbit-0", "ocean-2"]},
            {"id": "ocean-2", "name": "Maelstrom reach", "kind": "ocean",
             "adjacent": ["ocean-1", "orbit-1", "coast-1", "isle"]},
            {"id": "coast-1", "name": "Hive Tempestora shore", "kind": "coastal",
             "adjacent": ["ocean-2", "orbit-1"], "borders_tiles": coast_tiles},
            {"id": "isle", "name": "Isle of Ash", "kind": "island", "owner": None,
             "adjacent": ["ocean-2"]},
        ],
        "fleets": _fleets(players),
    }


def _user(username: str):
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    if user:
        return user, None
    password = secrets.token_urlsafe(9)
    return users.objects.create_user(username=username, password=password), password


@transaction.atomic
def demo_create(*, admin_username: str = "admin") -> tuple[Campaign, dict[str, str]]:
    """Create the demo campaign once; returns it and the passwords of users created now."""
    existing = Campaign.objects.filter(name=DEMO_NAME).first()
    if existing:
        return existing, {}
    admin = get_user_model().objects.filter(username=admin_username).first()
    if admin is None:
        admin, _ = _user(admin_username)
        admin.is_staff = admin.is_superuser = True
        admin.save()
    campaign = campaign_create(creator=admin, name=DEMO_NAME, visibility="public",
                               time_zone="Europe/Berlin")  # a German club's league
    passwords, players = {}, []
    for username, faction, colour in PLAYERS:
        user, password = _user(username)
        if password:
            passwords[username] = password
        players.append(player_add(campaign=campaign, user=user, faction=faction,
                                  colour=colour).pk)
    map_import(campaign=campaign, document=demo_document(players))
    campaign_start(campaign=campaign)
    return campaign, passwords
