"""The reader's language for what ``rules/`` words in English: ``rules/`` may not use Django, so
a refusal names its reason by ``key`` and ``params`` (``rules.violation.RuleViolation``,
``rules.attacks.AttackCheck``, ``rules.ruleset.RulesetError``, ``rules.text.Forbidden``) and
this module words it; an unknown key keeps the rules' English text. ``campaigns.errors`` and
``battles.messages`` turn refusals into domain errors with these words."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


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


RULESET_TEXTS = {
    "not_int": lambda p: _("must be an integer, not %(value)s") % p,
    "not_int_or_null": lambda p: _("must be an integer or null, not %(value)s") % p,
    "out_of_range": lambda p: _("must be between %(low)s and %(high)s, not %(value)s") % p,
    "not_bool": lambda p: _("must be true or false, not %(value)s") % p,
    "not_choice": lambda p: _("must be one of %(choices)s, not %(value)s") % p,
    "phase_hours_shape": lambda p: _("must be an object of phase name to hours"),
    "unknown_phase": lambda p: _("unknown phase (phases with a deadline: %(known)s)") % p,
    "weekly_shape": lambda p: _('must be an object of phase name to {"weekday": ..., '
                                '"time": "HH:MM"}'),
    "weekly_entry_shape": lambda p: _('must be {"weekday": ..., "time": "HH:MM"}'),
    "not_weekday": lambda p: _("must be one of %(choices)s") % p,
    "not_clock": lambda p: _("must be a time HH:MM, not %(value)s") % p,
    "not_object": lambda p: _("the ruleset must be a JSON object"),
    "unknown_key": lambda p: _("unknown ruleset key"),
}


def ruleset_text(error) -> str:
    """What is wrong with a ruleset (a ``rules.ruleset.RulesetError``), in the active language,
    without the key it names."""
    words = RULESET_TEXTS.get(getattr(error, "reason", ""))
    return words(error.params) if words else error.message


def forbidden_text(found) -> str:
    """A ``rules.text.Forbidden`` (NUL, a control character, a lone surrogate) in the active
    language."""
    return _("contains U+%(code)s at position %(position)s: NUL, control characters and lone "
             "surrogates are not allowed") % {"code": found.code, "position": found.position}
