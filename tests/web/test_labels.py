"""One label per code: the pages name every stored code by its model choice's label (English
and German), and those choices hold exactly the codes the rules define."""

import pytest
from django.utils import translation

from battles import rosters
from battles.models import ArmyList, Battle
from campaigns.models import Attack, Round, Tile
from fleets.models import Area, Fleet, NavalBattle
from rules import attacks, board, conquest, interception, naval, rounds
from rules.ruleset import KEYS
from web.forms.fleets import StandingOrdersForm
from web.forms.manage import ResultForm, RulesetForm
from web.templatetags import feldzug


@pytest.mark.parametrize(("choices", "codes"), [
    (Round.Phase, rounds.PHASES),
    (Battle.Outcome, conquest.OUTCOMES),
    (Tile.Feature, board.FEATURES),
    (Area.Kind, board.AREA_KINDS),
    (Attack.Source, attacks.SOURCES),
    (Fleet.Interception, interception.POLICIES),
    (Fleet.Benefit, interception.BENEFITS),
    (Fleet.Stance, naval.STANCES),
    (NavalBattle.Engine, KEYS["naval_engine"].choices),
    (ArmyList.Source, rosters.SOURCES),
])
def test_the_choices_hold_the_rules_codes(choices, codes):
    assert sorted(choices.values) == sorted(codes)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ("Army lists", "Moral victory", "no result", "hold the distance", "Coastal waters",
            "private")),
    ("de", ("Armeelisten", "Moralischer Sieg", "kein Ergebnis", "Abstand halten",
            "Küstengewässer", "privat")),
])
def test_the_filters_read_the_models_labels_in_the_readers_language(language, expected):
    with translation.override(language):
        shown = (feldzug.phase_label("lists"), feldzug.outcome_label("moral_victory"),
                 feldzug.result_status_label(None), feldzug.stance_label("hold"),
                 feldzug.area_kind_label("coastal"), feldzug.visibility_label("private"))
        assert tuple(str(label) for label in shown) == expected
        assert str(Round.Phase.LISTS.label) == expected[0]
    assert feldzug.phase_label("no-such-phase") == "no-such-phase"


def test_the_forms_offer_the_models_labels():
    with translation.override("de"):
        stances = dict(StandingOrdersForm().fields["stance"].choices)
        outcomes = dict(ResultForm().fields["outcome"].choices)
        engines = dict(RulesetForm().fields["naval_engine"].choices)
        assert str(stances["hold"]) == str(Fleet.Stance.HOLD.label) == "Abstand halten"
        assert str(outcomes["moral_victory"]) == "Moralischer Sieg"
        assert str(engines["d6_space"]) == str(NavalBattle.Engine.D6_SPACE.label)
