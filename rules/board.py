"""The campaign map as plain data (R-MAP, R-MRK-1, R-MRK-4).

``Board`` is built once from planets, tiles, links, marker types and markers and indexes them, so
every lookup the rules make (tile by id, hex neighbour, territory, home planet, markers of a
planet) is O(1) or bounded by the few tiles around. The Django side builds one from the
database; tests build them by hand. A board never changes: ``with_owners`` returns a new one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

FEATURES = frozenset({"mountain", "spaceport", "macropole", "defence"})
STRUCTURES = frozenset({"spaceport", "macropole"})  # R-ATK-2 (b), R-CON-2
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # axial (R-MAP-1)


class BoardError(ValueError):
    """Inconsistent map data (duplicate ids or coordinates, dangling references)."""


@dataclass(frozen=True)
class Planet:
    id: int
    name: str = ""


@dataclass(frozen=True)
class Tile:
    """A map tile (Kartenfeld, R-MAP-1/2): axial hex coordinates q, r unique per planet."""

    id: int
    planet: int
    q: int
    r: int
    owner: int | None = None
    features: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        features = frozenset(self.features)
        unknown = features - FEATURES
        if unknown:
            raise BoardError(f"tile {self.id}: unknown features {sorted(unknown)}")
        object.__setattr__(self, "features", features)

    @property
    def is_structure(self) -> bool:
        """Spaceport or macropole (R-ATK-2 b, R-CON-2)."""
        return bool(self.features & STRUCTURES)


@dataclass(frozen=True)
class MarkerType:
    """Marker types are admin data (R-MRK-1)."""

    code: str
    name: str = ""
    army_points_bonus: int = 0
    conquest_modifier: int = 0
    radius: int = 0


# R-MRK-1 [decision] defaults for the two markers the source names (Manufaktorum,
# Schildgenerator), seeded into every new campaign.
MANUFACTORUM = MarkerType("manufactorum", "Manufactorum", army_points_bonus=50)
SHIELD_GENERATOR = MarkerType("shield_generator", "Shield generator", conquest_modifier=-1,
                              radius=1)
DEFAULT_MARKER_TYPES = (MANUFACTORUM, SHIELD_GENERATOR)


@dataclass(frozen=True)
class Marker:
    """A marker on a tile; its owner is the tile's owner (R-MRK-4), so it stores none."""

    id: int
    type: str
    tile: int


def hex_distance(a: Tile, b: Tile) -> int | None:
    """Hex steps between two tiles of one planet; None across planets (R-MRK-3)."""
    if a.planet != b.planet:
        return None
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True)
class Board:
    """Planets, tiles, explicit links (tile id pairs), marker types and markers, indexed."""

    planets: tuple[Planet, ...]
    tiles: tuple[Tile, ...]
    links: tuple[tuple[int, int], ...] = ()
    marker_types: tuple[MarkerType, ...] = DEFAULT_MARKER_TYPES
    markers: tuple[Marker, ...] = ()
    _index: _Index = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("planets", "tiles", "links", "marker_types", "markers"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "links", tuple((int(a), int(b)) for a, b in self.links))
        object.__setattr__(self, "_index", _Index.build(self))

    # --- lookups ---------------------------------------------------------------------------

    def tile(self, tile_id: int) -> Tile:
        try:
            return self._index.tiles[tile_id]
        except KeyError:
            raise KeyError(f"no tile {tile_id} on this map") from None

    def has_tile(self, tile_id: int) -> bool:
        return tile_id in self._index.tiles

    def planet(self, planet_id: int) -> Planet:
        return self._index.planets[planet_id]

    def tile_at(self, planet: int, q: int, r: int) -> Tile | None:
        tile_id = self._index.coords.get((planet, q, r))
        return None if tile_id is None else self._index.tiles[tile_id]

    def planet_tiles(self, planet: int) -> tuple[Tile, ...]:
        return self._index.by_planet.get(planet, ())

    def marker_type(self, code: str) -> MarkerType:
        return self._index.marker_types[code]

    def markers_on(self, tile_id: int) -> tuple[Marker, ...]:
        return self._index.markers_by_tile.get(tile_id, ())

    def planet_markers(self, planet: int) -> tuple[Marker, ...]:
        return self._index.markers_by_planet.get(planet, ())

    def marker_owner(self, marker: Marker) -> int | None:
        """R-MRK-4: a marker belongs to whoever owns its tile."""
        return self.tile(marker.tile).owner

    # --- R-MAP-1 adjacency -------------------------------------------------------------------

    def hex_neighbours(self, tile_id: int) -> tuple[Tile, ...]:
        """Tiles one hex step away on the same planet."""
        t = self.tile(tile_id)
        found = (self._index.coords.get((t.planet, t.q + dq, t.r + dr))
                 for dq, dr in HEX_DIRECTIONS)
        return tuple(self._index.tiles[i] for i in found if i is not None)

    def neighbours(self, tile_id: int, *, same_planet: bool = False) -> tuple[Tile, ...]:
        """R-MAP-1: hex neighbours plus explicitly linked tiles. With ``same_planet`` links to
        other planets are left out (R-ATK-2 a)."""
        result = {t.id: t for t in self.hex_neighbours(tile_id)}
        planet = self.tile(tile_id).planet
        for other in self._index.links.get(tile_id, ()):
            t = self._index.tiles[other]
            if not same_planet or t.planet == planet:
                result[t.id] = t
        return tuple(result[i] for i in sorted(result))

    def are_adjacent(self, a: int, b: int) -> bool:
        """R-MAP-1: hex neighbours on one planet, or an explicit link."""
        return any(t.id == b for t in self.neighbours(a))

    def distance(self, a: int, b: int) -> int | None:
        """Hex distance within one planet (links do not shorten it); None across planets."""
        return hex_distance(self.tile(a), self.tile(b))

    def adjacent_to_territory(self, tile_id: int, player: int) -> bool:
        """Is the tile adjacent to a tile ``player`` owns on the same planet? (R-ATK-2 a,
        R-CON-1; links to other planets do not count.)"""
        return any(t.owner == player and t.id != tile_id
                   for t in self.neighbours(tile_id, same_planet=True))

    # --- R-MAP-4 territory -------------------------------------------------------------------

    def territory(self, player: int, planet: int) -> frozenset[int]:
        """Ids of the tiles ``player`` owns on ``planet``."""
        return self._index.territory.get((player, planet), frozenset())

    def tile_count(self, player: int, planet: int) -> int:
        return len(self.territory(player, planet))

    def total_tiles(self, player: int) -> int:
        return self._index.totals.get(player, 0)

    def planets_of(self, player: int) -> tuple[int, ...]:
        """Planets where ``player`` owns at least one tile, ascending."""
        return self._index.player_planets.get(player, ())

    def home_planet(self, player: int) -> int | None:
        """R-MAP-4: the planet with most of the player's tiles (ties: lowest id); None without
        tiles."""
        return self._index.home.get(player)

    def players(self) -> frozenset[int]:
        """Players owning at least one tile."""
        return frozenset(self._index.totals)

    def owns_structure_on(self, player: int, planet: int) -> bool:
        """Does ``player`` own a spaceport or macropole on ``planet``? (R-ATK-2 b)"""
        return (player, planet) in self._index.structures

    def owners(self) -> dict[int, int | None]:
        return {t.id: t.owner for t in self.tiles}

    # --- change ------------------------------------------------------------------------------

    def with_owners(self, changes: Mapping[int, int | None]) -> Board:
        """A new board where the tiles in ``changes`` have new owners; markers go along with
        their tiles (R-MRK-4) since a marker's owner is its tile's owner."""
        if not changes:
            return self
        for tile_id in changes:
            self.tile(tile_id)
        tiles = tuple(replace(t, owner=changes[t.id]) if t.id in changes else t
                      for t in self.tiles)
        return Board(self.planets, tiles, self.links, self.marker_types, self.markers)


AREA_KINDS = ("ocean", "coastal", "orbit", "island")


def area_borders(board: Board, kind: str, planet: int | None = None,
                 listed: Iterable[int] = ()) -> frozenset[int]:
    """R-MAP-3: the tiles an area borders. An ``orbit`` area borders every tile of its planet,
    a ``coastal`` area the tiles it lists; ``ocean`` and ``island`` areas border none."""
    if kind not in AREA_KINDS:
        raise BoardError(f"unknown area kind {kind!r}")
    if kind == "orbit":
        if planet is None:
            raise BoardError("an orbit area needs its planet")
        return frozenset(t.id for t in board.planet_tiles(planet))
    if kind == "coastal":
        ids = frozenset(listed)
        for tile_id in ids:
            board.tile(tile_id)
        return ids
    return frozenset()


@dataclass(frozen=True)
class _Index:
    planets: dict[int, Planet]
    tiles: dict[int, Tile]
    coords: dict[tuple[int, int, int], int]
    by_planet: dict[int, tuple[Tile, ...]]
    links: dict[int, frozenset[int]]
    marker_types: dict[str, MarkerType]
    markers_by_tile: dict[int, tuple[Marker, ...]]
    markers_by_planet: dict[int, tuple[Marker, ...]]
    territory: dict[tuple[int, int], frozenset[int]]
    totals: dict[int, int]
    player_planets: dict[int, tuple[int, ...]]
    home: dict[int, int]
    structures: frozenset[tuple[int, int]]

    @classmethod
    def build(cls, board: Board) -> _Index:
        planets = _unique(board.planets, lambda p: p.id, "planet")
        tiles = _unique(board.tiles, lambda t: t.id, "tile")
        coords: dict[tuple[int, int, int], int] = {}
        by_planet: dict[int, list[Tile]] = defaultdict(list)
        territory: dict[tuple[int, int], set[int]] = defaultdict(set)
        structures = set()
        for t in board.tiles:
            if t.planet not in planets:
                raise BoardError(f"tile {t.id}: unknown planet {t.planet}")
            if (t.planet, t.q, t.r) in coords:
                raise BoardError(f"tile {t.id}: planet {t.planet} already has a tile at "
                                 f"q={t.q}, r={t.r}")
            coords[(t.planet, t.q, t.r)] = t.id
            by_planet[t.planet].append(t)
            if t.owner is not None:
                territory[(t.owner, t.planet)].add(t.id)
                if t.is_structure:
                    structures.add((t.owner, t.planet))
        links = _link_index(board.links, tiles)
        types = _unique(board.marker_types, lambda m: m.code, "marker type")
        by_tile, by_marker_planet = _marker_index(board.markers, tiles, types)
        totals, player_planets, home = _player_index(territory)
        return cls(planets, tiles, coords, {p: tuple(ts) for p, ts in by_planet.items()}, links,
                   types, by_tile, by_marker_planet,
                   {key: frozenset(ids) for key, ids in territory.items()}, totals,
                   player_planets, home, frozenset(structures))


def home_of(tiles_per_planet: Mapping[int, int]) -> int | None:
    """R-MAP-4: the planet with most of a player's tiles (ties: lowest id), from its tile count
    per planet; None without tiles."""
    held = [(-n, planet) for planet, n in tiles_per_planet.items() if n > 0]
    return min(held)[1] if held else None


def _unique(items: Iterable, key, what: str) -> dict:
    result = {}
    for item in items:
        k = key(item)
        if k in result:
            raise BoardError(f"duplicate {what} {k!r}")
        result[k] = item
    return result


def _link_index(links: Iterable[tuple[int, int]], tiles: dict[int, Tile]) -> dict:
    result: dict[int, set[int]] = defaultdict(set)
    for a, b in links:
        if a not in tiles or b not in tiles:
            raise BoardError(f"link {a}-{b} names an unknown tile")
        if a == b:
            raise BoardError(f"link {a}-{b} links a tile to itself")
        result[a].add(b)
        result[b].add(a)
    return {t: frozenset(others) for t, others in result.items()}


def _marker_index(markers: Iterable[Marker], tiles: dict[int, Tile], types: dict) -> tuple:
    seen: set[int] = set()
    by_tile: dict[int, list[Marker]] = defaultdict(list)
    by_planet: dict[int, list[Marker]] = defaultdict(list)
    for m in markers:
        if m.id in seen:
            raise BoardError(f"duplicate marker {m.id}")
        seen.add(m.id)
        if m.tile not in tiles:
            raise BoardError(f"marker {m.id}: unknown tile {m.tile}")
        if m.type not in types:
            raise BoardError(f"marker {m.id}: unknown marker type {m.type!r}")
        by_tile[m.tile].append(m)
        by_planet[tiles[m.tile].planet].append(m)
    return ({k: tuple(v) for k, v in by_tile.items()},
            {k: tuple(v) for k, v in by_planet.items()})


def _player_index(territory: Mapping[tuple[int, int], set[int]]) -> tuple:
    totals: dict[int, int] = defaultdict(int)
    planets: dict[int, list[int]] = defaultdict(list)
    for (player, planet), ids in territory.items():
        totals[player] += len(ids)
        planets[player].append(planet)
    home = {player: home_of({p: len(territory[(player, p)]) for p in ps})
            for player, ps in planets.items()}
    return dict(totals), {p: tuple(sorted(ps)) for p, ps in planets.items()}, home
