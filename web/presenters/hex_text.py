"""What a hex shows inside its edges: an owner's short label, a row of icons and the tile's
name wrapped onto up to three lines, each line sized so that it stays inside the hexagon
(pointy-top, R-MAP-1). Pure arithmetic on estimated text widths: the widths are DejaVu Sans's
(among the widest sans-serif faces browsers fall back to), so narrower faces fit too. Used by
the map (``web.presenters.hexmap``) and the editor grid (``web.presenters.editor_grid``)."""

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

# advance widths in em (DejaVu Sans); other characters count as the widest common letter
_NARROW = dict.fromkeys("ijlIJ'.,:;!|", 0.29) | dict.fromkeys("ft()[]/-’ ", 0.39)
_WIDE = dict.fromkeys("mwMW&…@%", 1.0) | dict.fromkeys("DGHNOQUÖÜ", 0.79)
_LOWER = 0.64  # a, b, e, n, ... and digits
_UPPER = 0.72
WIDEST = 1.0
BOLD = 1.12  # bold letters are this much wider
HALO = 1.2  # the light outline round the letters (CSS stroke-width 2px), half of it outside
LEADING = 1.12  # line height in font sizes
CAP = 0.74  # height above the baseline (capitals, accents) in font sizes
DESCENT = 0.24


def char_width(char: str) -> float:
    if char in _NARROW:
        return _NARROW[char]
    if char in _WIDE:
        return _WIDE[char]
    if char.isdigit() or char.islower():
        return _LOWER
    if char.isupper():
        return _UPPER
    return WIDEST


def text_width(text: str, size: float) -> float:
    """The estimated width of ``text`` at font size ``size`` (SVG units)."""
    return _ems(text) * size


@lru_cache(maxsize=16384)
def _ems(text: str) -> float:
    return sum(map(char_width, text))


def half_width(y: float, radius: float) -> float:
    """Half the width of a pointy-top hexagon of corner radius ``radius`` at height ``y``
    from its centre."""
    y = abs(y)
    if y >= radius:
        return 0.0
    if y <= radius / 2:
        return radius * math.sqrt(3) / 2
    return math.sqrt(3) * (radius - y)


def room(top: float, bottom: float, radius: float, pad: float) -> float:
    """The width free for a band from ``top`` to ``bottom`` (the narrower of its edges)."""
    return 2 * min(half_width(top, radius), half_width(bottom, radius)) - 2 * pad


@dataclass(frozen=True)
class Layout:
    """Where a hex's contents go, relative to its centre: ``label_y`` the owner label's
    baseline (None: no label), ``icon_y``/``icon_size``/``icon_x`` the icons' top, size and
    each one's left edge, ``lines`` the name's lines with their baselines ``line_ys`` at font
    size ``size``. ``label_size`` the label's font size."""

    lines: tuple[str, ...]
    line_ys: tuple[float, ...]
    size: float
    label_y: float | None = None
    label_size: float = 0.0
    icon_y: float = 0.0
    icon_size: float = 0.0
    icon_x: tuple[float, ...] = ()


def _splits(words: list[str], count: int):
    """Every way to cut ``words`` into ``count`` non-empty consecutive lines."""
    if count > len(words):
        return
    for cuts in combinations(range(1, len(words)), count - 1):
        bounds = (0, *cuts, len(words))
        yield tuple(" ".join(words[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))


def _pieces(name: str, chunk: int) -> list[str]:
    """The name's words, split after their own hyphens (``JOIN``), a part longer than
    ``chunk`` letters cut (``CUT`` marks the cut)."""
    out = []
    for word in name.split():
        parts = word.split("-")
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            while len(part) > chunk + 1:
                out.append(part[:chunk] + CUT)
                part = part[chunk:]
            if part or not last:
                out.append(part if last else part + "-" + JOIN)
    return out


CUT = "\u00ad"  # a word cut here: a hyphen at a line's end, nothing within a line
JOIN = "\u200b"  # a word's own hyphen: nothing more at a line's end or within a line


def _joined(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Cut pieces on one line joined again; a cut at a line's end shown as a hyphen."""
    return tuple(line.replace(CUT + " ", "").replace(CUT, "-").replace(JOIN + " ", "")
                 .replace(JOIN, "") for line in lines)


SIZES = tuple(x / 4 for x in range(36, 11, -1))  # 9 down to 3 in quarter steps
CUT_COST = 1.0  # a word is cut only if that makes the name this much larger


def label_band(radius: float, size: float) -> tuple[float, float]:
    """(baseline, bottom) of the owner label's band at the top of the hex: the same on every
    tile, so that each owner's label is drawn once and used on all its tiles."""
    baseline = -radius * 0.54
    return baseline, baseline + size * DESCENT + 1.0


def label_fits(label: str, radius: float, size: float, pad: float = 2.0) -> bool:
    baseline, _bottom = label_band(radius, size)
    return text_width(label, size) * BOLD + HALO <= room(baseline - size * CAP, baseline,
                                                         radius, pad)


@lru_cache(maxsize=4096)
def layout(name: str, *, radius: float, label: bool = False, icons: int = 0,
           max_size: float = 8.0, pad: float = 2.0, max_lines: int = 3,
           label_size: float = 5.0) -> Layout:
    """The largest font size (from ``max_size`` down) at which ``name`` fits the hexagon on
    up to ``max_lines`` lines, below the owner label's band at the top (``label``) and a row
    of ``icons`` icons; a long word is cut with a hyphen only where that makes the name
    clearly larger. Nothing is cut off: at the smallest size the name takes as many lines as
    it needs.

    The icons sit in one row at the same place on every tile (a map of hundreds of tiles
    repeats the same few attributes, which compress to little), the name centred below them;
    a name that would be small there is centred with the icons instead."""
    top = label_band(radius, label_size)[1] if label else -radius * 0.8
    label_y = label_band(radius, label_size)[0] if label else None
    bottom = radius * 0.8
    if not icons:
        lines, size = _best(name, (top, bottom), 0.0, 0, 0.0, radius, pad, max_size, max_lines)
        return _place(lines, size, (top, bottom), 0.0, 0, 0.0, label_y, label_size)
    icon_size = float(round(radius * 0.42))
    while icons * icon_size > room(-icon_size, 0, radius, pad):
        icon_size -= 1.0
    row = float(round(-radius * 0.42))  # the icons' top
    below = (row + icon_size + 1.0, bottom)
    lines, size = _best(name, below, 0.0, 0, 0.0, radius, pad, max_size, max_lines)
    if size >= min(FIXED_MIN, max_size):
        placed = _place(lines, size, below, 0.0, 0, 0.0, label_y, label_size)
        left = -icons * icon_size / 2
        return Layout(lines=placed.lines, line_ys=placed.line_ys, size=size, label_y=label_y,
                      label_size=placed.label_size, icon_y=row, icon_size=icon_size,
                      icon_x=tuple(left + i * icon_size for i in range(icons)))
    head = icon_size + 1.0
    lines, size = _best(name, (top, bottom), head, icons, icon_size, radius, pad, max_size,
                        max_lines)
    return _place(lines, size, (top, bottom), head, icons, icon_size, label_y, label_size)


FIXED_MIN = 5.0  # below this size a name under the fixed icon row is centred with the icons


def _best(name, space, head, icons, icon_size, radius, pad, max_size, max_lines):
    """(lines, size): the best way to write ``name`` in ``space`` under ``icons``."""
    shape = (space, head, icons, icon_size, radius, pad)
    whole = (" ".join(name.split()),)
    if _fits(whole, max_size, *shape):  # most names and every "q,r": one line, full size
        return whole, max_size
    candidates = []  # (lines, whether a word is cut)
    for chunk in (40, 12, 8, 5):  # smaller pieces only when the larger do not fit at all
        words = _pieces(name, chunk)
        for count in range(1, max_lines + 1):
            # the most even cuts into ``count`` lines (the hex is widest in its middle)
            splits = sorted((_joined(s) for s in _splits(words, count)),
                            key=lambda lines: max(text_width(line, 1) for line in lines))
            candidates += [(lines, chunk < 40) for lines in splits[:3]]
        if chunk < 40 and any(_fits(c, SIZES[-1], *shape) for c, _cut in candidates):
            break
    best, best_score, best_size = None, 0.0, 0.0
    sizes = [s for s in SIZES if s <= max_size]  # largest first
    for lines, cut in candidates:
        low, high = 0, len(sizes)  # binary search: the first size that fits
        while low < high:
            mid = (low + high) // 2
            if _fits(lines, sizes[mid], *shape):
                high = mid
            else:
                low = mid + 1
        if low == len(sizes):
            continue
        # a cut word must buy a larger size; fewer lines at the same size
        score = sizes[low] - (CUT_COST if cut else 0.0)
        if score > best_score or (score == best_score and len(lines) < len(best)):
            best, best_score, best_size = lines, score, sizes[low]
    if best is None:  # too long for three lines even cut: a line per piece
        return _joined(tuple(_pieces(name, 5))), SIZES[-1]
    return best, best_size


def _top(lines, size, space, head) -> tuple[float, float]:
    """(top, height) of the icons and name, centred in ``space`` (top, bottom)."""
    height = head + (len(lines) - 1) * size * LEADING + size * (CAP + DESCENT)
    return (space[0] + space[1] - height) / 2, height


def _fits(lines, size, space, head, icons, icon_size, radius, pad) -> bool:
    top, height = _top(lines, size, space, head)
    if top < space[0]:
        return False
    y = top
    if icons:
        if icons * icon_size > room(y, y + icon_size, radius, pad):
            return False
        y += icon_size + 1.0
    for line in lines:
        if text_width(line, size) + HALO > room(y, y + size * (CAP + DESCENT), radius, pad):
            return False
        y += size * LEADING
    return True


def _place(lines, size, space, head, icons, icon_size, label_y, label_size) -> Layout:
    y, _height = _top(lines, size, space, head)
    icon_y = y
    if icons:
        y += icon_size + 1.0
    ys = tuple(y + size * CAP + i * size * LEADING for i in range(len(lines)))
    left = -icons * icon_size / 2
    return Layout(lines=tuple(lines), line_ys=ys, size=size, label_y=label_y,
                  label_size=label_size if label_y is not None else 0.0, icon_y=icon_y,
                  icon_size=icon_size, icon_x=tuple(left + i * icon_size for i in range(icons)))
