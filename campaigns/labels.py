"""How every page, mail, feed and webhook names a tile: the one definition. A named tile is
called by its name and planet (``Grauer Pass (Nordmark Prime)``), an unnamed one by its planet
and coordinates (``Nordmark Prime (0, 1)``). A tile's name is a public map fact (R-FLT-7 hides
fleets and lists, not the map), so naming it reveals nothing new. Callers pass values they
already loaded (``tile__planet`` selected, or ``.values()`` columns): no query here."""

from django.utils.translation import gettext as _

from campaigns.models import Round


def place_label(*, planet: str | None, q, r, name: str = "") -> str:
    """The label of a tile from its planet's name, coordinates and (optional) name."""
    if name:
        return _("%(name)s (%(planet)s)") % {"name": name, "planet": planet}
    return _("%(planet)s (%(q)s, %(r)s)") % {"planet": planet, "q": q, "r": r}


def tile_label(tile) -> str:
    """``place_label`` of a Tile (with its planet selected) or a row carrying the same names."""
    return place_label(planet=tile.planet.name, q=tile.q, r=tile.r, name=tile.name)


def phase_label(code: str) -> str:
    """The translated name of a phase code; an unknown code (from a request) as given."""
    try:
        return str(Round.Phase(code).label)
    except ValueError:
        return str(code)
