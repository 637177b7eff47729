"""R-MAP-1..3, R-MRK-4: the map document's errors, by path, in the reader's language (the
paths and the rule ids stay as they are). (German needs the compiled catalogue.)"""

import pytest
from django.utils import translation

from league.services.map_document import DocumentInvalid, parse

DOCUMENT = {
    "planets": [{"id": "p", "name": "Terra", "tiles": [
        {"id": 1, "q": 0, "r": 0, "owner": 7, "features": ["lava", "lava"]},
        {"id": 1, "q": 0, "r": 0, "markers": [{"type": "relic"}]},
        {"q": "x", "r": 0, "colour": "rot"}]}],
    "links": [[1, 1], [1, 99], "a"],
    "areas": [{"id": "o", "name": "", "kind": "orbit", "adjacent": ["o"]}],
    "fleets": [{"owner": 7, "area": "nowhere", "kind": "armada", "ship_count": 2,
                "ships": [{"name": "Solo"}]}],
}
GERMAN = {
    "planets[0].tiles[0].owner": "unbekannter Spieler 7",
    "planets[0].tiles[0].features[0]": "unbekanntes Merkmal 'lava' (Merkmale: ",
    "planets[0].tiles[1].id": "doppelte Feld-ID 1",
    "planets[0].tiles[1]": "doppeltes Hexfeld (0, 0), auch bei planets[0].tiles[0]",
    "planets[0].tiles[1].markers[0].type": "unbekannter Markertyp 'relic'",
    "planets[0].tiles[2].colour": "unbekanntes Feld",
    "planets[0].tiles[2].q": "muss eine ganze Zahl sein",
    "links[0]": "ein Feld kann nicht mit sich selbst verbunden werden",
    "links[1][1]": "kein Feld mit der ID 99 im Dokument",
    "links[2]": "eine Verbindung ist eine Liste aus zwei Feld-IDs",
    "areas[0].name": "darf nicht leer sein",
    "areas[0].adjacent": "ein Gebiet grenzt nicht an sich selbst",
    "fleets[0].area": "kein Gebiet mit der ID 'nowhere' im Dokument",
    "fleets[0].ship_count": "1 Schiff ist angegeben",
}


def _errors(document) -> dict[str, list[str]]:
    with pytest.raises(DocumentInvalid) as info:
        parse(document, players={1, 2}, marker_types={"manufactorum": 1},
              detachment_points=500)
    return info.value.errors


def test_r_map_the_document_errors_are_german_for_german_readers():
    with translation.override("de"):
        errors = _errors(DOCUMENT)
    for path, german in GERMAN.items():
        assert any(message.startswith(german) for message in errors[path]), (path, errors[path])


def test_r_map_the_same_paths_in_english():
    with translation.override("en"):
        errors = _errors(DOCUMENT)
    assert set(GERMAN) <= set(errors)
    assert errors["fleets[0].ship_count"] == ["1 ship is given"]
    assert errors["links[0]"] == ["a tile can not be linked to itself"]


def test_r_mrk_4_a_marker_on_a_neutral_tile_names_the_rule_in_german():
    document = {"planets": [{"name": "Terra", "tiles": [
        {"q": 0, "r": 0, "markers": [{"type": "manufactorum"}]}]}]}
    with translation.override("de"):
        (message,) = _errors(document)["planets[0].tiles[0].markers[0]"]
    assert message.startswith("ein neutrales Feld trägt keinen Marker") and "(R-MRK-4)" in message
