"""Benchmark: the map page at league scale (the league table's map row): 64
players, 732 tiles on 8 planets, 36 areas, 200 fleets of 6 ships, round 1 in ``declare`` with
movement orders. Prints the server time per request (Django's test client: middleware, view,
template), the SQL queries, and the bytes of the page raw and as sent gzip-compressed, for a
player and for the admin. The data lives in a throwaway test database dropped afterwards.

    .venv/bin/python bench/map_page.py [--requests 20] [--seed 1]

Targets: under 60 ms server time, a constant number of queries, under 40 KB on the
wire."""

import argparse
import gzip
import os
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.throwaway import throwaway_database  # noqa: E402

PLAYERS, PLANETS, TILES, AREAS, FLEETS, SHIPS = 64, 8, 732, 36, 200, 6
RADIUS = 5  # a planet is a hexagon of 91 tiles; the rest goes on the first planet's rim


def hexagon(radius: int) -> list[tuple[int, int]]:
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if abs(q + r) <= radius]


def build(rng: random.Random):
    """The league campaign in ``declare``; returns (campaign, a player, the admin user)."""
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Marker, MarkerType, Planet, Player, Round, Tile
    from fleets.models import Area, Fleet, FleetOrder, Ship
    from rules.dice import commitment, new_seed

    admin = User.objects.create(username="bench-admin")
    campaign = Campaign.objects.create(name="League", status="running")
    campaign.admins.add(admin)
    users = User.objects.bulk_create(User(username=f"bench{i}") for i in range(PLAYERS))
    players = Player.objects.bulk_create(
        Player(campaign=campaign, user=u, faction=f"Faction {i}",
               colour=f"#{rng.randrange(0x1000000):06x}") for i, u in enumerate(users))
    planets = Planet.objects.bulk_create(Planet(campaign=campaign, name=f"Planet {i}")
                                         for i in range(PLANETS))
    spots = [(planet, q, r) for planet in planets for q, r in hexagon(RADIUS)]
    spots += [(planets[0], q, r) for q, r in hexagon(RADIUS + 1)
              if max(abs(q), abs(r), abs(q + r)) == RADIUS + 1][:TILES - len(spots)]
    features = [[], [], [], ["mountain"], ["spaceport"], ["macropole", "defence"]]
    tiles = Tile.objects.bulk_create(
        Tile(campaign=campaign, planet=planet, q=q, r=r, features=rng.choice(features),
             owner=None if rng.random() < 0.2 else rng.choice(players),
             name=f"Hive {i}" if i % 9 == 0 else "")
        for i, (planet, q, r) in enumerate(spots))
    kinds = [MarkerType.objects.get_or_create(campaign=campaign, code=code,
                                              defaults={"name": name})[0]
             for code, name in (("manufactorum", "Manufactorum"),
                                ("shield_generator", "Shield generator"), ("relic", "Relic"))]
    Marker.objects.bulk_create(Marker(campaign=campaign, tile=t, type=rng.choice(kinds))
                               for t in rng.sample(tiles, 60))
    areas = _areas(campaign, planets, tiles, rng)
    fleets = Fleet.objects.bulk_create(
        Fleet(campaign=campaign, name=f"Fleet {i}", area=rng.choice(areas),
              owner=players[i % PLAYERS] if i % 25 else None,
              kind="regular" if i % 25 else "pirate") for i in range(FLEETS))
    Ship.objects.bulk_create(Ship(fleet=f, position=p, name=f"S{f.pk}.{p}", attack=3, defence=5,
                                  agility=3, capacity=2) for f in fleets
                             for p in range(1, SHIPS + 1))
    seed = new_seed()
    rnd = Round.objects.create(campaign=campaign, number=1, phase="declare", server_seed=seed,
                               seed_commitment=commitment(seed), phase_started_at=timezone.now())
    links = {a.pk: [b for b, in Area.adjacent.through.objects.filter(from_area=a)
                    .values_list("to_area_id")] for a in areas}
    FleetOrder.objects.bulk_create(
        FleetOrder(round=rnd, fleet=f, path=[rng.choice(links[f.area_id])])
        for f in fleets if f.owner_id and links[f.area_id])
    return campaign, players[1], admin


def _areas(campaign, planets, tiles, rng):
    from fleets.models import Area

    rows = [Area(campaign=campaign, name=f"Orbit {p.name}", kind="orbit", planet=p)
            for p in planets]
    rows += [Area(campaign=campaign, name=f"Coast {p.name}", kind="coastal") for p in planets]
    rows += [Area(campaign=campaign, name=f"Deep {i}", kind="ocean") for i in range(16)]
    rows += [Area(campaign=campaign, name=f"Isle {i}", kind="island") for i in range(4)]
    areas = Area.objects.bulk_create(rows[:AREAS])
    through = Area.adjacent.through
    pairs = set()
    ring = areas[2 * PLANETS:]
    for i, area in enumerate(ring):
        pairs.add((area.pk, ring[(i + 1) % len(ring)].pk))
    for i in range(PLANETS):
        pairs.add((areas[i].pk, areas[PLANETS + i].pk))
        pairs.add((areas[PLANETS + i].pk, ring[2 * i].pk))
    through.objects.bulk_create(through(from_area_id=a, to_area_id=b)
                                for x, y in pairs for a, b in ((x, y), (y, x)))
    by_planet = {}
    for tile in tiles:
        by_planet.setdefault(tile.planet_id, []).append(tile)
    Area.borders_tiles.through.objects.bulk_create(
        Area.borders_tiles.through(area_id=areas[PLANETS + i].pk, tile_id=t.pk)
        for i, p in enumerate(planets) for t in rng.sample(by_planet[p.pk], 6))
    return areas


def measure(client, url: str, requests: int) -> dict:
    client.get(url)  # warm up: the session, translations, template loading
    times, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    with CaptureQueriesContext(connection) as queries:
        plain = client.get(url)
    assert plain.status_code == 200, plain.status_code
    raw = plain.content
    wire = response.content if response.get("Content-Encoding") == "gzip" else None
    return {"ms": statistics.median(times) * 1000, "best": min(times) * 1000,
            "cpu": statistics.median(cpu) * 1000,
            "queries": len(queries), "raw": len(raw),
            "wire": len(wire) if wire is not None else None,
            "gzip": len(gzip.compress(raw, compresslevel=6))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from django.test import Client

    warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise, no collectstatic

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    with throwaway_database():
        campaign, player, admin = build(random.Random(args.seed))
        url = f"/campaigns/{campaign.pk}/map/"
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; CPU: this "
              "process's processor time, less disturbed by other work on the machine")
        print(f"map page: {PLAYERS} players, {TILES} tiles on {PLANETS} planets, {AREAS} areas, "
              f"{FLEETS} fleets x {SHIPS} ships, declare ({connection.vendor}), "
              f"median of {args.requests} requests")
        for who, user in (("player", player.user), ("admin", admin)):
            client = Client()
            client.force_login(user)
            got = measure(client, url, args.requests)
            wire = "not compressed" if got["wire"] is None else f"{got['wire'] / 1024:.1f} KB"
            print(f"  {who:<7} {got['ms']:6.1f} ms (best {got['best']:.1f}, CPU {got['cpu']:.1f})  "
                  f"{got['queries']} queries  {got['raw'] / 1024:.1f} KB raw  "
                  f"on the wire {wire} (gzip -6: {got['gzip'] / 1024:.1f} KB)")


if __name__ == "__main__":
    main()
