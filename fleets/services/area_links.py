"""The map editor's finer writes on areas: one link between two areas, and the tiles
a coastal area borders (R-MAP-3). Areas have their own adjacency graph; the rules put no limit
on which kinds link [reading of R-MAP-3], only that a link joins two different areas of one
campaign. Corrections in a running campaign (``campaigns.services.corrections``); links and
borders are public facts of the map, so they are logged publicly."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import RuleViolation
from campaigns.models import Tile
from campaigns.services.corrections import correction
from campaigns.services.map import owned
from fleets.models import Area
from fleets.values import area_shape_error


def _pair(a: Area, b: Area) -> tuple[Area, Area]:
    owned(a.campaign, b, "b")
    if a.pk == b.pk:
        raise RuleViolation(_("An area is not adjacent to itself (R-MAP-3)."), code="R-MAP-3",
                            field="b")
    return (a, b) if a.pk < b.pk else (b, a)


def _log(a: Area, b: Area, actor, kind: str, linked: bool,
         reason: str = "") -> None:
    correction(campaign=a.campaign, actor=actor, kind=kind, target=f"{a.name} - {b.name}",
               before={"linked": not linked}, after={"linked": linked}, reason=reason)


@transaction.atomic
def area_link_add(*, a: Area, b: Area, actor=None, reason: str = "") -> None:
    """Link two areas (symmetric, R-MAP-3); linking them again is refused."""
    a, b = _pair(a, b)
    if a.adjacent.filter(pk=b.pk).exists():
        raise RuleViolation(_("%(a)s and %(b)s are linked already (R-MAP-3).")
                            % {"a": a.name, "b": b.name},
                            code="R-MAP-3", field="b")
    _log(a, b, actor, "area.link", linked=True, reason=reason)
    a.adjacent.add(b)


@transaction.atomic
def area_link_remove(*, a: Area, b: Area, actor=None, reason: str = "") -> None:
    a, b = _pair(a, b)
    if not a.adjacent.filter(pk=b.pk).exists():
        raise RuleViolation(_("%(a)s and %(b)s are not linked (R-MAP-3).")
                            % {"a": a.name, "b": b.name},
                            code="R-MAP-3", field="b")
    _log(a, b, actor, "area.unlink", linked=False, reason=reason)
    a.adjacent.remove(b)


@transaction.atomic
def area_borders_set(*, area: Area, tiles, actor=None, reason: str = "") -> Area:
    """The tiles a coastal area borders (R-MAP-3: only a coastal area lists them; an orbit
    borders every tile of its planet, an ocean or island none)."""
    tiles: list[Tile] = list(tiles)
    for index, tile in enumerate(tiles):
        owned(area.campaign, tile, f"borders_tiles[{index}]")
    error = area_shape_error(kind=area.kind, has_planet=area.planet_id is not None,
                             has_borders=bool(tiles), has_owner=area.owner_id is not None)
    if error:
        raise RuleViolation(_("%(problem)s (R-MAP-3)") % {"problem": error[1]}, code="R-MAP-3",
                            field=error[0])
    before = sorted(area.borders_tiles.values_list("pk", flat=True))
    after = sorted(t.pk for t in tiles)
    if before != after:
        correction(campaign=area.campaign, actor=actor, kind="area.borders",
                   target=f"area {area.name}", before={"borders_tiles": before},
                   after={"borders_tiles": after}, reason=reason)
        area.borders_tiles.set(tiles)
    return area
