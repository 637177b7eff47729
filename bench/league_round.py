"""One whole round of the league world through the services (the league table's service rows), each
figure in-process: declare -> fleets -> lists -> battles -> conquest -> closed. The automatic
work (every phase's end, job and start steps) is timed per transition; the players' actions
(an attack declaration, a chain decision, a conquest choice) are timed as the median of
``reps`` calls, each rolled back so every call meets the same state. ``on_battles`` runs in
the battles phase, with results entered: the HTTP measurements go there."""

import statistics
import time
from collections import defaultdict
from contextlib import contextmanager

from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext


class _Undo(Exception):
    pass


# The players' actions (and the declaration's one-row insert) are timed after untimed calls:
# a server's connections are long-lived, and PostgreSQL plans each of the first five runs of a
# prepared statement anew (the declaration's: campaigns/prepared.py).
WARM_UP = 10


def rolled_back(work, reps: int, setup=None) -> float:
    """Median ms of ``work()`` over ``reps`` calls after ``WARM_UP`` untimed ones, each in a
    transaction rolled back."""
    times = []
    for _ in range(WARM_UP + reps):
        try:
            with transaction.atomic():
                state = setup() if setup else None
                start = time.perf_counter()
                work(state) if setup else work()
                times.append(time.perf_counter() - start)  # the warm-up's are dropped
                raise _Undo
        except _Undo:
            pass
    return statistics.median(times[WARM_UP:]) * 1000


@contextmanager
def counted_openings(into: dict):
    """Count the queries of each phase's start steps (league/phases.py TABLE), by phase."""
    from league.phases import TABLE, Phase

    saved = dict(TABLE)

    def counting(phase, step):
        def run(**kwargs):
            with CaptureQueriesContext(connection) as queries:
                result = step(**kwargs)
            into[phase] = into.get(phase, 0) + len(queries)
            return result
        return run

    for phase, row in saved.items():
        TABLE[phase] = Phase(start=tuple(counting(phase, s) for s in row.start),
                             job=row.job, end=row.end)
    try:
        yield into
    finally:
        TABLE.update(saved)


def _advance(rnd, figures: dict, label: str, entered: str, job: bool = False):
    """One transition, timed. The queries of work run after its commit (the mail the opening
    enqueued, eager without a broker) count for the phase ``entered``."""
    from league.services import rounds

    start = time.perf_counter()
    with CaptureQueriesContext(connection) as everything, transaction.atomic():
        if job:
            rounds.round_run_phase_job(round_id=rnd.pk, phase=rnd.phase)
        else:
            rounds.round_advance(round_id=rnd.pk, expected_phase=rnd.phase)
        inside = len(everything)
    figures["transitions"][label] = time.perf_counter() - start
    after = figures["after_commit"]
    after[entered] = after.get(entered, 0) + len(everything) - inside
    rnd.refresh_from_db()
    return rnd


def play(world, reps: int, on_battles) -> dict:
    """The round, measured; returns the figures (ms unless named ``_s``)."""
    from league.services import rounds

    rounds._schedule_phase_job = lambda rnd: None  # the benchmark runs the fleets job itself
    figures = {"transitions": {}, "openings": {}, "after_commit": {}}
    rnd = world.rnd
    figures.update(declaration(world, reps))
    with counted_openings(figures["openings"]):
        rnd = _advance(rnd, figures, "declare end, fleets start", "fleets")
        before = _max_pks()
        rnd = _advance(rnd, figures, "fleets job + lists opening", "lists", job=True)
        figures.update(copy_compare(_new_rows(before)))
        rnd = _advance(rnd, figures, "lists end, battles opening", "battles")
        figures["results_entered"] = enter_results(world, rnd)
        figures["chain_ms"] = chain_decision(rnd, reps)
        on_battles()
        rnd = _advance(rnd, figures, "battles end, conquest opening", "conquest")
        figures["conquest_ms"] = conquest_choice(rnd, reps)
        rnd = _advance(rnd, figures, "conquest end, round closed, next declare",
                       "declare")
    figures["round_s"] = sum(figures["transitions"].values())
    return figures


def declaration(world, reps: int) -> dict:
    """An attack declaration on a legal target (R-ATK-1) vs a one-row insert of an Attack."""
    from battles.services.attacks import attack_declare, purchase_create
    from campaigns.models import Attack, Player

    player, tile = _legal_target(world)
    player = Player.objects.get(pk=player.pk)

    def buy():
        purchase_create(player=player, round=world.rnd, attack_armies=1)

    def declare(_):
        attack_declare(player=player, round=world.rnd, tile=tile)

    def insert():
        Attack.objects.create(round=world.rnd, player=player, tile=tile, source="adjacent",
                              order=100_000)

    declare_ms, insert_ms = rolled_back(declare, reps, setup=buy), rolled_back(insert, reps)
    with transaction.atomic():
        buy()
        with CaptureQueriesContext(connection) as queries:
            attack_declare(player=player, round=world.rnd, tile=tile)
        transaction.set_rollback(True)
    return {"declare_ms": declare_ms, "insert_ms": insert_ms,
            "declare_queries": len(queries)}


def _legal_target(world):
    """A (player, tile) the player may declare an attack on now."""
    from battles.services.attacks import attack_declare, purchase_create
    from campaigns.errors import Conflict, RuleViolation
    from campaigns.models import Attack, Player, Tile

    tiles = {(t.planet_id, t.q, t.r): t for t in Tile.objects.filter(campaign=world.campaign)}
    attacked = set(Attack.objects.filter(round=world.rnd).values_list("player_id", "tile_id"))
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    for player in Player.objects.filter(campaign=world.campaign).order_by("pk"):
        own = [t for t in tiles.values() if t.owner_id == player.pk]
        for t in own:
            for dq, dr in steps:
                target = tiles.get((t.planet_id, t.q + dq, t.r + dr))
                if target is None or target.owner_id == player.pk \
                        or (player.pk, target.pk) in attacked:
                    continue
                try:
                    with transaction.atomic():
                        purchase_create(player=player, round=world.rnd, attack_armies=1)
                        attack_declare(player=player, round=world.rnd, tile=target)
                        transaction.set_rollback(True)
                    return player, target
                except (Conflict, RuleViolation):
                    continue
    raise RuntimeError("no legal attack target in the bench world")


def enter_results(world, rnd) -> int:
    """The admin enters victories: every chain's first link and every other single battle."""
    from battles.models import Battle
    from battles.services.results import battle_result_enter
    from campaigns.errors import Conflict, RuleViolation

    entered = 0
    battles = Battle.objects.filter(round=rnd).order_by("pk")
    for i, battle in enumerate(battles):
        first_link = battle.chain_length > 1 and battle.chain_position == 1
        if not first_link and (battle.chain_length > 1 or i % 2):
            continue
        try:
            battle_result_enter(battle=battle, by_admin_user=world.admin, outcome="victory",
                                attacker_vp=10, defender_vp=2)
            entered += 1
        except (Conflict, RuleViolation):
            pass
    return entered


def chain_decision(rnd, reps: int) -> float | None:
    from battles.models import Battle
    from battles.selectors.chains import needs_decision
    from battles.services.chains import chain_decide

    waiting = [b for b in Battle.objects.filter(round=rnd, chain_position=1,
                                                chain_length__gt=1).select_related("attacker")
               if needs_decision(b)]
    if not waiting:
        return None
    battle = waiting[0]
    return rolled_back(lambda: chain_decide(battle=battle, player=battle.attacker, roll=True),
                       reps)


def conquest_choice(rnd, reps: int) -> float | None:
    """The player with the most won attacks seals a choice rolling them all (R-CON-4)."""
    from battles.selectors.conquest import won_attacks
    from battles.services.conquest import conquest_choose
    from campaigns.models import Player

    won = defaultdict(list)
    for attack, _ in won_attacks(rnd):
        won[attack.player].append(attack.id)
    if len(won) < 2:
        return None
    most = max(won, key=lambda p: len(won[p]))
    player = Player.objects.get(pk=getattr(most, "pk", most))  # the rules' won attack: an id
    return rolled_back(lambda: conquest_choose(player=player, rnd=rnd, roll=won[most]), reps)


# --- the fleets job's rows: bulk_create and COPY of the same rows -----------------------------

def _models():
    return [m for m in apps.get_models(include_auto_created=True)
            if m._meta.pk.get_internal_type() in ("AutoField", "BigAutoField")]


def _max_pks() -> dict:
    from django.db.models import Max

    return {m: m.objects.aggregate(n=Max("pk"))["n"] or 0 for m in _models()}


def _new_rows(before: dict) -> dict:
    rows = {m: list(m.objects.filter(pk__gt=n)) for m, n in before.items()}
    return {m: objs for m, objs in rows.items() if objs}


def copy_compare(rows: dict) -> dict:
    """Seconds to write the rows the fleets job and the lists opening wrote, again: by
    bulk_create and by COPY (PostgreSQL, psycopg), each after deleting them in a transaction
    that is rolled back (foreign keys are deferred until commit)."""
    figures = {"job_rows": sum(len(o) for o in rows.values()),
               "job_tables": ", ".join(sorted(f"{m._meta.db_table} {len(o)}"
                                              for m, o in rows.items()))}
    figures["bulk_create_s"] = _rewrite(rows, _bulk_create)
    if connection.vendor == "postgresql":
        figures["copy_s"] = _rewrite(rows, _copy)
    return figures


def _rewrite(rows: dict, write) -> float:
    try:
        with transaction.atomic():
            for model, objs in rows.items():
                model.objects.filter(pk__in=[o.pk for o in objs])._raw_delete(connection.alias)
            start = time.perf_counter()
            for model, objs in rows.items():
                write(model, objs)
            seconds = time.perf_counter() - start
            raise _Undo
    except _Undo:
        return seconds


def _bulk_create(model, objs) -> None:
    model.objects.bulk_create(objs)


def _copy(model, objs) -> None:
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN") as copy:
        for obj in objs:
            copy.write_row([f.get_db_prep_save(getattr(obj, f.attname), connection)
                            for f in fields])
