"""Benchmark: resolve one fleets phase of 200 fleets x 6 ships over 60 areas (R-FLT-6, R-INT,
R-SEA-2, R-INT-6) on the configured database (``DATABASE_URL``), printing the seconds and the
SQL queries of the phase job. The data lives in a throwaway test database that is dropped
afterwards.

    .venv/bin/python bench/fleet_phase.py [--fleets 200] [--ships 6] [--areas 60] [--seed 1]
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.throwaway import throwaway_database  # noqa: E402

WIDTH = 6  # the areas form a grid WIDTH wide; each borders its four neighbours
PLAYERS = 10


def build(fleets: int, ships: int, areas: int, rng: random.Random):
    """A campaign in its fleets phase: players with tiles, a grid of sea areas (coasts, orbits,
    islands), hazards, fleets with crews and cargo, and a movement order for most fleets."""
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Planet, Player, Round, Tile
    from fleets.models import Area, Fleet, FleetOrder, SeaHazard, Ship
    from rules.dice import commitment, new_seed

    campaign = Campaign.objects.create(name="Bench", ruleset={"max_battle_rounds": 6})
    players = [Player.objects.create(campaign=campaign, faction=f"F{i}",
                                     user=User.objects.create(username=f"bench{i}"))
               for i in range(PLAYERS)]
    planets = [Planet.objects.create(campaign=campaign, name=f"P{i}") for i in range(4)]
    tiles = Tile.objects.bulk_create(
        Tile(campaign=campaign, planet=planets[i % 4], q=i, r=0, owner=players[i % PLAYERS])
        for i in range(40))
    kinds = ["ocean", "ocean", "ocean", "coastal", "island"]
    rows = []
    for i in range(areas):
        kind = "orbit" if i < 4 else rng.choice(kinds)
        rows.append(Area(campaign=campaign, name=f"A{i}", kind=kind,
                         planet=planets[i] if kind == "orbit" else None,
                         owner=rng.choice(players) if kind == "island" else None))
    made = Area.objects.bulk_create(rows)
    graph = {a.pk: set() for a in made}
    through = Area.adjacent.through
    pairs = []
    for i, area in enumerate(made):
        for j in (i + 1, i + WIDTH):
            if j < areas and (j == i + WIDTH or j % WIDTH):
                pairs += [(area.pk, made[j].pk), (made[j].pk, area.pk)]
                graph[area.pk].add(made[j].pk)
                graph[made[j].pk].add(area.pk)
    through.objects.bulk_create(through(from_area_id=a, to_area_id=b) for a, b in pairs)
    Area.borders_tiles.through.objects.bulk_create(
        Area.borders_tiles.through(area_id=a.pk, tile_id=rng.choice(tiles).pk)
        for a in made if a.kind == "coastal")
    SeaHazard.objects.bulk_create(
        SeaHazard(campaign=campaign, area=rng.choice(made), name=f"H{i}", attack=3,
                  defence=4, agility=2) for i in range(areas // 3))
    stances = ["approach", "hold", "withdraw", "auto"]
    fleet_rows = []
    for i in range(fleets):
        pirate = i % 25 == 0
        fleet_rows.append(Fleet(
            campaign=campaign, name=f"Fleet {i}", area=rng.choice(made),
            owner=None if pirate else players[i % PLAYERS],
            kind="pirate" if pirate else rng.choice(["regular"] * 6 + ["buccaneer", "treasure"]),
            admiral_rating=rng.randint(0, 3),
            standing_orders={"interception": rng.choice(["always", "if_stronger", "never"]),
                             "benefits": rng.sample("abcd", 4), "stance": rng.choice(stances)}))
    fleet_objs = Fleet.objects.bulk_create(fleet_rows)
    Ship.objects.bulk_create(
        Ship(fleet=fleet, position=p, name=f"S{fleet.pk}.{p}", attack=rng.randint(1, 6),
             defence=rng.randint(3, 9), agility=rng.randint(2, 5), capacity=2,
             crew=[{"name": "Captain", "cp": rng.choice([6, 12, 18])},
                   {"name": "Mate", "cp": rng.choice([0, 6])}],
             cargo=[{"name": "Troops", "points": 500}] if p == 1 else [])
        for fleet in fleet_objs for p in range(1, ships + 1))
    seed = rng.randbytes(len(new_seed()))  # the same battles in every run of one --seed
    rnd = Round.objects.create(campaign=campaign, number=1, phase="fleets", server_seed=seed,
                               seed_commitment=commitment(seed), phase_started_at=timezone.now())
    orders = []
    for fleet in fleet_objs:
        if fleet.owner_id is None or rng.random() < 0.2:
            continue
        path, here = [], fleet.area_id
        for _ in range(rng.randint(1, 3)):
            options = sorted(graph[here] - set(path) - {fleet.area_id})
            if not options:
                break
            here = rng.choice(options)
            path.append(here)
        orders.append(FleetOrder(round=rnd, fleet=fleet, path=path))
    FleetOrder.objects.bulk_create(orders)
    return rnd, len(orders)


def copy_reference(rnd) -> float:
    """Seconds to COPY (bulk_create where there is no COPY) the naval battle and dice rows the
    job wrote (the reference), into a round that is rolled back afterwards."""
    from django.db import transaction

    from campaigns.bulk import insert_rows
    from campaigns.models import DiceRoll, Round
    from fleets.models import NavalBattle

    battles = list(NavalBattle.objects.filter(round=rnd))
    rolls = list(DiceRoll.objects.filter(round=rnd))
    with transaction.atomic():
        other = Round.objects.create(campaign=rnd.campaign, number=rnd.number + 1)
        for row in [*battles, *rolls]:
            row.pk, row.round = None, other
        start = time.perf_counter()
        insert_rows(NavalBattle, battles, copy=connection.vendor == "postgresql")
        insert_rows(DiceRoll, rolls, copy=connection.vendor == "postgresql")
        seconds = time.perf_counter() - start
        transaction.set_rollback(True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fleets", type=int, default=200)
    parser.add_argument("--ships", type=int, default=6)
    parser.add_argument("--areas", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--orm", action="store_true",
                        help="store with bulk_create/bulk_update, not COPY")
    args = parser.parse_args()
    import campaigns.bulk

    campaigns.bulk.FAST = not args.orm
    from fleets.models import FleetPhase, NavalBattle
    from fleets.services.phase import fleet_phase_resolve

    with throwaway_database():
        rnd, orders = build(args.fleets, args.ships, args.areas, random.Random(args.seed))
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            fleet_phase_resolve(round=rnd)
            seconds = time.perf_counter() - start
        record = FleetPhase.objects.get(round=rnd)
        battles = NavalBattle.objects.filter(round=rnd).count()
        moves = sum(1 for e in record.events if e["step"] == "move")
        print(f"fleet phase: {args.fleets} fleets x {args.ships} ships, {args.areas} areas, "
              f"{orders} orders ({connection.vendor}{', ORM inserts' if args.orm else ''})")
        print(f"  seconds      {seconds:.3f}")
        print(f"  SQL queries  {len(queries)}")
        print(f"  moves {moves}, battles {battles}, dice drawn {record.dice_count}, "
              f"events {len(record.events)}")
        reference = copy_reference(rnd)
        # the COPY target needs PostgreSQL (bench/league.py measures it there)
        copy = connection.vendor == "postgresql"
        way, note = ("COPY", "target: within 3x") if copy else (
            "bulk_create", f"no COPY on {connection.vendor}")
        print(f"  {way} of the battle and dice rows it wrote {reference:.3f} s; "
              f"job / {way} {seconds / reference:.1f}x ({note})")


if __name__ == "__main__":
    main()
