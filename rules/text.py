"""Characters no text input may hold (API.md General "never 500 on any
input"): NUL and the other C0 control characters except tab, line feed and carriage return,
and lone UTF-16 surrogates. PostgreSQL refuses NUL in text, and a lone surrogate cannot be
encoded as UTF-8, so such text is refused where it enters (the API's parsers, the pages' POST
check, the shared value checks, the roster reader) with a message naming the field and the
character."""

import re
from typing import NamedTuple

FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
MESSAGE = ("contains U+{code} at position {position}: NUL, control characters and lone "
           "surrogates are not allowed")


class Forbidden(NamedTuple):
    """The first forbidden character of a text: its code point (``0000``) and position."""

    code: str
    position: int

    def __str__(self) -> str:
        return MESSAGE.format(code=self.code, position=self.position)


def forbidden_character(value: str) -> Forbidden | None:
    """The first forbidden character of ``value``, or None when every character is allowed."""
    match = FORBIDDEN.search(value)
    if match is None:
        return None
    return Forbidden(f"{ord(match.group()):04X}", match.start())


def walk_text(data):
    """Each (path, Forbidden) of a string or key in nested JSON-like ``data`` (dicts, lists,
    strings) that holds a forbidden character, in document order, walked without recursion
    so deep data cannot exhaust the stack. A bad key is reported at its parent's path."""
    stack = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            found = forbidden_character(value)
            if found:
                yield path, found
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                found = forbidden_character(key) if isinstance(key, str) else None
                if found:
                    yield path, found
                    continue
                stack.append((f"{path}.{key}" if path else str(key), item))
        elif isinstance(value, list | tuple):
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(value))))
