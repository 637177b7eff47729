"""One rule-error class per layer and one translation between them: ``rules/`` raises its own
pure ``RuleViolation`` (or returns a failed check); services turn it into
``campaigns.errors.RuleViolation`` through ``RuleViolation.of`` / ``rules_refusal``."""

import pytest

from campaigns import errors
from rules import violation
from rules.attacks import AttackCheck


def test_a_refusal_of_the_rules_leaves_as_the_domain_error_naming_its_rule():
    with pytest.raises(errors.RuleViolation) as caught, \
            errors.rules_refusal(field="attack_armies"):
        raise violation.RuleViolation("R-ECO-1", "buy at least one attack army")
    refused = caught.value
    assert (refused.code, refused.field, refused.status) == ("R-ECO-1", "attack_armies", 400)
    assert refused.message == "R-ECO-1: buy at least one attack army"
    assert isinstance(refused.__cause__, violation.RuleViolation)


def test_a_failed_check_translates_the_same_way():
    check = AttackCheck(legal=False, rule="R-ATK-2", message="the tile is out of reach")
    refused = errors.RuleViolation.of(check, field="tile")
    assert (refused.code, refused.field) == ("R-ATK-2", "tile")
    assert refused.message == "R-ATK-2: the tile is out of reach"


def test_other_errors_pass_through_untouched():
    with pytest.raises(ValueError), errors.rules_refusal():
        raise ValueError("not a rule")
