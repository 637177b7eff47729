"""Benchmark: the per-action rows of the league speed table - an attack declaration, a
conquest choice and a chain decision - at several league sizes. Each must cost the same
whatever the league's size (constant queries and time); the declaration within 3x a one-row insert.

The league: P players on P/8 planets of 91 tiles (hexagons of radius 5), 80% of the tiles held,
60 markers, 4 declarations per player. Each action is timed through its service, median of
``--repeat`` calls; the queries are those of one call. A declaration is timed as
``bench/league_round.py`` times it (rolled back, against a rolled-back insert of its row,
inside a transaction: no BEGIN/COMMIT on either side); a choice and a chain decision on
distinct players/battles (a choice is sealed once). The data lives in a throwaway test
database dropped afterwards.

    .venv/bin/python bench/actions.py [--players 16 64 128] [--repeat 10] [--seed 1]
"""

import argparse
import os
import random
import statistics
import sys
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.league_round import WARM_UP  # noqa: E402 (untimed calls first: it says why)
from bench.throwaway import throwaway_database  # noqa: E402

RADIUS = 5
ATTACKS_PER_PLAYER = 4


def hexagon(radius: int) -> list[tuple[int, int]]:
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if abs(q + r) <= radius]


def build_map(n_players: int, rng: random.Random, phase: str):
    """A campaign with its map and round 1 in ``phase``; returns (campaign, players, round)."""
    from django.contrib.auth.models import User

    from campaigns.models import Campaign, Marker, MarkerType, Planet, Player, Round, Tile
    from rules.dice import commitment, new_seed

    tag = f"{phase}{n_players}"
    campaign = Campaign.objects.create(name=f"League {tag}", status="running")
    users = User.objects.bulk_create(User(username=f"b{tag}-{i}") for i in range(n_players))
    players = Player.objects.bulk_create(
        Player(campaign=campaign, user=u, faction=f"F{i}", requisition=100,
               colour=f"#{rng.randrange(0x1000000):06x}") for i, u in enumerate(users))
    planets = Planet.objects.bulk_create(Planet(campaign=campaign, name=f"Planet {i}")
                                         for i in range(max(2, n_players // 8)))
    features = [[], [], [], ["mountain"], ["spaceport"], ["macropole", "defence"]]
    tiles = Tile.objects.bulk_create(
        Tile(campaign=campaign, planet=planet, q=q, r=r, features=rng.choice(features),
             owner=None if rng.random() < 0.2 else rng.choice(players))
        for planet in planets for q, r in hexagon(RADIUS))
    kinds = [MarkerType.objects.get_or_create(campaign=campaign, code=code,
                                              defaults={"name": code})[0]
             for code in ("manufactorum", "shield_generator")]
    Marker.objects.bulk_create(Marker(campaign=campaign, tile=t, type=rng.choice(kinds))
                               for t in rng.sample(tiles, 60))
    seed = new_seed()
    rnd = Round.objects.create(campaign=campaign, number=1, phase=phase, server_seed=seed,
                               seed_commitment=commitment(seed), phase_started_at=timezone.now())
    return campaign, players, rnd, tiles


def targets(tiles, players, rng, per_player: int, exclude=()):
    """(player, tile) pairs: tiles held by someone else, distinct per player."""
    taken = set(exclude)
    pairs = []
    for player in players:
        pool = [t for t in tiles if t.owner_id not in (None, player.pk)
                and (player.pk, t.pk) not in taken]
        for t in rng.sample(pool, per_player):
            pairs.append((player, t))
            taken.add((player.pk, t.pk))
    return pairs


def declare_world(n: int, rng):
    from campaigns.models import Attack, Purchase

    campaign, players, rnd, tiles = build_map(n, rng, "declare")
    Purchase.objects.bulk_create(Purchase(round=rnd, player=p, attack_armies=10, cost=10)
                                 for p in players)
    pairs = targets(tiles, players, rng, ATTACKS_PER_PLAYER)
    Attack.objects.bulk_create(Attack(round=rnd, player=p, tile=t, source="adjacent",
                                      order=i + 1) for i, (p, t) in enumerate(pairs))
    return rnd, players, tiles


def conquest_world(n: int, rng):
    """Every player has ATTACKS_PER_PLAYER won attacks (confirmed victories)."""
    from battles.models import Battle
    from campaigns.models import Attack

    campaign, players, rnd, tiles = build_map(n, rng, "conquest")
    per_tile: dict[int, int] = {}
    pairs = []
    for player, t in targets(tiles, players, rng, ATTACKS_PER_PLAYER * 3):
        if t.pk not in per_tile and len([p for p, _ in pairs if p is player]) \
                < ATTACKS_PER_PLAYER:
            per_tile[t.pk] = 1
            pairs.append((player, t))
    attacks = Attack.objects.bulk_create(
        Attack(round=rnd, player=p, tile=t, source="adjacent", order=i + 1)
        for i, (p, t) in enumerate(pairs))
    Battle.objects.bulk_create(
        Battle(campaign=campaign, round=rnd, attack=a, tile=t, attacker=p, defender_id=t.owner_id,
               status="done", outcome="victory", result_status="confirmed",
               confirmed_at=timezone.now())
        for a, (p, t) in zip(attacks, pairs, strict=True))
    by_player: dict[int, list[int]] = {}
    for a in attacks:
        by_player.setdefault(a.player_id, []).append(a.pk)
    return rnd, players, by_player


def chain_world(n: int, rng):
    """Chains of three attackers on one held tile each; link 1 is a confirmed victory whose
    attacker has to decide (R-CON-6), links 2 and 3 wait."""
    from battles.models import Battle
    from campaigns.models import Attack

    campaign, players, rnd, tiles = build_map(n, rng, "battles")
    held = [t for t in tiles if t.owner_id]
    rng.shuffle(held)
    order, rows = 0, []
    owners = {}  # attackers hold tiles on the target's planet, as adjacent attackers do
    for t in held:
        owners.setdefault(t.planet_id, set()).add(t.owner_id)
    for t in held[:n]:
        attackers = rng.sample([p for p in players if p.pk != t.owner_id
                                and p.pk in owners[t.planet_id]], 3)
        for pos, p in enumerate(attackers, start=1):
            order += 1
            rows.append((Attack(round=rnd, player=p, tile=t, source="adjacent", order=order),
                         pos, t, p))
    attacks = Attack.objects.bulk_create(a for a, *_ in rows)
    now = timezone.now()
    battles = Battle.objects.bulk_create(
        Battle(campaign=campaign, round=rnd, attack=a, tile=t, attacker=p,
               defender_id=t.owner_id if pos == 1 else None, chain_position=pos,
               chain_length=3,
               status="done" if pos == 1 else "pending",
               outcome="victory" if pos == 1 else "",
               result_status="confirmed" if pos == 1 else "",
               confirmed_at=now if pos == 1 else None)
        for a, (_, pos, t, p) in zip(attacks, rows, strict=True))
    return rnd, [b for b in battles if b.chain_position == 1]


def timed(calls):
    """Median ms over ``calls`` (each a no-argument function): wall clock and this process's
    CPU (less disturbed by other work on the machine), and the queries of the first call."""
    times, cpu, queries = [], [], None
    for i, call in enumerate(calls):
        if i == 0:
            with CaptureQueriesContext(connection) as captured:
                call()
            queries = len(captured)
            if os.environ.get("BENCH_SQL"):
                print("\n".join(q["sql"][:160] for q in captured.captured_queries))
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000, queries


def rolled_back(call, setup=None, capture: bool = False):
    """((ms wall, ms CPU), queries or None) of ``call()`` in a transaction rolled back
    afterwards; ``setup()`` runs first in it, untimed. Queries are captured only when asked
    (capturing slows every query down)."""
    with transaction.atomic():
        if setup:
            setup()
        with CaptureQueriesContext(connection) if capture else nullcontext() as captured:
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            figures = ((time.perf_counter() - start) * 1000,
                       (time.process_time() - start_cpu) * 1000)
        transaction.set_rollback(True)
    return figures, len(captured) if capture else None


def measure_declare(n, rng, repeat):
    """An attack declaration on a legal target as ``bench/league_round.py`` times it: each
    call in a transaction rolled back, after buying the army it uses (untimed), against a
    rolled-back insert of the same Attack row (the issue's one-row insert). The two
    alternate, so the machine's load touches both alike."""
    from battles.selectors.legality import attack_check
    from battles.services.attacks import attack_declare, purchase_create
    from campaigns.models import Attack

    rnd, players, tiles = declare_world(n, rng)
    player = players[0]
    tile = next(t for t in rng.sample(tiles, len(tiles)) if attack_check(rnd, player, t).legal)

    def buy():
        purchase_create(player=player, round=rnd, attack_armies=1)

    def declare():
        attack_declare(player=player, round=rnd, tile=tile)

    def insert():
        Attack.objects.create(round=rnd, player=player, tile=tile, source="adjacent",
                              order=100_000)

    for _ in range(WARM_UP):
        rolled_back(declare, buy), rolled_back(insert)
    queries = (rolled_back(declare, buy, capture=True)[1], rolled_back(insert, capture=True)[1])
    runs = [(rolled_back(declare, buy)[0], rolled_back(insert)[0]) for _ in range(repeat)]
    return tuple((*(statistics.median(run[i][k] for run in runs) for k in (0, 1)), queries[i])
                 for i in (0, 1))


def measure_choice(n, rng, repeat):
    from battles.services.conquest import conquest_choose

    rnd, players, by_player = conquest_world(n, rng)
    choosers = [p for p in players if p.pk in by_player][:repeat + 1]
    return timed([lambda p=p: conquest_choose(player=p, rnd=rnd, roll=by_player[p.pk][:2])
                  for p in choosers])


def measure_chain(n, rng, repeat):
    from battles.models import Battle
    from battles.services.chains import chain_decide
    from campaigns.models import Player

    rnd, firsts = chain_world(n, rng)
    calls = []
    for battle in firsts[:repeat + 1]:
        def call(b=battle):
            fresh = Battle.objects.get(pk=b.pk)
            chain_decide(battle=fresh, player=Player(pk=b.attacker_id), roll=True)
        calls.append(call)
    return timed(calls)


def cell(figures) -> str:
    wall, cpu, queries = figures
    return f"{wall:6.2f} / {cpu:5.2f} / {queries:3d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[16, 64, 128])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings.DEBUG = False
    with throwaway_database():
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, "
              f"{connection.vendor}; median of {args.repeat} calls, queries of one call")
        print("ms wall / ms CPU / queries; ratio: declaration / one-row insert (wall, CPU)")
        print(f"{'players':>7} | {'declaration':>20} | {'one-row insert':>19} | "
              f"{'ratio':>10} | {'conquest choice':>20} | {'chain decision':>20}")
        for n in args.players:
            rng = random.Random(args.seed)
            decl, insert = measure_declare(n, rng, args.repeat)
            choice = measure_choice(n, rng, args.repeat)
            chain = measure_chain(n, rng, args.repeat)
            print(f"{n:>7} | {cell(decl)} | {cell(insert)} | {decl[0] / insert[0]:4.1f}x "
                  f"{decl[1] / insert[1]:4.1f}x | {cell(choice)} | {cell(chain)}")


if __name__ == "__main__":
    main()
