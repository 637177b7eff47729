"""The reader's language for refusals that ``rules/`` words in English: ``rules/`` may not use
Django, so a refusal names its reason by ``key`` and ``params`` (``rules.violation``,
``rules.attacks.AttackCheck``) and ``campaigns.messages`` words it; an unknown key keeps the
rules' English text. The rule id stays the error code and leads the message."""

from collections.abc import Iterator
from contextlib import contextmanager

from campaigns import errors
from campaigns.labels import phase_label
from campaigns.messages import RULE_TEXTS, rule_text
from campaigns.models import Round
from rules import violation

__all__ = ["RULE_TEXTS", "phase_of", "rule_error", "rule_text", "rules_refusal"]


def rule_error(refusal, *, field: str | None = None) -> errors.RuleViolation:
    """``campaigns.errors.RuleViolation.of`` (in the reader's language)."""
    return errors.RuleViolation.of(refusal, field=field)


@contextmanager
def rules_refusal(field: str | None = None) -> Iterator[None]:
    """``campaigns.errors.rules_refusal`` in the reader's language."""
    try:
        yield
    except violation.RuleViolation as exc:
        raise rule_error(exc, field=field) from exc


def phase_of(rnd: Round) -> dict:
    """The round's number and its phase's translated name, for "Round N is in the P phase"."""
    return {"number": rnd.number, "phase": phase_label(rnd.phase)}
