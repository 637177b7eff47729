"""The map editor's chart of sea and space areas: the areas on a ring, in id order,
and their links as lines. Coordinates go to the template as locale-independent strings
(``web.presenters.numbers.svg_number``), so a German page draws the same chart."""

import math
from dataclasses import dataclass

from web.presenters.numbers import svg_number

SIZE = 400  # the viewBox is SIZE x SIZE
RING = 150  # radius of the ring the areas sit on
NODE = 26  # radius of an area's circle


@dataclass(frozen=True)
class Node:
    id: int
    name: str
    kind: str
    fleets: int
    x: str
    y: str
    label_y: str


@dataclass(frozen=True)
class Line:
    a: int
    b: int
    x1: str
    y1: str
    x2: str
    y2: str


@dataclass(frozen=True)
class Chart:
    size: str
    radius: str
    nodes: list[Node]
    lines: list[Line]


def _place(index: int, count: int) -> tuple[float, float]:
    if count == 1:
        return SIZE / 2, SIZE / 2
    angle = 2 * math.pi * index / count - math.pi / 2
    return SIZE / 2 + RING * math.cos(angle), SIZE / 2 + RING * math.sin(angle)


def area_chart(areas, links, fleet_counts: dict[int, int]) -> Chart:
    """``areas`` in order, ``links`` as (a id, b id) pairs, ``fleet_counts`` by area id."""
    spots = {area.pk: _place(i, len(areas)) for i, area in enumerate(areas)}
    nodes = [Node(area.pk, area.name, area.kind, fleet_counts.get(area.pk, 0),
                  svg_number(spots[area.pk][0]), svg_number(spots[area.pk][1]),
                  svg_number(spots[area.pk][1] + NODE + 14))
             for area in areas]
    lines = [Line(a, b, svg_number(spots[a][0]), svg_number(spots[a][1]),
                  svg_number(spots[b][0]), svg_number(spots[b][1]))
             for a, b in links if a in spots and b in spots]
    return Chart(svg_number(SIZE), svg_number(NODE), nodes, lines)
