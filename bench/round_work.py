"""Benchmark: the automatic work of one whole round - every step of the phase table
(league/phases.py) and the mail each phase opening hands out - for leagues of two sizes, with
the seconds and SQL queries of each step, so growth with the league is visible. Each player
owns a row of tiles and attacks the next player's first tile. Runs on ``DATABASE_URL`` in a
throwaway test database; Celery runs eagerly, mail goes to memory.

    .venv/bin/python bench/round_work.py [--sizes 16 64] [--orm]
"""

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("REDIS_URL", None)  # eager tasks: the mail is sent inside the measured step

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.throwaway import throwaway_database  # noqa: E402

COSTS: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])


def timed(step, label: str):
    def run(**kwargs):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            out = step(**kwargs)
            COSTS[label][0] += time.perf_counter() - start
        COSTS[label][1] += len(queries)
        return out
    return run


def instrument() -> None:
    """Wrap every step of the phase table so it reports its own cost."""
    from league import phases

    for name, phase in list(phases.TABLE.items()):
        phases.TABLE[name] = phases.Phase(**{
            part: tuple(timed(s, f"{name} {part}: {s.__name__}") for s in getattr(phase, part))
            for part in ("start", "job", "end")})


def build(size: int):
    from django.contrib.auth.models import User

    from battles.services.attacks import attack_declare, purchase_create
    from campaigns.models import Campaign, Planet, Player, Tile
    from league.services.rounds import campaign_start

    campaign = Campaign.objects.create(name=f"Bench {size}")
    players = [Player.objects.create(campaign=campaign, faction=f"F{i}", requisition=10,
                                     user=User.objects.create(username=f"b{size}-{i}",
                                                              email=f"b{size}-{i}@example.org"))
               for i in range(size)]
    planet = Planet.objects.create(campaign=campaign, name="Alpha")
    Tile.objects.bulk_create(Tile(campaign=campaign, planet=planet, q=3 * i + k, r=0,
                                  owner=player)
                             for i, player in enumerate(players) for k in range(3))
    rnd = campaign_start(campaign=campaign)
    for i, player in enumerate(players[:-1]):
        purchase_create(player=player, round=rnd, attack_armies=1)
        attack_declare(player=player, round=rnd,
                       tile=Tile.objects.get(planet=planet, q=3 * i + 3))
    return rnd


def whole_round(rnd) -> tuple[float, int]:
    from campaigns.models import Round
    from league.services.rounds import round_advance, round_run_phase_job
    from rules.rounds import AUTOMATIC

    COSTS.clear()
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        while rnd.phase != Round.Phase.CLOSED:
            if rnd.phase in AUTOMATIC:
                round_run_phase_job(round_id=rnd.pk, phase=rnd.phase)
            else:
                round_advance(round_id=rnd.pk, expected_phase=rnd.phase)
            rnd.refresh_from_db()
    return time.perf_counter() - start, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--orm", action="store_true", help="bulk_create/bulk_update, no COPY")
    args = parser.parse_args()
    from django.core import mail

    import campaigns.bulk

    campaigns.bulk.FAST = not args.orm
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    instrument()
    with throwaway_database():
        for size in args.sizes:
            rnd = build(size)
            sent = len(mail.outbox)
            seconds, queries = whole_round(rnd)
            print(f"whole round, {size} players, {size - 1} attacks ({connection.vendor}): "
                  f"{seconds:.3f} s, {queries} queries, {len(mail.outbox) - sent} mails")
            for label, (spent, count) in COSTS.items():
                print(f"  {label:<55} {spent * 1000:8.1f} ms {count:5d} queries")


if __name__ == "__main__":
    main()
