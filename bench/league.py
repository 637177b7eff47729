"""Benchmark: the league at two sizes. Builds the league-scale campaign (64 players:
732 tiles, 200 fleets of 6 ships, 300 declarations; scaled down for the smaller size) in a
throwaway PostgreSQL database, plays a whole round through the services and measures the pages
and the API under gunicorn (2 sync workers, DEBUG off, production's settings and DATABASES)
against floor views measured in the same run (one ``.values()`` query as a JsonResponse; they
live only in ``bench/league_urls.py``). Prints every row of the issue's table with its
reference, ratio, target and "met"/"NOT met", and the load average at start and end. Figures
only.

    .venv/bin/python bench/league.py [--sizes 16 64] [--quick] [--seconds 2] [--reps 25]

The database: ``DATABASE_URL`` when it names PostgreSQL, else postgres@127.0.0.1:5432; a
database ``feldzug_bench_<pid>`` is created beside it and dropped afterwards. ``REDIS_URL`` is
ignored: background tasks run eagerly, the cache is each process's memory."""

import argparse
import json
import logging
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
    os.environ["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/feldzug_bench"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# No Redis, here and in gunicorn: tasks run eagerly (the opening's mail is counted with it) and
# nothing is cached under this throwaway database's ids in a shared Redis
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from bench import league_http as web  # noqa: E402
from bench.league_report import report  # noqa: E402
from bench.league_round import play  # noqa: E402
from bench.league_world import build  # noqa: E402

# name, path (after the campaign's id where it has one), floor, target ratio
ENDPOINTS = (
    ("map page", "/campaigns/{c}/map/", "tiles/", 0.35),
    ("standings page", "/campaigns/{c}/standings/", "players/", 0.5),
    ("home page", "/", None, 0.5),
    ("API standings", "/api/v1/campaigns/{c}/standings/", "players/", 0.7),
    ("API map", "/api/v1/campaigns/{c}/map/", "tiles/", 0.7),
    ("API battles list", "/api/v1/campaigns/{c}/battles/", "battles/", 0.7),
    ("API battles page_size=500", "/api/v1/campaigns/{c}/battles/?page_size=500",
     "battles/?page_size=500", 0.7),
    ("API campaign detail", "/api/v1/campaigns/{c}/", "campaign/", 0.8),
    ("API rounds list", "/api/v1/campaigns/{c}/rounds/", "rounds/", 0.8),
)


def floor_path(campaign_id: int, floor: str | None) -> str:
    return "/floor/campaigns/" if floor is None else f"/floor/{campaign_id}/{floor}"


def measure_http(server, world, args) -> dict:
    """Throughput and latency of every endpoint and of its floor, measured alternately, and
    the map page's bytes on the wire."""
    from django.test import Client

    client = Client()
    client.force_login(world.player.user)
    cookies = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
    c, out = world.campaign.pk, {}
    for name, path, floor, _ in ENDPOINTS:
        path, floor = path.format(c=c), floor_path(c, floor)
        for url in (path, floor):
            web.check(server, url, cookies)
        out[name] = web.paired(server, path, floor, cookies, args.seconds, args.latency)
    out["map wire"] = web.wire_bytes(server, f"/campaigns/{c}/map/", cookies)
    return out


def test_database_url(name: str) -> str:
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{name}"))


def one_size(players: int, args) -> dict:
    name = f"feldzug_bench_{os.getpid()}"
    connection.settings_dict["TEST"]["NAME"] = name
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    server = None
    try:
        start = time.perf_counter()
        world = build(players, seed=args.seed)
        built = time.perf_counter() - start
        with connection.cursor() as cursor:  # the planner's statistics, which a live league's
            cursor.execute("ANALYZE")  # database has (autovacuum) and a bulk-built one lacks
        server = web.Server(test_database_url(name), settings.SECRET_KEY)
        print(f"  {players} players: gunicorn on config.production's DATABASES "
              f"{server.database_settings()}", flush=True)
        http = {}
        figures = play(world, args.reps, lambda: http.update(measure_http(server, world, args)))
        figures.update(http=http, build_s=built)
        return figures
    finally:
        if server is not None:
            server.stop()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def odds(repeat: int) -> dict:
    """Seconds of a 10,000-battle preview per engine: the sources, and the compiled build."""
    builds = {"sources": None}
    if (ROOT / "build" / "compiled").exists():
        builds["compiled"] = str(ROOT / "build" / "compiled")
    out = {}
    for label, path in builds.items():
        env = dict(os.environ)
        if path:
            env["PYTHONPATH"] = path
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "league_odds.py"),
                               str(repeat)], env=env, capture_output=True, text=True,
                              check=True)
        out[label] = json.loads(done.stdout)["seconds"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, shorter runs")
    parser.add_argument("--seconds", type=float, help="throughput window per URL (2; quick 1)")
    parser.add_argument("--latency", type=int, help="requests per latency figure (10; quick 5)")
    parser.add_argument("--reps", type=int, help="calls per action figure (25; quick 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.seconds = args.seconds or (1.0 if args.quick else 2.0)
    args.latency = args.latency or (5 if args.quick else 10)
    args.reps = args.reps or (5 if args.quick else 25)
    warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise, no collectstatic
    logging.getLogger("celery").setLevel(logging.WARNING)  # eager tasks log every call
    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    load_start, started = os.getloadavg(), time.perf_counter()
    print(f"league benchmark: sizes {args.sizes} players, {os.cpu_count()} cores, "
          f"PostgreSQL, gunicorn 2 sync workers on production settings (bench/settings.py); "
          f"throughput {args.seconds:g} s per URL at 4 clients and latency median of "
          f"{args.latency} at 1 connection, each endpoint alternating with its floor; services "
          f"median of {args.reps} (in-process)")
    print("load average at start: " + " ".join(f"{x:.2f}" for x in load_start), flush=True)
    sizes = {}
    for players in args.sizes:
        sizes[players] = one_size(players, args)
        print(f"  {players} players done ({time.perf_counter() - started:.0f} s)", flush=True)
    engines = odds(1 if args.quick else 2)
    report(sizes, engines, ENDPOINTS)
    print("load average at end: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f"; the benchmark took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
