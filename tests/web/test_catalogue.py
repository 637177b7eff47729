"""The German catalogue is complete and compiled: every entry of django.po is translated, none
is fuzzy, and the committed django.mo holds exactly those translations (so ``make run`` needs
no gettext). After changing strings: ``makemessages -l de``, translate, ``compilemessages``."""

import gettext
import re
from pathlib import Path

from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES"


def _unquote(block: str, key: str) -> str:
    match = re.search(rf"^{re.escape(key)} ((?:\".*\"\n?)+)", block, re.M)
    if match is None:
        return ""
    joined = "".join(re.findall(r'"(.*)"', match.group(1)))
    escapes = {"n": "\n", "t": "\t"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), joined)


def _entries():
    text = (LOCALE / "django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n")[1:]:
        if "msgid " not in block or block.lstrip().startswith("#~"):
            continue
        yield block


def test_every_entry_is_translated_and_none_is_fuzzy():
    blocks = list(_entries())
    assert len(blocks) > 300
    for block in blocks:
        assert "#, fuzzy" not in block, block
        strings = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        assert strings and all(s.strip() != '""' for s in strings), block


def test_the_compiled_catalogue_matches_the_source():
    with open(LOCALE / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for block in _entries():
        if "msgid_plural" in block:
            continue
        msgid, msgstr = _unquote(block, "msgid"), _unquote(block, "msgstr")
        context = _unquote(block, "msgctxt")
        found = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
        assert found == msgstr, f"django.mo is stale for {msgid!r}: run compilemessages"


def test_the_pages_assets_are_served(client, db):
    for path in ("/static/feldzug.css", "/static/feldzug.js",
                 "/static/django_htmx/htmx-2.min.js"):
        assert client.get(path).status_code == 200, path
