"""Bounds of input shared by the API, the pages and the map document, and checks of map values
shared by the one-object builders and the map document (R-MAP-1, R-MAP-2): each check returns
an error message, or None for a valid value."""

import re

from django.utils.translation import gettext as _

from campaigns.messages import forbidden_text
from campaigns.models import Tile
from rules.text import forbidden_character

ID_MAX = 2**63 - 1  # the largest id accepted in input (ids are 64-bit, BigAutoField)
ROUND_NUMBER_MAX = 2**31 - 1  # the largest round number accepted (PositiveIntegerField)
FEATURES = Tile.FEATURES
COORDINATE_LIMIT = 100_000
TEXT_LIMIT = 80
_DIGITS = re.compile(r"[0-9]{1,19}")  # ID_MAX has 19 digits


def text_error(value, limit: int = TEXT_LIMIT, blank: bool = False) -> str | None:
    if not isinstance(value, str):
        return _("must be a string")
    if not blank and not value.strip():
        return _("must not be blank")
    if len(value) > limit:
        return _("at most %(limit)s characters") % {"limit": limit}
    reason = forbidden_character(value)
    if reason:
        return forbidden_text(reason)
    return None


def parse_number(value) -> int | None:
    """A whole number typed as text (a page's query or form value: a round, a ship, an area),
    or None when it is not ASCII digits or longer than any id; Python never meets a number too
    long to read."""
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    return None


def parse_numbers(values) -> list[int]:
    """The numbers among ``values`` (``parse_number``), the others left out."""
    return [number for number in map(parse_number, values) if number is not None]


def show(value) -> str:
    """A short rendering of a value for an error message."""
    if isinstance(value, dict | list):
        return _("an object") if isinstance(value, dict) else _("a list")
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_error(value, low: int, high: int) -> str | None:
    if not is_int(value):
        return _("must be an integer")
    if not low <= value <= high:
        return _("must be between %(low)s and %(high)s") % {"low": low, "high": high}
    return None


def coordinate_error(value) -> str | None:
    return int_error(value, -COORDINATE_LIMIT, COORDINATE_LIMIT)


def feature_error(value) -> str | None:
    if not isinstance(value, str):
        return _("must be a string")
    if value not in FEATURES:
        return _("unknown feature %(value)s (features: %(features)s)") % {
            "value": show(value), "features": ", ".join(FEATURES)}
    return None


def features_error(features) -> tuple[int | None, str] | None:
    """The first problem of a feature list as (index or None for the list, message)."""
    if not isinstance(features, list):
        return None, _("must be a list")
    for index, value in enumerate(features):
        error = feature_error(value)
        if error:
            return index, error
        if value in features[:index]:
            return index, _("%(value)s is listed twice") % {"value": show(value)}
    return None


def normalized_features(features) -> list[str]:
    """Features in the one order the map shows them (so documents compare equal)."""
    return [name for name in FEATURES if name in features]


def marker_tile_error(tile_owner) -> str | None:
    """R-MRK-4: a marker belongs to whoever owns its tile, so a neutral tile carries none."""
    if tile_owner is None:
        return _("a neutral tile carries no marker: a marker belongs to its tile's owner "
                 "(R-MRK-4)")
    return None
