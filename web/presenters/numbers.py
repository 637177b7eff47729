"""Numbers written into SVG and CSS: always with a decimal point, whatever the reader's
language. Django localises floats rendered in templates (German: ``-47,6``), which breaks every
coordinate, so presenters hand templates these strings instead of numbers."""


def svg_number(value: float) -> str:
    """One decimal at most, no trailing ``.0``, never a decimal comma: ``-47.6``, ``24``."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text
