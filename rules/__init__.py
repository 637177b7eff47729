"""Feldzug rules engine: pure Python, no Django. Every rule cites its id in RULES.md."""
