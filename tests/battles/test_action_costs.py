"""The per-action rows: an attack declaration (R-ATK-1..3), a conquest choice
(R-CON-4) and a chain roll decision (R-CON-6) cost the same in a small and in a three times
larger league: the same number of queries, and the same rows read - the boards the rules get
(``rules.board.Board``) and the won attacks they see (``rules.conquest.WonAttack``). No timed
test: ``bench/actions.py`` prints the times."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle, ConquestChoice
from battles.services.attacks import attack_declare, purchase_create
from battles.services.chains import chain_decide
from battles.services.conquest import conquest_choose
from battles.services.limits import limits_of
from campaigns.models import Attack, Player, Round, Tile
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import load_board
from rules import board as rb
from rules import conquest as rc
from tests.worlds import make_league, sure_conquest

pytestmark = pytest.mark.django_db
SMALL, LARGE = 4, 12
COLUMNS, ROWS = 4, 3  # every planet: 12 tiles, owners in turn


def league(n: int, phase: str):
    """``n`` players on n/4 planets of 12 tiles held in turn; round 1 in ``phase``. On every
    planet the tile (0, 0) is held by the first player and (1, 0) by the fourth."""
    lg = make_league(players=tuple(f"p{n}x{i}" for i in range(n)), admin=f"orga{n}")
    planets = [lg.planet(f"Planet {i}") for i in range(n // 4)]
    Tile.objects.bulk_create(
        Tile(campaign=lg.campaign, planet=planet, q=q, r=r,
             owner=lg.players[(q * ROWS + r + k * 5) % n], features=[])
        for k, planet in enumerate(planets) for q in range(COLUMNS) for r in range(ROWS))
    rnd = lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase=phase)
    rnd.refresh_from_db()
    return lg, rnd, planets


def at(planet, q: int, r: int) -> Tile:
    return Tile.objects.get(planet=planet, q=q, r=r)


def others_declare(lg, rnd, skip: Tile | None = None) -> list[Attack]:
    """Every player but the first declares on two tiles it does not hold (the league's load),
    none on ``skip``."""
    tiles = list(Tile.objects.filter(campaign=lg.campaign).exclude(pk=getattr(skip, "pk", None))
                 .order_by("pk"))
    rows, order = [], 100
    for i, player in enumerate(lg.players[1:], start=1):
        targets = [t for t in tiles[i:] if t.owner_id != player.pk][:2]
        for t in targets:
            order += 1
            rows.append(Attack(round=rnd, player=player, tile=t, source="adjacent", order=order))
    return Attack.objects.bulk_create(rows)


@pytest.fixture
def seen(monkeypatch):
    """The tile count of every board built and the won attacks the rules get, while on."""
    record = {"boards": [], "won": 0}
    board_init = rb.Board.__post_init__
    won_init = rc.WonAttack.__post_init__

    def board(self):
        board_init(self)
        record["boards"].append(len(self.tiles))

    def won(self):
        won_init(self)
        record["won"] += 1

    monkeypatch.setattr(rb.Board, "__post_init__", board)
    monkeypatch.setattr(rc.WonAttack, "__post_init__", won)
    return record


def cost(seen, action) -> tuple[int, list[int], int]:
    seen["boards"].clear()
    seen["won"] = 0
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries), list(seen["boards"]), seen["won"]


def declaration_cost(n: int, seen):
    """The first player, holding (0, 0) of the first planet there, declares on (1, 0) next to
    it."""
    lg, rnd, planets = league(n, "declare")
    Tile.objects.filter(planet=planets[0], owner=lg.a).exclude(q=0, r=0).update(owner=lg.b)
    others_declare(lg, rnd)
    purchase_create(player=lg.a, round=rnd, attack_armies=2)
    target = at(planets[0], 1, 0)
    with transaction.atomic():  # prepares its statements on this connection, kept after the
        attack_declare(player=lg.a, round=rnd, tile=target)  # rollback (campaigns/prepared.py)
        transaction.set_rollback(True)
    return cost(seen, lambda: attack_declare(player=lg.a, round=rnd, tile=target))


def test_r_atk_declaration_costs_the_same_in_a_larger_league(seen):
    small, large = declaration_cost(SMALL, seen), declaration_cost(LARGE, seen)
    assert small == large
    queries, boards, _ = small
    assert boards == [2]  # the target and the declarer's tile (R-ATK-1, R-ATK-2)
    # in the caller's transaction: the campaign's and the round's locks with the rules' inputs
    # (one round trip on PostgreSQL, campaigns/prepared.py; SQLite reads the campaign first, as
    # campaigns/locking.py orders), the INSERT (no SAVEPOINT: battles/services/attacks.py)
    assert queries == (2 if connection.vendor == "postgresql" else 4)


def choice_cost(n: int, seen):
    """Every player won two attacks (confirmed victories); the first one chooses."""
    lg, rnd, _ = league(n, "conquest")
    attacks = others_declare(lg, rnd)
    tiles = [t for t in Tile.objects.filter(campaign=lg.campaign).order_by("pk")
             if t.owner_id != lg.a.pk and t.pk not in {a.tile_id for a in attacks}][:2]
    attacks += Attack.objects.bulk_create(
        Attack(round=rnd, player=lg.a, tile=t, source="adjacent", order=i + 1)
        for i, t in enumerate(tiles))
    Battle.objects.bulk_create(
        Battle(campaign=lg.campaign, round=rnd, attack=a, tile_id=a.tile_id,
               attacker_id=a.player_id, status="done", outcome="victory",
               result_status="confirmed", confirmed_at=timezone.now()) for a in attacks)
    own = [a.pk for a in attacks if a.player_id == lg.a.pk]
    return cost(seen, lambda: conquest_choose(player=lg.a, rnd=rnd, roll=own[:1]))


def test_r_con_4_a_choice_reads_only_the_choosers_won_attacks(seen):
    small, large = choice_cost(SMALL, seen), choice_cost(LARGE, seen)
    assert small == large
    queries, boards, won = small
    assert won == 2 and boards == []  # the chooser's two; nothing rolls yet
    assert ConquestChoice.objects.count() == 2


def chain_cost(n: int, seen, attackers=(0, 1, 2), homeless: int | None = None):
    """The players ``attackers`` (indices) attack the fourth's tile (1, 0) of the first planet
    in this order; the first won link 1 and rolls (a sure success). ``homeless``: a player
    whose tiles on that planet go to the second player first."""
    lg, rnd, planets = league(n, "battles")
    if homeless is not None:
        Tile.objects.filter(planet=planets[0], owner=lg.players[homeless]).update(owner=lg.b)
    target = at(planets[0], 1, 0)
    others_declare(lg, rnd, skip=target)
    chain = Attack.objects.bulk_create(
        Attack(round=rnd, player=lg.players[p], tile=target, source="adjacent", order=i + 1)
        for i, p in enumerate(attackers))
    links = Battle.objects.bulk_create(
        Battle(campaign=lg.campaign, round=rnd, attack=a, tile=target, attacker_id=a.player_id,
               defender_id=target.owner_id if pos == 1 else None, chain_position=pos,
               chain_length=3, status="done" if pos == 1 else "pending",
               outcome="victory" if pos == 1 else "",
               result_status="confirmed" if pos == 1 else "",
               confirmed_at=timezone.now() if pos == 1 else None)
        for pos, a in enumerate(chain, start=1))
    sure_conquest(rnd, chain[0])
    battle = Battle.objects.get(pk=links[0].pk)
    return cost(seen, lambda: chain_decide(battle=battle, player=lg.a, roll=True))


def test_r_con_6_a_chain_decision_costs_the_same_in_a_larger_league(seen):
    small, large = chain_cost(SMALL, seen), chain_cost(LARGE, seen)
    assert small == large
    queries, boards, _ = small
    # the roll (R-CON-1..3) and the next link's limits (R-BON-3) on the tile's planet
    assert boards == [COLUMNS * ROWS] * 2
    # SAVEPOINT, the round's and the battle's locks, the decision, the planet (4), the dice
    # (2), the roll, the tile, the next link read and settled with its limits in one UPDATE,
    # RELEASE; and 4 revision bumps (campaigns/revision.py)
    assert queries <= 19
    nxt = Battle.objects.filter(chain_position=2).order_by("-pk").first()
    assert nxt.status == "open" and nxt.point_limits


def test_r_bon_3_a_next_attacker_without_tiles_there_adds_only_its_home_tiles(seen):
    """The second link's attacker (the third player) owns no tile on the contested planet: its
    limit counts its home planet (R-BON-3), read as its tiles there, not the whole planet; the
    limits are those of the whole map."""
    small = chain_cost(8, seen, attackers=(0, 2, 1), homeless=2)
    large = chain_cost(16, seen, attackers=(0, 2, 1), homeless=2)
    assert small[0] == large[0]
    *_, limits_board = large[1]
    assert COLUMNS * ROWS < limits_board < 2 * COLUMNS * ROWS
    nxt = Battle.objects.filter(chain_position=2).select_related("campaign").order_by("-pk")[0]
    players = list(Player.objects.filter(campaign=nxt.campaign).values_list("pk", flat=True))
    whole = limits_of(nxt, load_board(nxt.campaign), ruleset_of(nxt.campaign), players)
    assert (nxt.point_limits, nxt.bonus) == whole
    assert nxt.bonus[str(nxt.attacker_id)]["tiles"] > 0

