"""The reader's language for refusals that ``rules/`` words in English: ``rules/`` may not use
Django, so a refusal names its reason by ``key`` and ``params`` (``rules.violation``,
``rules.attacks.AttackCheck``) and this table words it; an unknown key keeps the rules' English
text. The rule id stays the error code and leads the message."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns import errors
from campaigns.labels import phase_label
from campaigns.models import Round
from rules import violation


def _no_army_left(p: dict) -> str:
    return ngettext("no attack army left: %(bought)s bought this round, %(used)s already used",
                    "no attack army left: %(bought)s bought this round, %(used)s already used",
                    p["bought"]) % p


def _orbit_points(p: dict) -> str:
    return ngettext("%(count)s orbital attack on planet %(planet)s needs %(need)s embarked army "
                    "points in its orbit; your fleets there carry %(carried)s",
                    "%(count)s orbital attacks on planet %(planet)s need %(need)s embarked "
                    "army points in its orbit; your fleets there carry %(carried)s",
                    p["count"]) % p


def _requisition_short(p: dict) -> str:
    return ngettext("%(armies)s attack army costs %(cost)s requisition, the balance is "
                    "%(balance)s (short by %(short)s)",
                    "%(armies)s attack armies cost %(cost)s requisition, the balance is "
                    "%(balance)s (short by %(short)s)", p["armies"]) % p


RULE_TEXTS = {
    "no_army_left": _no_army_left,
    "own_tile": lambda p: _("tile %(tile)s is your own tile") % p,
    "declared_already": lambda p: _("you already declared an attack on tile %(tile)s this "
                                    "round") % p,
    "not_adjacent": lambda p: _("tile %(tile)s is not adjacent to your territory and you own "
                                "no spaceport or macropole on planet %(planet)s") % p,
    "orbit_points": _orbit_points,
    "no_orbit": lambda p: _("you own no tile on planet %(planet)s and have no fleet in its "
                            "orbit for an orbital attack") % p,
    "moral_victory_points": lambda p: _("a moral victory needs the attacker ahead on points: "
                                        "attacker VP %(attacker_vp)s is not above defender VP "
                                        "%(defender_vp)s.") % p,
    "buy_none": lambda p: _("buy at least one attack army"),
    "requisition_short": _requisition_short,
    "not_won_attacks": lambda p: _("attacks %(attacks)s are not your won attacks this "
                                   "round") % p,
    "no_won_attack": lambda p: _("you have no won attack to roll"),
}


def rule_text(refusal) -> str:
    """The reason of a ``rules/`` refusal (a ``rules.violation.RuleViolation`` or a failed
    ``AttackCheck``) in the active language, without the rule id."""
    words = RULE_TEXTS.get(getattr(refusal, "key", None))
    return words(refusal.params) if words else refusal.message


def rule_error(refusal, *, field: str | None = None) -> errors.RuleViolation:
    """``campaigns.errors.RuleViolation.of`` in the reader's language."""
    return errors.RuleViolation(f"{refusal.rule}: {rule_text(refusal)}",
                                code=refusal.rule, field=field)


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
