"""Domain errors raised by services; the API and the pages turn them into 400/409 answers."""


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


class Conflict(DomainError):
    """An action that conflicts with the current phase or state (HTTP 409)."""

    status = 409
    default_code = "wrong_phase"
