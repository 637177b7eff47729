"""R-ARM-1, R-ARM-2: what the army-list readers refuse is said in the reader's language, with
the line, unit or value it is about; the rule id stays in the message. (German needs the
compiled catalogue: ``compilemessages``.)"""

import io
import zipfile

import pytest
from django.utils import translation

from battles.list_text import parse_text
from battles.rosters import (
    ListOverLimit,
    NoPointsCost,
    RosterError,
    check_limit,
    parse_entries,
    parse_roster_file,
    warning_text,
)

GERMAN_REFUSALS = [
    (lambda: parse_text("Hallo Welt"),
     "Zeile 1: „Hallo Welt“ ist nicht lesbar; schreibe eine Einheit pro Zeile als "
     "„Name - Punkte“."),
    (lambda: parse_text("Captain - 85\nTotal: 85\nTotal: 85"),
     "Zeile 3: Die Liste hat eine zweite Summenzeile."),
    (lambda: parse_text("Captain - 999999"),
     "Zeile 1: Die Punkte müssen eine ganze Zahl von 0 bis 100000 sein."),
    (lambda: parse_entries({"name": "Liste", "entries": [{"name": "", "points": 5}]}),
     "entries[0]: Die Einheit braucht einen Namen."),
    (lambda: parse_entries({"name": "Liste", "entries": [], "colour": "rot"}),
     "Die Liste: unbekanntes Feld „colour“."),
    (lambda: parse_entries({"name": "Liste", "entries": []}), "Die Liste hat keine Einheiten."),
    (lambda: parse_roster_file("liste.txt", b"no roster"),
     "Die Datei ist keine Roster-Datei: Lade eine BattleScribe- oder New-Recruit-Roster-Datei"),
    (lambda: parse_roster_file("leer.ros", b"  "), "Die Datei ist leer."),
    (lambda: parse_roster_file("x.ros", b"<roster><costs><cost name='pts' value='x'/></costs>"
                                        b"</roster>"),
     'Die Roster-Datei hat einen ungültigen Kostenwert „x“.'),
]


def _refusal(call) -> str:
    with pytest.raises(RosterError) as info:
        call()
    return info.value.message


@pytest.mark.parametrize(("call", "german"), GERMAN_REFUSALS)
def test_r_arm_2_refusals_are_german_for_german_readers(call, german):
    with translation.override("de"):
        message = _refusal(call)
    assert message.startswith(german), message
    with translation.override("en"):
        assert _refusal(call) != message


def test_r_arm_2_the_character_check_says_the_code_point_in_both_languages():
    for language in ("en", "de"):
        with translation.override(language):
            message = _refusal(lambda: parse_text("Captain\x00 - 85"))
        assert "U+0000" in message and message.startswith(("Line 1:", "Zeile 1:"))


def test_r_arm_2_a_roster_without_points_is_refused_in_german_naming_the_rule():
    content = (b"<roster><costs><cost name='PL' typeId='pl' value='10'/></costs><forces><force>"
               b"<selections><selection name='Tank' type='unit'><costs>"
               b"<cost name='PL' typeId='pl' value='10'/></costs></selection></selections>"
               b"</force></forces></roster>")
    with translation.override("de"), pytest.raises(NoPointsCost) as info:
        parse_roster_file("pl.ros", content)
    assert info.value.message.startswith("R-ARM-2: Die Roster-Datei hat keine Punktekosten "
                                         "(Kostenarten: PL)")


def test_r_arm_2_an_archive_is_refused_in_german():
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("a.ros", "<roster/>")
        archive.writestr("b.ros", "<roster/>")
    with translation.override("de"):
        message = _refusal(lambda: parse_roster_file("zwei.rosz", packed.getvalue()))
    assert message == "Eine .rosz-Datei muss genau eine .ros-Datei enthalten, nicht 2 Dateien."


def test_r_arm_2_a_warning_is_stored_once_and_read_in_each_readers_language():
    """The opponent may read another language than the one who submitted the list."""
    with translation.override("de"):
        parsed = parse_text("Captain - 85\nTotal: 90")
    (stored,) = parsed.warnings
    assert stored == "The stated total (90) differs from the sum of the units (85); the sum counts."
    with translation.override("de"):
        assert warning_text(stored) == ("Die angegebene Gesamtsumme (90) weicht von der Summe "
                                        "der Einheiten (85) ab; es zählt die Summe.")
    with translation.override("en"):
        assert warning_text(stored) == stored
    assert warning_text("Something else (1)") == "Something else (1)"


def test_r_arm_1_over_the_limit_in_german():
    parsed = parse_text("Titan - 3000")
    with translation.override("de"), pytest.raises(ListOverLimit) as info:
        check_limit(parsed, 2000)
    assert str(info.value) == ("Die Liste hat insgesamt 3000 Punkte; das Limit ist 2000 "
                               "(1000 darüber)")
