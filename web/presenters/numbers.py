"""Numbers on pages. Two kinds, never mixed:

- written into SVG and CSS (``svg_number``): always with a decimal point, whatever the reader's
  language. Django localises floats rendered in templates (German: ``-47,6``), which breaks
  every coordinate, so presenters hand templates these strings instead of numbers;
- read by people (``percent``, ``number``): in the reader's language (``campaigns.formats``),
  ``58.3%`` / ``58,3 %``."""

from campaigns import formats


def svg_number(value: float) -> str:
    """One decimal at most, no trailing ``.0``, never a decimal comma: ``-47.6``, ``24``."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def percent(fraction: float, digits: int = 1) -> str:
    """Every percentage people read: a share (0.583) in the reader's language, ``58.3%`` /
    ``58,3 %``."""
    return formats.percent_text(float(fraction), digits)


def number(value: float, digits: int = 0) -> str:
    """A number people read, in their language with ``digits`` decimals."""
    return formats.number_text(value, digits)
