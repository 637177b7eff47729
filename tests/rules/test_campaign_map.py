"""R-MAP: tiles, hex adjacency, links, distance, territory, home planet; R-MRK-1/4 marker data."""

from __future__ import annotations

import time

import pytest

from rules.board import (
    DEFAULT_MARKER_TYPES,
    Board,
    BoardError,
    Marker,
    MarkerType,
    Planet,
    Tile,
    area_borders,
    hex_distance,
)

PLANETS = (Planet(1, "Ikolbar"), Planet(2, "Tarsis"), Planet(3, "Vigil"))


def make(*tiles: Tile, links=(), markers=()) -> Board:
    return Board(PLANETS, tiles, links, markers=markers)


def ring_board() -> Board:
    """Planet 1: centre tile 1 at (0, 0) and its six neighbours 2..7; tile 8 two steps away."""
    coords = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    tiles = [Tile(i + 1, 1, q, r) for i, (q, r) in enumerate(coords)]
    tiles.append(Tile(8, 1, 2, 0))
    tiles.append(Tile(9, 2, 1, 0))  # same coordinates as tile 2 but on planet 2
    return make(*tiles)


def test_r_map_1_axial_hex_neighbours_on_the_same_planet():
    board = ring_board()
    assert {t.id for t in board.neighbours(1)} == {2, 3, 4, 5, 6, 7}
    assert {t.id for t in board.neighbours(8)} == {2}  # (1, 0); (1, -1) is 2 steps away
    assert not board.are_adjacent(1, 8)
    assert not board.are_adjacent(2, 9)  # equal coordinates, other planet


def test_r_map_1_explicit_links_make_tiles_adjacent():
    board = make(Tile(1, 1, 0, 0), Tile(2, 1, 5, 5), Tile(3, 2, 0, 0), links=[(1, 2), (3, 1)])
    assert board.are_adjacent(1, 2) and board.are_adjacent(2, 1)
    assert board.are_adjacent(1, 3)
    assert {t.id for t in board.neighbours(1, same_planet=True)} == {2}


def test_r_map_1_coordinates_unique_per_planet():
    with pytest.raises(BoardError):
        make(Tile(1, 1, 0, 0), Tile(2, 1, 0, 0))
    make(Tile(1, 1, 0, 0), Tile(2, 2, 0, 0))
    with pytest.raises(BoardError):
        make(Tile(1, 1, 0, 0), Tile(1, 2, 0, 0))
    with pytest.raises(BoardError):
        make(Tile(1, 4, 0, 0))
    with pytest.raises(BoardError):
        make(Tile(1, 1, 0, 0), links=[(1, 2)])


def test_r_map_1_hex_distance_only_within_one_planet():
    board = ring_board()
    assert board.distance(1, 1) == 0
    assert board.distance(1, 2) == 1
    assert board.distance(1, 8) == 2
    assert board.distance(5, 8) == 3
    assert board.distance(2, 9) is None
    assert hex_distance(Tile(1, 1, -2, 3), Tile(2, 1, 2, -1)) == 4


def test_r_map_2_owner_and_features():
    tile = Tile(1, 1, 0, 0, owner=None, features=frozenset({"mountain", "defence"}))
    assert tile.owner is None and not tile.is_structure
    assert Tile(2, 1, 0, 0, 1, frozenset({"macropole"})).is_structure
    assert Tile(3, 1, 0, 0, 1, ["spaceport"]).features == frozenset({"spaceport"})
    with pytest.raises(BoardError):
        Tile(4, 1, 0, 0, features=frozenset({"city"}))


def test_r_map_3_orbit_area_borders_every_tile_of_its_planet():
    board = ring_board()
    assert area_borders(board, "orbit", planet=1) == frozenset(range(1, 9))
    assert area_borders(board, "coastal", listed=[2, 3]) == {2, 3}
    assert area_borders(board, "ocean") == frozenset()
    assert area_borders(board, "island") == frozenset()
    with pytest.raises(BoardError):
        area_borders(board, "lake")


def test_r_map_4_territory_and_home_planet():
    board = make(Tile(1, 1, 0, 0, 10), Tile(2, 1, 1, 0, 10), Tile(3, 2, 0, 0, 10),
                 Tile(4, 2, 1, 0, 10), Tile(5, 3, 0, 0, 10), Tile(6, 3, 1, 0, 20),
                 Tile(7, 3, 2, 0, 20), Tile(8, 2, 2, 0, 20))
    assert board.territory(10, 1) == {1, 2}
    assert board.territory(10, 3) == {5}
    assert board.territory(30, 1) == frozenset()
    assert board.home_planet(10) == 1  # 2 tiles on planets 1 and 2: lowest id
    assert board.home_planet(20) == 3
    assert board.home_planet(30) is None
    assert board.total_tiles(10) == 5
    assert board.planets_of(20) == (2, 3)
    assert board.players() == {10, 20}


def test_r_mrk_1_default_marker_types():
    types = {t.code: t for t in DEFAULT_MARKER_TYPES}
    assert types["manufactorum"] == MarkerType("manufactorum", "Manufactorum", 50, 0, 0)
    assert types["shield_generator"] == MarkerType("shield_generator", "Shield generator", 0, -1,
                                                   1)
    with pytest.raises(BoardError):
        make(Tile(1, 1, 0, 0), markers=[Marker(1, "beacon", 1)])
    with pytest.raises(BoardError):
        make(Tile(1, 1, 0, 0), markers=[Marker(1, "manufactorum", 2)])


def test_r_mrk_4_marker_belongs_to_tile_owner_and_moves_with_it():
    board = make(Tile(1, 1, 0, 0, 10), Tile(2, 1, 1, 0, 20),
                 markers=[Marker(5, "manufactorum", 1)])
    marker = board.markers_on(1)[0]
    assert board.marker_owner(marker) == 10
    after = board.with_owners({1: 20})
    assert after.marker_owner(after.markers_on(1)[0]) == 20
    assert after.territory(20, 1) == {1, 2}
    assert board.tile(1).owner == 10  # the original board is unchanged


def test_r_map_board_indexes_scale_to_thousands_of_tiles():
    tiles = [Tile(p * 10000 + q * 100 + r, p, q, r, owner=(q + r) % 4 or None)
             for p in (1, 2, 3) for q in range(40) for r in range(40)]
    start = time.perf_counter()
    board = make(*tiles)
    build = time.perf_counter() - start
    start = time.perf_counter()
    for tile in tiles[:2000]:
        board.adjacent_to_territory(tile.id, 1)
    lookups = time.perf_counter() - start
    assert len(board.neighbours(10000 + 505)) == 6
    assert build < 2.0 and lookups < 1.0
