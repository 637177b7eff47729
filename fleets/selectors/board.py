"""The campaign map as the rules see it (``rules.board.Board``), and what a player has in a
planet's orbit (R-ATK-3). Reads only; a constant number of queries whatever the map's size."""

from collections import defaultdict

from campaigns.models import (
    Attack,
    Campaign,
    Marker,
    MarkerType,
    Planet,
    Player,
    Round,
    Tile,
    TileLink,
)
from fleets.models import Area, Fleet, Ship
from rules import board as rb
from rules.attacks import OrbitInfo


def load_board(campaign: Campaign) -> rb.Board:
    """The campaign's planets, tiles, links, marker types and markers as a ``Board``
    (R-MAP-1..2, R-MRK-1, R-MRK-4), in five queries."""
    campaign_id = campaign.pk
    planets = [rb.Planet(pk, name) for pk, name in
               Planet.objects.filter(campaign_id=campaign_id).values_list("pk", "name")]
    tiles = [rb.Tile(pk, planet, q, r, owner, frozenset(features or ()))
             for pk, planet, q, r, owner, features in
             Tile.objects.filter(campaign_id=campaign_id).values_list(
                 "pk", "planet_id", "q", "r", "owner_id", "features")]
    links = list(TileLink.objects.filter(campaign_id=campaign_id).values_list("a_id", "b_id"))
    types = [rb.MarkerType(*row) for row in
             MarkerType.objects.filter(campaign_id=campaign_id).values_list(
                 "code", "name", "army_points_bonus", "conquest_modifier", "radius")]
    markers = [rb.Marker(*row) for row in
               Marker.objects.filter(campaign_id=campaign_id).values_list(
                   "pk", "type__code", "tile_id")]
    return rb.Board(planets, tiles, links, types, markers)


def cargo_points(cargo) -> int:
    """Army points of a ship's embarked detachments (``[{"name", "points"}]``, R-FLT-2);
    malformed entries count nothing."""
    if not isinstance(cargo, list):
        return 0
    return sum(item["points"] for item in cargo
               if isinstance(item, dict) and type(item.get("points")) is int
               and item["points"] > 0)


def orbit_forces(campaign: Campaign) -> dict[tuple[int, int], tuple[int, bool]]:
    """(player id, planet id) -> (embarked army points, has a fleet there) for every player
    fleet in an orbit area of the campaign (R-ATK-3), in two queries."""
    in_orbit = {"campaign": campaign, "owner__isnull": False, "area__kind": Area.Kind.ORBIT,
                "area__planet__isnull": False}
    forces: dict[tuple[int, int], list] = defaultdict(lambda: [0, False])
    for owner, planet in Fleet.objects.filter(**in_orbit).values_list("owner_id",
                                                                      "area__planet_id"):
        forces[(owner, planet)][1] = True
    ships = Ship.objects.filter(**{f"fleet__{key}": value for key, value in in_orbit.items()})
    for owner, planet, cargo in ships.values_list("fleet__owner_id", "fleet__area__planet_id",
                                                  "cargo"):
        forces[(owner, planet)][0] += cargo_points(cargo)
    return {key: (points, has_fleet) for key, (points, has_fleet) in forces.items()}


def orbital_declarations(rnd: Round, player: Player, planet_id: int) -> int:
    """The player's active orbital declarations on a planet in the round (R-ATK-3 n)."""
    return Attack.objects.filter(round=rnd, player=player, tile__planet_id=planet_id,
                                 source=Attack.Source.ORBIT,
                                 status=Attack.Status.ACTIVE).count()


def orbit_info(campaign: Campaign, player: Player, planet_id: int, *,
               rnd: Round | None = None) -> OrbitInfo:
    """R-ATK-3 inputs for ``player`` attacking ``planet_id`` from orbit: embarked army points of
    its fleets in that planet's orbit area(s), whether it has a fleet there, and its active
    orbital declarations on that planet in ``rnd`` (default: the campaign's current round)."""
    fleets = Fleet.objects.filter(campaign=campaign, owner=player, area__kind=Area.Kind.ORBIT,
                                  area__planet_id=planet_id)
    cargo = list(Ship.objects.filter(fleet__in=fleets).values_list("cargo", flat=True))
    has_fleet = bool(cargo) or fleets.exists()
    rnd = rnd or campaign.rounds.order_by("-number").first()
    declarations = orbital_declarations(rnd, player, planet_id) if rnd else 0
    return OrbitInfo(embarked_points=sum(cargo_points(c) for c in cargo),
                     has_fleet=has_fleet, declarations=declarations)
