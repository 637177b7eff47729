"""The characters no text input may hold (rules/text.py)."""

import pytest

from rules.text import Forbidden, forbidden_character, walk_text


@pytest.mark.parametrize(("value", "code"), [("a\x00b", "0000"), ("\ud800", "D800"),
                                             ("x\x1f", "001F"), ("\udfff", "DFFF")])
def test_forbidden_characters_are_found(value, code):
    assert forbidden_character(value).code == code


@pytest.mark.parametrize("value", ["", "Captain - 85\n\tIntercessors\r\n", "Grüße 😀", "\x7f"])
def test_ordinary_text_is_allowed(value):
    assert forbidden_character(value) is None


def test_walk_text_names_the_path_of_every_bad_value():
    data = {"name": "ok", "entries": [{"name": "a\x00"}, {"name": "fine"}], "bad\x00": 1}
    assert list(walk_text(data)) == [("", Forbidden("0000", 3)),
                                     ("entries[0].name", Forbidden("0000", 1))]


def test_walk_text_does_not_recurse():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert list(walk_text(deep)) == []
