"""Domain errors raised by services; the API and the pages turn them into 400/409 answers.

``rules/`` stays framework-free and raises its own ``rules.violation.RuleViolation`` (or
returns a check naming ``rule`` and ``message``); a service turns either into this layer's
``RuleViolation`` with ``RuleViolation.of``, or by running the rule code inside
``rules_refusal()``; both word the refusal in the reader's language (``campaigns.messages``).
Nothing else translates them."""

from collections.abc import Iterator
from contextlib import contextmanager

from campaigns.messages import rule_text
from rules import violation


class DomainError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field = field


class RuleViolation(DomainError):
    """An action the rules forbid; ``code`` is the rule id (e.g. "R-ATK-2")."""

    @classmethod
    def of(cls, refusal, *, field: str | None = None) -> "RuleViolation":
        """The one translation of a refusal by ``rules/`` (a ``rules.violation.RuleViolation``
        or a failed check such as ``rules.attacks.AttackCheck``) in the reader's language: the
        rule id is the code and leads the message."""
        return cls(f"{refusal.rule}: {rule_text(refusal)}", code=refusal.rule, field=field)


@contextmanager
def rules_refusal(field: str | None = None) -> Iterator[None]:
    """Run rule code; a ``rules.violation.RuleViolation`` it raises leaves as this layer's
    ``RuleViolation`` (naming ``field``), so nothing is half done."""
    try:
        yield
    except violation.RuleViolation as exc:
        raise RuleViolation.of(exc, field=field) from exc


class Conflict(DomainError):
    """An action that conflicts with the current phase or state (HTTP 409)."""

    status = 409
    default_code = "wrong_phase"
