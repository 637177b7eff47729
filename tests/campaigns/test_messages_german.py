"""What ``rules/`` words in English, said in the reader's language by ``campaigns.messages``:
ruleset errors (by ``reason`` and ``params``), rule refusals through ``campaigns.errors``, the
map value checks and forbidden characters. (German needs the compiled catalogue.)"""

import pytest
from django.utils import translation

from campaigns import errors
from campaigns.messages import RULESET_TEXTS, forbidden_text, ruleset_text
from campaigns.values import feature_error, int_error, marker_tile_error, text_error
from rules.economy import buy_armies
from rules.ruleset import Ruleset, RulesetError, validate_ruleset
from rules.text import forbidden_character

BAD_RULESETS = [
    ([], "", "das Regelwerk muss ein JSON-Objekt sein"),
    ({"colour": "rot"}, "colour", "unbekannter Regelwerksschlüssel"),
    ({"base_army_points": "viel"}, "base_army_points", "muss eine ganze Zahl sein, nicht 'viel'"),
    ({"max_fleet_moves": True}, "max_fleet_moves",
     "muss eine ganze Zahl oder null sein, nicht True"),
    ({"base_army_points": -1}, "base_army_points", "muss zwischen 0 und 100000 liegen, nicht -1"),
    ({"early_advance": "ja"}, "early_advance", "muss true oder false sein, nicht 'ja'"),
    ({"bonus_scope": "welt"}, "bonus_scope",
     'muss eins von "campaign", "battle" sein, nicht \'welt\''),
    ({"phase_hours": 5}, "phase_hours", "muss ein Objekt von Phasenname zu Stunden sein"),
    ({"phase_hours": {"fleets": 5}}, "phase_hours.fleets",
     "unbekannte Phase (Phasen mit Frist: declare, lists, battles, conquest)"),
    ({"weekly_deadlines": []}, "weekly_deadlines",
     'muss ein Objekt von Phasenname zu {"weekday": ..., "time": "HH:MM"} sein'),
    ({"weekly_deadlines": {"declare": {"weekday": "mittwoch", "time": "20:00"}}},
     "weekly_deadlines.declare.weekday", "muss eins von monday, tuesday, wednesday"),
    ({"weekly_deadlines": {"declare": {"weekday": "monday", "time": "25:00"}}},
     "weekly_deadlines.declare.time", "muss eine Uhrzeit HH:MM sein, nicht '25:00'"),
    ({"weekly_deadlines": {"declare": {"weekday": "monday"}}}, "weekly_deadlines.declare",
     'muss {"weekday": ..., "time": "HH:MM"} sein'),
]


def _error(data) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        validate_ruleset(data)
    return info.value


@pytest.mark.parametrize(("data", "key", "german"), BAD_RULESETS)
def test_every_ruleset_error_has_words_in_both_languages(data, key, german):
    error = _error(data)
    assert error.key == key and error.reason in RULESET_TEXTS
    with translation.override("en"):
        english = ruleset_text(error)
    assert english.split(",")[0].split(" (")[0] in error.message  # the rules' own words
    with translation.override("de"):
        assert ruleset_text(error).startswith(german)


def test_a_rules_refusal_outside_battles_is_german_and_keeps_its_rule_id():
    with (translation.override("de"), pytest.raises(errors.RuleViolation) as info,
          errors.rules_refusal(field="attack_armies")):
        buy_armies(Ruleset.from_dict({}), 10, 0)
    assert info.value.code == "R-ECO-1" and info.value.field == "attack_armies"
    assert info.value.message == "R-ECO-1: kauf mindestens eine Angriffsarmee"


def test_the_map_value_checks_are_german():
    with translation.override("de"):
        assert text_error(5) == "muss ein Text sein"
        assert text_error("  ") == "darf nicht leer sein"
        assert text_error("x" * 81) == "höchstens 80 Zeichen"
        assert text_error("Terra\x00").startswith("enthält U+0000")
        assert int_error("5", 0, 9) == "muss eine ganze Zahl sein"
        assert int_error(10, 0, 9) == "muss zwischen 0 und 9 liegen"
        assert feature_error("lava").startswith("unbekanntes Merkmal 'lava' (Merkmale: ")
        assert marker_tile_error(None).endswith("(R-MRK-4)")
        assert marker_tile_error(None).startswith("ein neutrales Feld trägt keinen Marker")


def test_a_forbidden_character_is_named_in_the_readers_language():
    found = forbidden_character("ab\x07")
    with translation.override("en"):
        assert forbidden_text(found) == str(found)  # the rules' English, word for word
    with translation.override("de"):
        assert forbidden_text(found).startswith("enthält U+0007 an Position 2")
