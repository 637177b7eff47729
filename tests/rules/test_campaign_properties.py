"""Property tests (hypothesis) for R-BON-2, R-CON-1/2, R-CON-3 and R-CON-7."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import FEATURES, Board, Marker, Planet, Tile
from rules.bonus import army_limits
from rules.conquest import (
    WonAttack,
    assess,
    conquest_threshold,
    resolve_conquest_phase,
    roll,
    success_probability,
)
from rules.dice import ScriptedDice
from rules.ruleset import Ruleset
from tests.budget import examples

PLAYERS = (1, 2, 3, 4)
PLANETS = (Planet(1, "Ikolbar"), Planet(2, "Tarsis"))
SIDE = 4  # each planet is a SIDE x SIDE patch of hexes

owners = st.one_of(st.none(), st.sampled_from(PLAYERS))
features = st.frozensets(st.sampled_from(sorted(FEATURES)), max_size=3)
scopes = st.sampled_from(["campaign", "battle"])


@st.composite
def boards(draw) -> Board:
    tiles = []
    for planet, q, r in product((1, 2), range(SIDE), range(SIDE)):
        tiles.append(Tile(planet * 100 + q * SIDE + r, planet, q, r, draw(owners),
                          draw(features)))
    marked = draw(st.lists(st.sampled_from([t.id for t in tiles]), max_size=6, unique=True))
    kinds = st.sampled_from(["manufactorum", "shield_generator"])
    markers = [Marker(i, draw(kinds), tile) for i, tile in enumerate(marked)]
    return Board(PLANETS, tiles, markers=markers)


@st.composite
def planet_counts(draw) -> dict[int, int]:
    players = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True))
    return {p: draw(st.integers(1, 8)) for p in players}


def counts_board(counts: dict[int, int]) -> Board:
    tiles, q = [], 0
    for player, n in counts.items():
        for _ in range(n):
            tiles.append(Tile(100 + q, 1, q, 0, player))
            q += 1
    return Board(PLANETS, tiles)


def first_tile(board: Board, player: int) -> int:
    return min(board.territory(player, 1))


@settings(max_examples=examples(150), deadline=None)
@given(planet_counts(), scopes, st.data())
def test_r_bon_2_player_with_most_tiles_never_gets_a_tile_bonus(counts, scope, data):
    board = counts_board(counts)
    rules = Ruleset.from_dict({"bonus_scope": scope})
    leader = max(counts, key=counts.get)
    other = data.draw(st.sampled_from([p for p in counts if p != leader]))
    attacker, defender = data.draw(st.permutations([leader, other]))
    limits = army_limits(board, rules, tile=first_tile(board, defender), attacker=attacker,
                         defender=defender)
    assert limits[leader].tile_bonus == 0
    assert limits[other].tile_bonus == 50 * sum(
        max(0, n - counts[other]) for p, n in counts.items()
        if p != other and (scope == "campaign" or p == leader))


@settings(max_examples=examples(150), deadline=None)
@given(boards(), scopes, st.sampled_from(PLAYERS), st.data())
def test_r_bon_2_bonus_is_never_negative(board, scope, attacker, data):
    tile = data.draw(st.sampled_from([t for t in board.tiles if t.owner != attacker]))
    rules = Ruleset.from_dict({"bonus_scope": scope})
    limits = army_limits(board, rules, tile=tile.id, attacker=attacker, defender=tile.owner)
    for limit in limits.values():
        assert limit.tile_bonus >= 0 and limit.marker_bonus >= 0
        assert limit.total == limit.base + limit.tile_bonus + limit.marker_bonus
        assert limit.total == sum(item.value for item in limit.items)


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(PLAYERS), st.sampled_from(["adjacent", "structure", "orbit"]),
       st.data())
def test_r_con_1_thresholds_are_only_3_or_7(board, player, source, data):
    tile = data.draw(st.sampled_from([t for t in board.tiles if t.owner != player]))
    threshold = conquest_threshold(board, tile.id, player, source)
    assert threshold.value in (3, 7)
    assert threshold.rule in ("R-CON-1", "R-CON-2")
    if board.adjacent_to_territory(tile.id, player):
        assert threshold.value == 3


@settings(max_examples=examples(200), deadline=None)
@given(boards(), st.sampled_from(PLAYERS), st.sampled_from(["victory", "moral_victory"]),
       st.sampled_from(["adjacent", "structure", "orbit"]), st.integers(1, 5),
       st.tuples(st.integers(1, 6), st.integers(1, 6)), st.data())
def test_r_con_3_reported_modifiers_sum_to_applied_total(board, player, outcome, source, k,
                                                         faces, data):
    tile = data.draw(st.sampled_from([t for t in board.tiles if t.owner != player]))
    attack = WonAttack(1, player, tile.id, source, outcome)
    made = roll(ScriptedDice(faces), "conquest:attack=1", assess(board, attack, k))
    assert made.total == sum(made.dice) + sum(m.value for m in made.modifiers)
    assert made.success == (made.total >= made.threshold)
    assert all(m.value < 0 for m in made.modifiers if m.name != "shield")
    assert len({m.name for m in made.modifiers}) == len(made.modifiers)


@settings(max_examples=examples(100), deadline=None)
@given(boards(), st.sampled_from(PLAYERS), st.data())
def test_r_con_3_phase_rolls_report_their_totals(board, player, data):
    targets = [t for t in board.tiles if t.owner != player]
    chosen = data.draw(st.lists(st.sampled_from(targets), min_size=1, max_size=4,
                                unique_by=lambda t: t.id))
    won = [WonAttack(i, player, t.id, "structure") for i, t in enumerate(chosen)]
    faces = data.draw(st.lists(st.integers(1, 6), min_size=2 * len(won),
                               max_size=2 * len(won)))
    result = resolve_conquest_phase(board, Ruleset(), won, {}, ScriptedDice(faces))
    for made in result.rolls:
        assert made.total == sum(made.dice) + sum(m.value for m in made.modifiers)
    per_planet = {}
    for t in chosen:
        per_planet[t.planet] = per_planet.get(t.planet, 0) + 1
    assert [r.k for r in result.rolls] == [per_planet[t.planet] for t in chosen]


@given(st.sampled_from([3, 7]), st.integers(-15, 5))
def test_r_con_7_probability_is_count_of_2d6_outcomes_over_36(threshold, modifier):
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a + b + modifier >= threshold:
                count += 1
    chance = success_probability(threshold, modifier)
    assert chance * 36 == count
    assert chance.denominator in (1, 2, 3, 4, 6, 9, 12, 18, 36)


@settings(max_examples=examples(60), deadline=None)
@given(boards(), st.sampled_from(PLAYERS), st.data())
def test_r_con_7_preview_matches_what_the_roll_does(board, player, data):
    tile = data.draw(st.sampled_from([t for t in board.tiles if t.owner != player]))
    assessment = assess(board, WonAttack(1, player, tile.id, "orbit", "moral_victory"), 2)
    wins = sum(roll(ScriptedDice([a, b]), "p", assessment).success
               for a in range(1, 7) for b in range(1, 7))
    assert assessment.chance * 36 == wins
