"""Benchmark: the API's read endpoints at league scale (issue 21's API rows): the map page's
league (bench/map_page.py: 64 players, 732 tiles, 200 fleets of 6 ships) plus 300 attack
declarations with their battles and four closed rounds. For each endpoint: server time per
request at one connection (Django's test client, in-process, DEBUG off), its SQL queries,
and the ratio to a floor measured in the same run: a minimal view returning the same rows
from one ``.values()`` query as a JsonResponse (it lives only here, not in the product's
URLs).

    .venv/bin/python bench/api_endpoints.py [--requests 30] [--profile standings]

Targets (issue 21): standings, map, battles list at least 0.7 of the floor; campaign detail
and rounds list at least 0.8."""

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
import types
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import clear_url_caches, include, path  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.map_page import build  # noqa: E402

DECLARATIONS, OLD_ROUNDS = 300, 4


def add_battles(campaign, rng):
    """300 declarations in round 1 (each with its battle) and closed rounds before it."""
    from battles.models import Battle
    from campaigns.models import Attack, Player, Round, Tile

    Round.objects.filter(campaign=campaign).update(number=OLD_ROUNDS + 1)
    rnd = Round.objects.get(campaign=campaign)
    Round.objects.bulk_create(
        Round(campaign=campaign, number=n, phase="closed", server_seed=rnd.server_seed,
              seed_commitment=rnd.seed_commitment, phase_started_at=timezone.now())
        for n in range(1, OLD_ROUNDS + 1))
    players = list(Player.objects.filter(campaign=campaign))
    tiles = rng.sample(list(Tile.objects.filter(campaign=campaign)), DECLARATIONS)
    attacks = Attack.objects.bulk_create(
        Attack(round=rnd, player=players[i % len(players)], tile=t, source="adjacent",
               order=i + 1) for i, t in enumerate(tiles))
    Battle.objects.bulk_create(
        Battle(campaign=campaign, round=rnd, attack=a, tile=a.tile, attacker=a.player,
               defender=a.tile.owner if a.tile.owner_id != a.player_id else None,
               neutral=a.tile.owner_id is None,
               point_limits={str(a.player_id): 1000}, bonus={str(a.player_id): {"tiles": 1}})
        for a in attacks)


def floors():
    """The floor views: the same rows, one ``.values()`` query each, as JSON."""
    from battles.models import Battle
    from campaigns.models import Campaign, Player, Round, Tile

    def standings(request, cid):
        rows = list(Player.objects.filter(campaign_id=cid).values(
            "id", "faction", "colour", "user__username"))
        return JsonResponse({"round": None, "rows": rows})

    def map_(request, cid):
        rows = list(Tile.objects.filter(campaign_id=cid).values(
            "id", "planet_id", "q", "r", "owner_id", "features", "name"))
        return JsonResponse({"tiles": rows})

    def battles(request, cid):
        size = int(request.GET.get("page_size", 50))
        rows = list(Battle.objects.filter(campaign_id=cid).order_by("id").values(
            "id", "round__number", "tile_id", "attacker_id", "defender_id", "neutral",
            "chain_position", "chain_length", "status", "point_limits", "bonus",
            "scheduled_at", "place", "outcome", "attacker_vp", "defender_vp")[:size])
        return JsonResponse({"results": rows})

    def detail(request, cid):
        return JsonResponse(Campaign.objects.filter(pk=cid).values()[0])

    def rounds(request, cid):
        rows = list(Round.objects.filter(campaign_id=cid).values(
            "id", "number", "phase", "phase_started_at", "seed_commitment"))
        return JsonResponse(rows, safe=False)

    return [path("floor/<int:cid>/standings/", standings), path("floor/<int:cid>/map/", map_),
            path("floor/<int:cid>/battles/", battles), path("floor/<int:cid>/", detail),
            path("floor/<int:cid>/rounds/", rounds)]


def install_floor_urls() -> None:
    urls = types.ModuleType("bench_floor_urls")
    urls.urlpatterns = [path("", include(settings.ROOT_URLCONF)), *floors()]
    sys.modules["bench_floor_urls"] = urls
    settings.ROOT_URLCONF = "bench_floor_urls"
    clear_url_caches()


def timed(client, url: str, requests: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds (CPU: this process's, less disturbed by other work on
    a shared machine, but without the database server's)."""
    client.get(url)
    times, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000


ROWS = (  # name, API path, floor path, target
    ("standings", "standings/", "standings/", 0.7),
    ("map", "map/", "map/", 0.7),
    ("battles list", "battles/", "battles/", 0.7),
    ("battles page_size=500", "battles/?page_size=500", "battles/?page_size=500", 0.7),
    ("campaign detail", "", "", 0.8),
    ("rounds list", "rounds/", "rounds/", 0.8),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="profile this row (its name) and print the top")
    args = parser.parse_args()
    from django.test import Client

    warnings.filterwarnings("ignore", message="No directory at")
    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
        k: "1000000/min" for k in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}
    install_floor_urls()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        rng = random.Random(args.seed)
        campaign, player, admin = build(rng)
        add_battles(campaign, rng)
        client = Client()
        client.force_login(player.user)
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
              f"({connection.vendor}, median of {args.requests} requests, a player)")
        for name, api, floor, target in ROWS:
            url = f"/api/v1/campaigns/{campaign.pk}/{api}"
            if args.profile == name:
                profile(client, url)
            ms, cpu = timed(client, url, args.requests)
            floor_ms, floor_cpu = timed(client, f"/floor/{campaign.pk}/{floor}", args.requests)
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            ratio = floor_ms / ms
            print(f"  {name:<22} {ms:7.1f} ms  floor {floor_ms:6.1f} ms  ratio {ratio:.2f} "
                  f"(target {target}) {'met' if ratio >= target else 'NOT met'}  "
                  f"CPU {cpu:6.1f} / {floor_cpu:5.1f} ms = {floor_cpu / cpu:.2f}  "
                  f"{len(queries)} queries")
            if os.environ.get("SQL"):
                for query in queries.captured_queries:
                    print("      ", query["sql"][:150])
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def profile(client, url: str) -> None:
    client.get(url)
    with cProfile.Profile() as prof:
        for _ in range(10):
            client.get(url)
    stats = pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative"))
    stats.print_stats(int(os.environ.get("TOP", "45")))


if __name__ == "__main__":
    main()
