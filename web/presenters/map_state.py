"""What the map presenter (``web.presenters.hexmap.draw_map``) draws besides the map itself:
the map state of a moment (now, or the end of a closed round) and what one reader may see of
their own fleets, and the pieces of a drawing that depend on the reader (the rest
is drawn once per map revision and kept)."""

from dataclasses import dataclass, field
from html import escape
from typing import NamedTuple


@dataclass(frozen=True)
class MapState:
    """What changes from round to round: ``owners`` tile id -> player id (or None),
    ``markers`` tile id -> marker type codes, ``fleets`` area id -> public fleets
    ``{"owner", "ships"}`` (plus ``"id"`` and ``"kind"`` for the current map). Tiles missing
    from ``owners`` are drawn neutral."""

    owners: dict = field(default_factory=dict)
    markers: dict = field(default_factory=dict)
    fleets: dict = field(default_factory=dict)

    @classmethod
    def from_document(cls, document: dict) -> "MapState":
        """The current state, as the map document (``league.selectors.map``) has it."""
        owners, markers, fleets = {}, {}, {}
        for planet in document["planets"]:
            for tile in planet["tiles"]:
                owners[tile["id"]] = tile["owner"]
                markers[tile["id"]] = [m["type"] for m in tile["markers"]]
        for fleet in document["fleets"]:
            fleets.setdefault(fleet["area"], []).append(
                {"id": fleet["id"], "owner": fleet["owner"], "ships": fleet["ship_count"],
                 "kind": fleet["kind"]})
        return cls(owners, markers, fleets)

    @classmethod
    def from_snapshot(cls, tiles: dict, fleets: list) -> "MapState":
        """A closed round's state from its ``RoundMap`` (``tiles``: {tile id: {"owner",
        "markers"}}, JSON keys as strings; ``fleets``: [{"area", "owner", "ships"}])."""
        by_area = {}
        for fleet in fleets:
            by_area.setdefault(fleet["area"], []).append(
                {"owner": fleet.get("owner"), "ships": fleet.get("ships", 0)})
        return cls({int(k): v.get("owner") for k, v in tiles.items()},
                   {int(k): list(v.get("markers", ())) for k, v in tiles.items()}, by_area)


@dataclass(frozen=True)
class Viewer:
    """What one reader may see beyond public facts (R-FLT-7): ``own_fleets`` fleet id -> name
    (their own; all for the admin), ``orders`` fleet id -> path of area ids (their own movement
    orders, given only during ``declare``), ``details`` fleet id -> the full fleet (ships) that
    the area list shows under its public line."""

    own_fleets: dict = field(default_factory=dict)
    orders: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)  # fleet id -> full fleet for the area cards


class Token(NamedTuple):
    """A fleet token as the map draws it for everyone (its owner's faction in its title), cut
    where it differs for the fleet's owner and the admin (R-FLT-7): the class ``own`` and the
    fleet's name instead of the faction. ``start + rest + who + end`` is the public token."""

    fleet_id: int
    start: str  # up to the end of the class attribute's value
    rest: str  # from there up to the name in the title
    who: str  # the owner's faction, escaped
    end: str

    def render(self, viewer: Viewer) -> str:
        name = viewer.own_fleets.get(self.fleet_id)
        if not name:
            return self.start + self.rest + self.who + self.end
        return f"{self.start} own{self.rest}{escape(name)}{self.end}"


def joined(pieces: list, render) -> str:
    """Strings as they are, every other piece through ``render(piece)``."""
    return "".join(piece if type(piece) is str else render(piece) for piece in pieces)


def merged(pieces: list) -> list:
    """``pieces`` with neighbouring strings joined into one (less to keep, less to join)."""
    out, run = [], []
    for piece in pieces:
        if type(piece) is str:
            run.append(piece)
            continue
        if run:
            out.append("".join(run))
            run = []
        out.append(piece)
    if run:
        out.append("".join(run))
    return out
