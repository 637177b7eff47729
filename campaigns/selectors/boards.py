"""Part of the campaign map as the rules see it (``rules.board.Board``), for one action
for speed: the rules of a declaration (R-ATK-2 a/b), of a conquest roll (R-CON-1..3,
R-MRK-3) and of point limits (R-BON-2/3, R-MRK-2) look at one planet, or at the home planet of
a participant without tiles there. A board of those planets gives them the same answers as the
whole map, at a cost that does not grow with the league (``fleets.selectors.board.load_board``
reads the whole map)."""

from collections.abc import Collection, Iterable

from django.db.models import Count

from campaigns.models import Marker, MarkerType, Tile, TileLink
from rules import board as rb


def load_planet_board(campaign_id: int, planet_ids: Collection[int], *,
                      markers: bool = True) -> rb.Board:
    """The tiles of ``planet_ids`` with the links between them and (with ``markers``) the
    marker types and the markers on them: two queries, four with markers. Links to other
    planets are left out: no rule counts them on a planet (R-ATK-2 a, R-CON-1). A planet
    without tiles is left out too: no rule asks for it."""
    ids = sorted(set(planet_ids))
    planets: dict[int, rb.Planet] = {}
    tiles = []
    for pk, planet, name, q, r, owner, features in (
            Tile.objects.filter(campaign_id=campaign_id, planet_id__in=ids).values_list(
                "pk", "planet_id", "planet__name", "q", "r", "owner_id", "features")):
        planets.setdefault(planet, rb.Planet(planet, name))
        tiles.append(rb.Tile(pk, planet, q, r, owner, frozenset(features or ())))
    links = list(TileLink.objects.filter(campaign_id=campaign_id, a__planet_id__in=ids,
                                         b__planet_id__in=ids).values_list("a_id", "b_id"))
    if not markers:
        return rb.Board(planets.values(), tiles, links)
    types = [rb.MarkerType(*row) for row in
             MarkerType.objects.filter(campaign_id=campaign_id).values_list(
                 "code", "name", "army_points_bonus", "conquest_modifier", "radius")]
    found = [rb.Marker(*row) for row in
             Marker.objects.filter(campaign_id=campaign_id, tile__planet_id__in=ids)
             .values_list("pk", "type__code", "tile_id")]
    return rb.Board(planets.values(), tiles, links, types, found)


def tile_counts(campaign_id: int, players: Iterable[int]) -> dict[int, dict[int, int]]:
    """Player -> {planet: tiles it owns there} for ``players`` (R-MAP-4), one query."""
    counts: dict[int, dict[int, int]] = {}
    for owner, planet, n in (Tile.objects.filter(campaign_id=campaign_id, owner_id__in=players)
                             .values_list("owner_id", "planet_id").annotate(n=Count("pk"))
                             .order_by()):
        counts.setdefault(owner, {})[planet] = n
    return counts


def limits_board(campaign_id: int, planet_id: int, participants: Iterable[int | None], *,
                 board: rb.Board | None = None) -> rb.Board:
    """The board point limits of a battle on ``planet_id`` read (R-BON-3, R-MRK-2): that
    planet, plus the home planet (R-MAP-4) of each participant owning no tile there. ``board``:
    that planet's board (with markers) as it stands, when the caller has it; it is enough
    when every participant owns a tile there, else only the others' tiles on their home
    planets and the markers on them are read besides (all R-BON-3 and R-MRK-2 count
    there)."""
    players = [p for p in participants if p is not None]
    if board is not None:
        return _with_home_tiles(board, campaign_id,
                                [p for p in players if not board.tile_count(p, planet_id)])
    counts = tile_counts(campaign_id, players)
    homes = {rb.home_of(per_planet) for per_planet in counts.values()
             if planet_id not in per_planet}
    return load_planet_board(campaign_id, {planet_id} | homes)


def _with_home_tiles(board: rb.Board, campaign_id: int, players: list[int]) -> rb.Board:
    """``board`` plus the tiles ``players`` own on their home planets (R-MAP-4) and the
    markers on them: two queries, not the whole planets. A player's tiles on a
    planet are all there, so the board still names its home planet."""
    if not players:
        return board
    rows = list(Tile.objects.filter(campaign_id=campaign_id, owner_id__in=players).values_list(
        "pk", "planet_id", "planet__name", "q", "r", "owner_id", "features"))
    counts: dict[int, dict[int, int]] = {}
    for _, planet, _, _, _, owner, _ in rows:
        counts.setdefault(owner, {}).setdefault(planet, 0)
        counts[owner][planet] += 1
    homes = {rb.home_of(per_planet) for per_planet in counts.values()}
    planets: dict[int, rb.Planet] = {}
    tiles = []
    for pk, planet, name, q, r, owner, features in rows:
        if planet in homes and not board.planet_tiles(planet):
            planets.setdefault(planet, rb.Planet(planet, name))
            tiles.append(rb.Tile(pk, planet, q, r, owner, frozenset(features or ())))
    if not tiles:
        return board
    markers = [rb.Marker(*row) for row in Marker.objects.filter(
        campaign_id=campaign_id, tile_id__in=[t.id for t in tiles]).values_list(
        "pk", "type__code", "tile_id")]
    return rb.Board((*board.planets, *planets.values()), (*board.tiles, *tiles), board.links,
                    board.marker_types, (*board.markers, *markers))
