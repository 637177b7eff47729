"""Would a declaration be legal now (R-ATK-1..3, R-ATK-6)? Asked by the map page when a player
clicks a tile, before anything is written, and by ``attack_declare`` under the round's lock;
both give ``rules.attacks.check_attack`` the same inputs, read by the same statement
(``state_statement``; ``declaration_state`` runs it alone).

a declaration costs about a one-row insert in any league. That statement reads
all the rules need in one statement, whose rows are the target and the declarer's own (its
tiles on that planet, its declarations and purchases this round). It is SQL rather than an ORM
query because compiling the equivalent queryset costs the ORM more than the insert it guards;
it names the tables through the models' metadata and runs on PostgreSQL and SQLite alike."""

import json
from dataclasses import dataclass, replace
from functools import cache

from battles.messages import rule_text
from campaigns.models import Attack, Planet, Player, Purchase, Round, Tile, TileLink
from campaigns.prepared import Statement, run_prepared
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import orbit_info
from rules import board as rb
from rules.attacks import NO_ORBIT, AttackCheck, check_attack, orbit_matters
from rules.ruleset import Ruleset


@dataclass(frozen=True)
class DeclarationState:
    """The rules' inputs for one declarer and target in a round.

    ``board``: of the target's planet, the target and the declarer's tiles with the links
    between them. That is all ``check_attack`` reads of a board - the target's owner
    (R-ATK-1), the declarer's tiles next to it, hex or linked (R-ATK-2 a), its structures
    (R-ATK-2 b) and its tile count there (R-ATK-2 c) - so its verdict is the whole planet's
    (tests/battles/test_legality.py). ``standing``: targets of the declarer's active
    declarations; ``spent``: its withdrawn or cancelled ones, whose armies are spent too
    (R-ATK-5); ``bought``: its attack armies bought this round (R-ATK-1); ``last_order``: the
    round's last declaration number (R-ATK-5 order)."""

    board: rb.Board
    bought: int
    standing: tuple[int, ...]
    spent: int
    last_order: int


@cache
def _state_sql() -> str:
    tile, link, attack, purchase, planet = (m._meta.db_table for m in (
        Tile, TileLink, Attack, Purchase, Planet))
    # one row kind per branch (first column): 0 tile, 1 link, 2 own declaration, 3 totals
    return f"""
        SELECT 0, id, q, r, owner_id, CAST(features AS TEXT) FROM {tile}
         WHERE planet_id = %(planet)s AND (id = %(tile)s OR owner_id = %(player)s)
        UNION ALL
        SELECT 1, a_id, b_id, NULL, NULL, NULL FROM {link}
         WHERE a_id = %(tile)s OR b_id = %(tile)s
        UNION ALL
        SELECT 2, tile_id, NULL, NULL, NULL, status FROM {attack}
         WHERE round_id = %(round)s AND player_id = %(player)s
        UNION ALL
        SELECT 3, (SELECT SUM(attack_armies) FROM {purchase}
                    WHERE round_id = %(round)s AND player_id = %(player)s),
               (SELECT MAX("order") FROM {attack} WHERE round_id = %(round)s), NULL, NULL,
               (SELECT name FROM {planet} WHERE id = %(planet)s)"""


def state_statement(round_id: int, player_id: int, tile: Tile) -> Statement:
    """The read of ``declaration_state``, to send with other statements (``run_prepared``)."""
    return ("declaration_state", _state_sql(), {"planet": tile.planet_id, "player": player_id,
                                                "tile": tile.pk, "round": round_id})


def declaration_state(round_id: int, player_id: int, tile: Tile) -> DeclarationState:
    """One query of a few rows, whatever the league's size. When the answer decides
    a write, read it under the round's lock: ``attack_declare`` sends ``state_statement``
    with its lock."""
    (rows,) = run_prepared(state_statement(round_id, player_id, tile))
    return state_of(rows, tile)


def state_of(rows: list[tuple], tile: Tile) -> DeclarationState:
    """The ``DeclarationState`` the rows of ``state_statement`` give."""
    tiles, links, standing, spent, bought, last, name = [], [], [], 0, 0, 0, ""
    for kind, a, b, c, d, text in rows:
        if kind == 0:
            tiles.append(rb.Tile(a, tile.planet_id, b, c, d, frozenset(json.loads(text or "[]"))))
        elif kind == 1:
            links.append((a, b))
        elif kind == 2 and text == Attack.Status.ACTIVE:
            standing.append(a)
        elif kind == 2:
            spent += 1
        else:
            bought, last, name = a or 0, b or 0, text or ""
    ids = {t.id for t in tiles}
    links = [(a, b) for a, b in links if a in ids and b in ids]  # to the declarer's tiles
    board = rb.Board([rb.Planet(tile.planet_id, name)], tiles, links)
    return DeclarationState(board, bought, tuple(standing), spent, last)


def attack_check(rnd: Round, player: Player, tile: Tile, *,
                 state: DeclarationState | None = None,
                 ruleset: Ruleset | None = None) -> AttackCheck:
    """The rules' verdict on ``player`` declaring against ``tile`` in ``rnd`` (its phase is the
    caller's concern: declarations are made in ``declare``). ``state`` and ``ruleset``: its
    inputs, when the caller read them already. The orbit (R-ATK-3) is read only when it
    matters. Its ``message`` is in the active language (``battles.messages``)."""
    state = state or declaration_state(rnd.pk, player.pk, tile)
    orbit = NO_ORBIT
    if orbit_matters(state.board, player.pk, tile.pk):
        orbit = orbit_info(rnd.campaign, player, tile.planet_id, rnd=rnd)
    check = check_attack(state.board, ruleset or ruleset_of(rnd.campaign), player.pk, tile.pk,
                         state.bought, state.standing, orbit, withdrawn=state.spent)
    return check if check.legal else replace(check, message=rule_text(check))
