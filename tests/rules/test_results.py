"""R-BAT-3: a moral victory needs the attacker ahead on points (``rules.results``)."""

import pytest

from rules.conquest import OUTCOMES
from rules.results import MORAL_VICTORY, check_result
from rules.violation import RuleViolation


@pytest.mark.parametrize(("attacker_vp", "defender_vp"), [(6, 6), (5, 6), (0, 0), (0, 20)])
def test_r_bat_3_a_moral_victory_without_the_lead_on_points_is_refused(attacker_vp,
                                                                        defender_vp):
    with pytest.raises(RuleViolation) as refused:
        check_result("moral_victory", attacker_vp, defender_vp)
    assert refused.value.rule == "R-BAT-3"
    assert f"{attacker_vp}" in refused.value.message


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_r_bat_3_only_the_moral_victory_depends_on_the_points(outcome):
    check_result(outcome, 7, 6)  # ahead: every outcome may stand
    for behind in ((6, 6), (0, 9)):
        if outcome == MORAL_VICTORY:
            with pytest.raises(RuleViolation):
                check_result(outcome, *behind)
        else:
            check_result(outcome, *behind)
    assert MORAL_VICTORY in OUTCOMES
