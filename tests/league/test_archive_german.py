"""A campaign archive's problems (docs/archive.md) by path, in the reader's language (the paths
and rule ids stay as they are); refusing a non-admin's export too. (German needs the compiled
catalogue.)"""

import pytest
from django.utils import timezone, translation

from league.services.archive import NotAdmin, check_admin
from league.services.archive_check import Walker
from league.services.archive_import import archive_import
from league.services.map_document import DocumentInvalid
from tests.worlds import make_league

RECORD = {"player": ("ref", "player"), "name": "str5", "count": "small", "at": "time",
          "done": "bool", "kind": ("choice", ["a", "b"]), "items": "list"}
BAD = {"player": 9, "name": "too long", "count": -1, "at": "2026-12-07T10:00",
       "done": "yes", "kind": "c", "items": {}, "extra": 1}


def _walk(language: str) -> dict[str, list[str]]:
    walker = Walker({"player": {1}})
    with translation.override(language):
        walker.record(BAD, RECORD, "rounds[0]")
        walker.record({}, {"name": "str"}, "players[0]")
        walker.record([], RECORD, "map")
    return walker.errors


@pytest.mark.parametrize(("language", "expected"), [
    ("en", {"rounds[0].player": "no player with id 9 in the archive",
            "rounds[0].name": "must be text of at most 5 characters",
            "rounds[0].count": "must be an integer from 0 to 32767",
            "rounds[0].at": "must be an ISO 8601 time with its zone",
            "rounds[0].done": "must be true or false",
            "rounds[0].kind": "must be one of 'a', 'b'",
            "rounds[0].items": "must be a list", "rounds[0].extra": "unknown field",
            "players[0].name": "this field is required", "map": "must be an object"}),
    ("de", {"rounds[0].player": "kein Spieler mit der ID 9 im Archiv",
            "rounds[0].name": "muss ein Text aus höchstens 5 Zeichen sein",
            "rounds[0].count": "muss eine ganze Zahl von 0 bis 32767 sein",
            "rounds[0].at": "muss eine Zeit nach ISO 8601 mit ihrer Zeitzone sein",
            "rounds[0].done": "muss true oder false sein",
            "rounds[0].kind": "muss eins von 'a', 'b' sein",
            "rounds[0].items": "muss eine Liste sein", "rounds[0].extra": "unbekanntes Feld",
            "players[0].name": "dieses Feld ist erforderlich",
            "map": "muss ein Objekt sein"}),
])
def test_the_archive_walker_names_each_problem_in_the_readers_language(language, expected):
    errors = _walk(language)
    assert {path: messages[0] for path, messages in errors.items()} == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "document", "path", "words"), [
    ("en", [], "non_field_errors", "an archive is a JSON object"),
    ("de", [], "non_field_errors", "ein Archiv ist ein JSON-Objekt"),
    ("de", {"format": "x"}, "format", "muss 'feldzug-campaign' sein"),
    ("de", {"format": "feldzug-campaign", "version": 9}, "version",
     "dieser Server liest nur Archive der Version 1"),
])
def test_an_archive_of_the_wrong_kind_is_refused_in_the_readers_language(
        django_user_model, language, document, path, words):
    user = django_user_model.objects.create_user("importer")
    with translation.override(language), pytest.raises(DocumentInvalid) as refused:
        archive_import(document=document, by=user, now=timezone.now())
    assert refused.value.errors == {path: [words]}


@pytest.mark.django_db
def test_a_members_export_is_refused_in_german():
    lg = make_league(players=("anna",))
    with translation.override("de"), pytest.raises(NotAdmin) as refused:
        check_admin(lg.campaign, lg.a.user)
    assert refused.value.message == \
        "Nur die Leitung der Kampagne darf sie exportieren oder kopieren."
