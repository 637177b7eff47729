"""A strict reader of iCalendar lines (RFC 5545), written here so the feed tests do not only
trust the library that wrote the feed: CRLF line ends, lines of at most 75 octets, folding,
and TEXT values whose ``,`` ``;`` ``\\`` and line breaks are escaped (RFC 5545 3.3.11)."""

import re

# RFC 5545 3.3.11: TEXT = *(TSAFE-CHAR / ":" / DQUOTE / ESCAPED-CHAR); TSAFE-CHAR excludes
# controls (but HTAB), ";", "," and "\"; ESCAPED-CHAR is \\ \; \, \N or \n.
TEXT = re.compile(r'(?:[^\x00-\x08\x0a-\x1f\x7f;,\\]|\\[\\;,nN])*')
ESCAPE = re.compile(r"\\([\\;,nN])")
NAME = re.compile(r"[A-Za-z0-9-]+")


def content_lines(feed: bytes) -> list[str]:
    """The unfolded content lines; fails on a bare LF, a missing final CRLF or a physical line
    longer than 75 octets (RFC 5545 3.1)."""
    text = feed.decode("utf-8")
    assert text.endswith("\r\n"), "the feed must end with CRLF"
    physical = text[:-2].split("\r\n")
    logical: list[str] = []
    for line in physical:
        assert "\n" not in line and "\r" not in line, f"bare line break in {line!r}"
        assert len(line.encode()) <= 75, f"line longer than 75 octets: {line!r}"
        if line[:1] in (" ", "\t"):
            logical[-1] += line[1:]
        else:
            logical.append(line)
    return logical


def text_values(feed: bytes, name: str) -> list[str]:
    """Every value of the TEXT property ``name`` (without parameters), unescaped; fails if a
    value is not valid RFC 5545 TEXT (an unescaped ``,`` or ``;``, a stray backslash)."""
    found = []
    for line in content_lines(feed):
        head, _, value = line.partition(":")
        assert NAME.fullmatch(head.split(";")[0]), f"bad property name in {line!r}"
        if head.upper() != name.upper():
            continue
        assert TEXT.fullmatch(value), f"{name} is not RFC 5545 TEXT: {value!r}"
        found.append(ESCAPE.sub(lambda m: "\n" if m.group(1) in "nN" else m.group(1), value))
    return found


def raw_values(feed: bytes, name: str) -> list[str]:
    """The values of property ``name`` exactly as written (unfolded, not unescaped)."""
    return [line.partition(":")[2] for line in content_lines(feed)
            if line.partition(":")[0].split(";")[0].upper() == name.upper()]
