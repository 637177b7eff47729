"""The error every rule check raises when an action breaks a rule: it names the rule id."""

from __future__ import annotations


class RuleViolation(Exception):
    """An action breaks rule ``rule`` (an id from RULES.md, e.g. ``"R-ECO-1"``).

    The API turns it into a 400 with ``code`` = the rule id and ``detail`` = the message.
    ``message`` is a stable English text; ``key`` and ``params`` name the same reason so a
    caller with translations (battles.messages) can say it in the reader's language."""

    def __init__(self, rule: str, message: str, *, key: str | None = None,
                 params: dict | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.key = key
        self.params = params or {}
