"""The map document (API.md GET/POST map): the checks shared with the one-object builders,
``parse`` that validates a whole import document into a plan, and ``write`` that stores it.

In a document, ``id`` values are local keys (integers or strings) that links, areas and
fleets refer to; owners are player ids of the campaign. ``parse`` never raises anything but
``DocumentInvalid``, whatever JSON it is given, and reports every problem by its path
(``planets[0].tiles[3].features[1]``)."""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.errors import Conflict, RuleViolation
from campaigns.models import (
    TILE_NAME_MAX,
    Campaign,
    Marker,
    MarkerType,
    Planet,
    Player,
    Round,
    Tile,
    TileLink,
)
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services.corrections import (
    check_correctable,
    clean_reason,
    correction,
    is_running,
)
from campaigns.values import (
    COORDINATE_LIMIT,
    FEATURES,
    feature_error,
    int_error,
    is_int,
    marker_tile_error,
    normalized_features,
    show,
    text_error,
)
from fleets.messages import ship_value_text
from fleets.models import Area, Fleet, Ship
from fleets.values import area_shape_error, fleet_owner_error, second_orbit_error, ship_fields
from rules.interception import AF_RANGE
from rules.ship_values import ship_problems

# Bounds on a document, so that no request can make the server work without end.
MAX = {"planets": 500, "tiles": 20_000, "features": len(FEATURES), "markers": 20,
       "links": 20_000, "areas": 2_000, "adjacent": 2_000, "borders_tiles": 20_000,
       "fleets": 2_000, "ships": 100}  # a ship's own bounds: rules.ship_values
MAX_ERRORS = 100
_SPACE_WORDS = {  # the kinds of local keys of a document
    "planet": {"duplicate": gettext_lazy("duplicate planet id %(value)s"),
               "missing": gettext_lazy("no planet with id %(value)s in the document")},
    "tile": {"duplicate": gettext_lazy("duplicate tile id %(value)s"),
             "missing": gettext_lazy("no tile with id %(value)s in the document")},
    "area": {"duplicate": gettext_lazy("duplicate area id %(value)s"),
             "missing": gettext_lazy("no area with id %(value)s in the document")},
}


class DocumentInvalid(RuleViolation):
    """A rejected import document; ``errors`` maps each offending path to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        path, messages = next(iter(errors.items()))
        super().__init__(f"{path}: {messages[0]}", field=path)
        self.errors = errors


# --- the plan a valid document turns into ---

@dataclass
class TilePlan:
    q: int
    r: int
    owner: int | None
    features: list[str]
    markers: list[int]  # marker type ids
    name: str = ""  # optional, "" = shown by its coordinates


@dataclass
class PlanetPlan:
    name: str
    tiles: list[TilePlan]


@dataclass
class AreaPlan:
    name: str
    kind: str
    owner: int | None
    planet: int | None = None  # index into plan.planets
    adjacent: list[int] = field(default_factory=list)  # indexes into plan.areas
    borders: list[int] = field(default_factory=list)  # indexes into the document's tiles


@dataclass
class FleetPlan:
    name: str
    kind: str
    owner: int | None
    admiral_rating: int
    ships: list[dict]  # Ship field values
    area: int | None = None  # index into plan.areas


@dataclass
class MapPlan:
    planets: list[PlanetPlan]
    links: list[tuple[int, int]]  # tile indexes
    areas: list[AreaPlan]
    fleets: list[FleetPlan]


def _join(path: str, part) -> str:
    return f"{path}.{part}" if path else str(part)


class _Parser:
    """Walks a document, recording every error by path; returns None for what is invalid."""

    def __init__(self, players: set[int], marker_types: dict[str, int], detachment_points: int):
        self.players = players
        self.marker_types = marker_types
        self.detachment_points = detachment_points
        self.errors: dict[str, list[str]] = {}
        self.keys: dict[str, dict] = {"planet": {}, "tile": {}, "area": {}}
        self.tile_count = 0
        self.orbits: dict[int, str] = {}  # planet index -> path of its orbit area

    def error(self, path: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.setdefault(path or "non_field_errors", []).append(message)

    def check(self, path: str, message: str | None) -> bool:
        if message:
            self.error(path, message)
        return message is None

    # -- generic shapes --

    def mapping(self, value, path: str, required=(), optional=()) -> dict | None:
        if not isinstance(value, dict):
            self.error(path, _("must be an object"))
            return None
        for key in value:
            if key not in required and key not in optional:
                self.error(_join(path, key), _("unknown field"))
        for key in required:
            if key not in value:
                self.error(_join(path, key), _("this field is required"))
        return value

    def array(self, value, path: str, name: str) -> list:
        if not isinstance(value, list):
            self.error(path, _("must be a list"))
            return []
        if len(value) > MAX[name]:
            self.error(path, _("at most %(limit)s items") % {"limit": MAX[name]})
            return []
        return value

    def integer(self, obj: dict, name: str, path: str, low: int, high: int, default=None):
        if name not in obj and default is None:
            return None  # reported as a missing field
        value = obj.get(name, default)
        return value if self.check(_join(path, name), int_error(value, low, high)) else None

    def text(self, obj: dict, name: str, path: str, default=None, blank=False, limit=None):
        if name not in obj and default is None:
            return None  # reported as a missing field
        value = obj.get(name, default)
        error = text_error(value, **({"limit": limit} if limit else {}), blank=blank)
        return value if self.check(_join(path, name), error) else None

    def player(self, value, path: str) -> int | None:
        if value is not None and not (is_int(value) and value in self.players):
            self.error(path, _("unknown player %(value)s") % {"value": show(value)})
            return None
        return value

    def key(self, value, path: str) -> bool:
        valid = is_int(value) or isinstance(value, str) and 0 < len(value) <= 100
        if not valid:
            self.error(path, _("a local key is an integer or a short string"))
        return valid

    def declare(self, space: str, obj: dict, path: str, index: int) -> None:
        """Record the local key ``obj["id"]`` (if any) of item ``index`` of ``space``."""
        if "id" not in obj or not self.key(obj["id"], _join(path, "id")):
            return
        seen = self.keys[space]
        if obj["id"] in seen:
            self.error(_join(path, "id"), _SPACE_WORDS[space]["duplicate"]
                       % {"value": show(obj["id"])})
        else:
            seen[obj["id"]] = index

    def resolve(self, space: str, value, path: str) -> int | None:
        if not self.key(value, path):
            return None
        if value not in self.keys[space]:
            self.error(path, _SPACE_WORDS[space]["missing"] % {"value": show(value)})
            return None
        return self.keys[space][value]

    def refs(self, space: str, obj: dict, name: str, path: str) -> list[int]:
        """A list of local keys of ``space``, resolved to indexes, each once."""
        path = _join(path, name)
        result: dict[int, None] = {}  # ordered and quick to look up
        for i, value in enumerate(self.array(obj.get(name, []), path, name)):
            index = self.resolve(space, value, f"{path}[{i}]")
            if index is not None and index in result:
                self.error(f"{path}[{i}]", _("%(value)s is listed twice") % {"value": show(value)})
            elif index is not None:
                result[index] = None
        return list(result)

    # -- the document --

    def document(self, document) -> MapPlan:
        # ``planets`` is required so that an empty body can not wipe a map by accident.
        doc = self.mapping(document, "", required=("planets",),
                           optional=("links", "areas", "fleets")) or {}
        planets = [self.planet(value, f"planets[{i}]", i)
                   for i, value in enumerate(self.array(doc.get("planets", []), "planets",
                                                       "planets"))]
        areas_raw = self.array(doc.get("areas", []), "areas", "areas")
        for i, value in enumerate(areas_raw):
            if isinstance(value, dict):
                self.declare("area", value, f"areas[{i}]", i)
        links = self.links(doc.get("links", []))
        areas = [self.area(value, f"areas[{i}]", i) for i, value in enumerate(areas_raw)]
        fleets = [self.fleet(value, f"fleets[{i}]", i)
                  for i, value in enumerate(self.array(doc.get("fleets", []), "fleets",
                                                      "fleets"))]
        return MapPlan(planets=planets, links=links, areas=areas, fleets=fleets)

    def planet(self, value, path: str, index: int) -> PlanetPlan | None:
        obj = self.mapping(value, path, required=("name",), optional=("id", "tiles"))
        if obj is None:
            return None
        self.declare("planet", obj, path, index)
        name = self.text(obj, "name", path)
        tiles, hexes = [], {}
        for j, raw in enumerate(self.array(obj.get("tiles", []), _join(path, "tiles"), "tiles")):
            tile_path = f"{path}.tiles[{j}]"
            tile = self.tile(raw, tile_path)
            tiles.append(tile)
            if tile is None or tile.q is None or tile.r is None:
                continue
            if (tile.q, tile.r) in hexes:
                self.error(tile_path, _("duplicate hex (%(q)s, %(r)s), also at %(other)s")
                           % {"q": tile.q, "r": tile.r, "other": hexes[tile.q, tile.r]})
            hexes.setdefault((tile.q, tile.r), tile_path)
        return PlanetPlan(name=name, tiles=tiles)

    def tile(self, value, path: str) -> TilePlan | None:
        index = self.tile_count
        self.tile_count += 1
        if self.tile_count > MAX["tiles"]:
            if self.tile_count == MAX["tiles"] + 1:
                self.error(path, _("at most %(limit)s tiles in a map") % {"limit": MAX["tiles"]})
            return None
        obj = self.mapping(value, path, required=("q", "r"),
                          optional=("id", "name", "owner", "features", "markers"))
        if obj is None:
            return None
        self.declare("tile", obj, path, index)
        owner = self.player(obj.get("owner"), _join(path, "owner"))
        return TilePlan(q=self.integer(obj, "q", path, -COORDINATE_LIMIT, COORDINATE_LIMIT),
                        r=self.integer(obj, "r", path, -COORDINATE_LIMIT, COORDINATE_LIMIT),
                        owner=owner, features=self.features(obj, path),
                        markers=self.markers(obj, path, owner),
                        name=(self.text(obj, "name", path, default="", blank=True,
                                        limit=TILE_NAME_MAX) or "").strip())

    def features(self, obj: dict, path: str) -> list[str]:
        path = _join(path, "features")
        features = self.array(obj.get("features", []), path, "features")
        for i, value in enumerate(features):
            if self.check(f"{path}[{i}]", feature_error(value)) and value in features[:i]:
                self.error(f"{path}[{i}]", _("%(value)s is listed twice") % {"value": show(value)})
        return normalized_features([v for v in features if isinstance(v, str)])

    def markers(self, obj: dict, path: str, owner: int | None) -> list[int]:
        path = _join(path, "markers")
        result = []
        for i, value in enumerate(self.array(obj.get("markers", []), path, "markers")):
            marker_path = f"{path}[{i}]"
            marker = self.mapping(value, marker_path, required=("type",), optional=("owner",))
            if marker is None:
                continue
            code = marker.get("type")
            if not isinstance(code, str) or code not in self.marker_types:
                self.error(_join(marker_path, "type"),
                           _("unknown marker type %(value)s") % {"value": show(code)})
            else:
                result.append(self.marker_types[code])
            # R-MRK-4 on the owner as given: an unknown one is reported at the tile only
            if self.check(marker_path, marker_tile_error(obj.get("owner"))) and \
                    marker.get("owner", owner) != owner:
                self.error(_join(marker_path, "owner"),
                           _("a marker belongs to the owner of its tile (R-MRK-4)"))
        return result

    def links(self, value) -> list[tuple[int, int]]:
        result: list[tuple[int, int]] = []
        pairs: dict[frozenset, str] = {}
        for i, pair in enumerate(self.array(value, "links", "links")):
            path = f"links[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                self.error(path, _("a link is a list of two tile ids"))
                continue
            a, b = (self.resolve("tile", pair[k], f"{path}[{k}]") for k in (0, 1))
            if a is None or b is None:
                continue
            if a == b:
                self.error(path, _("a tile can not be linked to itself"))
            elif frozenset((a, b)) in pairs:
                self.error(path, _("duplicate link, also at %(other)s")
                           % {"other": pairs[frozenset((a, b))]})
            else:
                pairs[frozenset((a, b))] = path
                result.append((a, b))
        return result

    def area(self, value, path: str, index: int) -> AreaPlan | None:
        obj = self.mapping(value, path, required=("name", "kind"),
                          optional=("id", "planet", "adjacent", "borders_tiles", "owner"))
        if obj is None:
            return None
        planet = None
        if obj.get("planet") is not None:
            planet = self.resolve("planet", obj["planet"], _join(path, "planet"))
        adjacent = self.refs("area", obj, "adjacent", path)
        if index in adjacent:
            self.error(_join(path, "adjacent"), _("an area is not adjacent to itself"))
        area = AreaPlan(name=self.text(obj, "name", path), kind=obj.get("kind"),
                        owner=self.player(obj.get("owner"), _join(path, "owner")),
                        planet=planet, adjacent=adjacent,
                        borders=self.refs("tile", obj, "borders_tiles", path))
        shape = area_shape_error(kind=area.kind, has_planet=obj.get("planet") is not None,
                                 has_borders=bool(obj.get("borders_tiles")),
                                 has_owner=obj.get("owner") is not None)
        if shape:
            self.error(_join(path, shape[0]), shape[1])
        elif area.kind == Area.Kind.ORBIT and planet is not None:
            if planet in self.orbits:
                self.error(_join(path, "planet"), second_orbit_error(self.orbits[planet]))
            self.orbits.setdefault(planet, path)
        return area

    def fleet(self, value, path: str, index: int) -> FleetPlan | None:
        obj = self.mapping(value, path, required=("owner", "area"),
                          optional=("id", "name", "kind", "admiral_rating", "ships",
                                    "ship_count"))
        if obj is None:
            return None
        kind = obj.get("kind", Fleet.Kind.REGULAR)
        if kind not in Fleet.Kind.values:
            self.error(_join(path, "kind"), _("unknown kind %(kind)s (kinds: %(kinds)s)")
                       % {"kind": show(kind), "kinds": ", ".join(Fleet.Kind.values)})
        owner = self.player(obj.get("owner"), _join(path, "owner"))
        if "owner" in obj and kind in Fleet.Kind.values:
            self.check(_join(path, "owner"),
                       fleet_owner_error(kind=kind, has_owner=obj["owner"] is not None))
        fleet = FleetPlan(
            name=self.text(obj, "name", path, default=f"Fleet {index + 1}"), kind=kind,
            owner=owner, admiral_rating=self.integer(obj, "admiral_rating", path,
                                                 *AF_RANGE, default=0),
            ships=self.ships(obj, path),
            area=self.resolve("area", obj["area"], _join(path, "area")) if "area" in obj else None)
        return fleet

    def ships(self, obj: dict, path: str) -> list[dict]:
        """The fleet's ships; a fleet as GET /map/ shows it (a ``ship_count``, no ``ships``)
        gets that many ships of default values, so a shown map imports as it is."""
        count = None
        if "ship_count" in obj:
            count = self.integer(obj, "ship_count", path, 0, MAX["ships"])
        if "ships" not in obj:
            return [{"name": f"Ship {n + 1}"} for n in range(count or 0)]
        ships_path = _join(path, "ships")
        raw = self.array(obj["ships"], ships_path, "ships")
        if count is not None and count != len(raw):
            self.error(_join(path, "ship_count"),
                       ngettext("%(count)s ship is given", "%(count)s ships are given",
                                len(raw)) % {"count": len(raw)})
        return [self.ship(value, f"{ships_path}[{i}]") for i, value in enumerate(raw)]

    def ship(self, value, path: str) -> dict:
        """A ship as the fleet API takes it (``rules.ship_values``: R-FLT-2, R-SPC-1; a
        datasheet is complete or null), every problem reported by its path."""
        problems = ship_problems(value, detachment_points=self.detachment_points)
        for problem in problems:
            self.error(problem.at(path), ship_value_text(problem))
        return {} if problems else ship_fields(value)


def parse(document, *, players: set[int], marker_types: dict[str, int],
          detachment_points: int) -> MapPlan:
    """Validate a whole import document against the campaign's players and marker types
    (code -> id); raises ``DocumentInvalid`` naming every offending path."""
    parser = _Parser(players, marker_types, detachment_points)
    plan = parser.document(document)
    if parser.errors:
        raise DocumentInvalid(parser.errors)
    return plan


def write(campaign, plan: MapPlan) -> None:
    """Store a parsed plan as the campaign's map (the old one is already gone)."""
    planets = Planet.objects.bulk_create(
        Planet(campaign=campaign, name=planet.name) for planet in plan.planets)
    tile_plans = [(planet, tile) for planet, p in zip(planets, plan.planets, strict=True)
                  for tile in p.tiles]
    tiles = Tile.objects.bulk_create(
        Tile(campaign=campaign, planet=planet, q=t.q, r=t.r, owner_id=t.owner,
             features=t.features, name=t.name) for planet, t in tile_plans)
    Marker.objects.bulk_create(
        Marker(campaign=campaign, tile=tile, type_id=type_id)
        for tile, (_, t) in zip(tiles, tile_plans, strict=True) for type_id in t.markers)
    TileLink.objects.bulk_create(
        TileLink(campaign=campaign, a_id=min(tiles[a].pk, tiles[b].pk),
                 b_id=max(tiles[a].pk, tiles[b].pk)) for a, b in plan.links)
    areas = Area.objects.bulk_create(
        Area(campaign=campaign, name=a.name, kind=a.kind, owner_id=a.owner,
             planet=None if a.planet is None else planets[a.planet]) for a in plan.areas)
    _write_area_links(plan, areas, tiles)
    fleets = Fleet.objects.bulk_create(
        Fleet(campaign=campaign, owner_id=f.owner, name=f.name, kind=f.kind,
              admiral_rating=f.admiral_rating, area=areas[f.area]) for f in plan.fleets)
    Ship.objects.bulk_create(
        Ship(fleet=fleet, position=position, **ship)
        for fleet, f in zip(fleets, plan.fleets, strict=True)
        for position, ship in enumerate(f.ships, start=1))
    bump(campaign.pk)  # no signals: campaigns/revision.py


def _write_area_links(plan: MapPlan, areas: list[Area], tiles: list[Tile]) -> None:
    """Adjacency is stored both ways (a symmetric relation), so a one-sided list in the
    document still makes both areas neighbours."""
    pairs = {(areas[i].pk, areas[j].pk) for i, a in enumerate(plan.areas) for j in a.adjacent}
    pairs |= {(b, a) for a, b in pairs}
    Adjacent = Area.adjacent.through
    Adjacent.objects.bulk_create(Adjacent(from_area_id=a, to_area_id=b) for a, b in sorted(pairs))
    Borders = Area.borders_tiles.through
    Borders.objects.bulk_create(
        Borders(area_id=area.pk, tile_id=tiles[t].pk)
        for area, a in zip(areas, plan.areas, strict=True) for t in a.borders)


# --- the import service ---

def _check_map_replaceable(campaign: Campaign) -> None:
    if Round.objects.filter(campaign=campaign, number=1, phase=Round.Phase.CLOSED).exists():
        raise Conflict(_("The map can only be replaced before round 1 closes."), code="wrong_phase")


def _map_size(campaign: Campaign) -> dict:
    """What the corrections log says about a replaced map: public counts only."""
    return {"planets": Planet.objects.filter(campaign=campaign).count(),
            "tiles": Tile.objects.filter(campaign=campaign).count(),
            "areas": Area.objects.filter(campaign=campaign).count()}


@transaction.atomic
def map_import(*, campaign: Campaign, document, actor=None, reason: str = "") -> None:
    """Replace the campaign's whole map (planets, tiles, links, markers, areas, fleets and
    their ships) with ``document``, the shape GET /map/ shows. The document is validated as a
    whole first: any error rejects it (``DocumentInvalid``, errors by path). In a running
    campaign it is a correction: refused while the fleets phase runs, logged with
    the admin's optional ``reason``."""
    reason = clean_reason(reason)
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # one import at a time
    _check_map_replaceable(campaign)
    campaign.refresh_from_db(fields=["status"])
    if is_running(campaign):
        check_correctable(campaign)
    before = _map_size(campaign)
    plan = parse(
        document,
        players=set(Player.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        marker_types=dict(MarkerType.objects.filter(campaign=campaign)
                          .values_list("code", "pk")),
        detachment_points=_detachment_points(campaign))
    _clear_map(campaign)
    write(campaign, plan)
    correction(campaign=campaign, actor=actor, kind="map.import", target=campaign.name,
               before=before, after=_map_size(campaign), reason=reason)


def _detachment_points(campaign: Campaign) -> int:
    return ruleset_of(campaign).detachment_points


def _clear_map(campaign: Campaign) -> None:
    Fleet.objects.filter(campaign=campaign).delete()  # ships go with them
    Area.objects.filter(campaign=campaign).delete()
    Marker.objects.filter(campaign=campaign).delete()
    TileLink.objects.filter(campaign=campaign).delete()
    Tile.objects.filter(campaign=campaign).delete()
    Planet.objects.filter(campaign=campaign).delete()
