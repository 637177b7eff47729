"""The public facts of map objects as the corrections log records them: JSON values
a reader understands without ids (a planet's name, a tile's coordinates, an owner's faction).
Only public map facts go in here: owner, features, markers, name, coordinates."""

from campaigns.labels import tile_label  # noqa: F401  (the one tile label, re-exported)
from campaigns.models import Planet, Tile


def tile_facts(tile: Tile) -> dict:
    """A tile's public facts: where it is, its name, owner, features and markers."""
    markers = sorted(tile.markers.values_list("type__code", flat=True)) if tile.pk else []
    return {"planet": tile.planet.name, "coordinates": [tile.q, tile.r], "name": tile.name,
            "owner": tile.owner.faction if tile.owner_id else None,
            "features": list(tile.features), "markers": markers}


def planet_facts(planet: Planet) -> dict:
    return {"name": planet.name, "tiles": planet.tiles.count() if planet.pk else 0}


def changes(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the entries that differ, as (before, after)."""
    keys = [key for key in after if before.get(key) != after[key]]
    return {key: before.get(key) for key in keys}, {key: after[key] for key in keys}
