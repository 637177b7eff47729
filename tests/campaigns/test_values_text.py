"""The shared value check of map names refuses text that cannot be stored."""

from campaigns.values import text_error


def test_text_error_refuses_nul_and_lone_surrogates():
    assert "U+0000" in text_error("Terra\x00")
    assert "U+D800" in text_error("\ud800Terra")
    assert text_error("Terra Prime") is None
