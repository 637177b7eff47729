"""The error every rule check raises when an action breaks a rule: it names the rule id."""

from __future__ import annotations


class RuleViolation(Exception):
    """An action breaks rule ``rule`` (an id from RULES.md, e.g. ``"R-ECO-1"``).

    The API turns it into a 400 with ``code`` = the rule id and ``detail`` = the message."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
