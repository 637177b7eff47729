"""German everywhere: the pages of a played campaign, its API refusals, its feeds and its mails,
read by a German reader (``Accept-Language: de`` and a profile in German), contain none of the
German catalogue's English source strings.

The catalogue's msgids are cut at their placeholders and tags into phrases; a phrase counts
when it is at least two words or one word of at least 8 letters, differs from its German
translation, and is no phrase German text itself uses (it does not occur in any ``msgstr``:
names such as "New Recruit" or "Age of Sigmar"). Pages are read as a person reads them: their
text and the texts of ``title``, ``aria-label``, ``alt``, ``placeholder`` and button values,
without scripts, styles and code (``code``, ``pre``: identifiers such as ``approach``). The
phrases are looked up by their first word in one dictionary, so a page costs one pass over its
words. New German entries show only once ``compilemessages`` has compiled the catalogue."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from battles.models import Battle
from battles.services.notifications import notifications_phase_opened, reminders_send
from battles.services.nudges import nudges_send
from battles.services.results import battle_result_dispute, battle_result_report
from campaigns.models import Campaign, Profile, Round
from fleets.models import NavalBattle
from tests.module_world import module_world
from tests.worlds import (
    advance_to,
    api,
    build_history_world,
    client_for,
    declare,
    hand_in,
    make_league,
    play_history_rounds,
    tile,
    with_emails,
)

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
WORD = re.compile(r"\w+")
CUT = re.compile(r"%\(\w+\)[sdifr]|%[sdifr]|%%|\{\{.*?\}\}|\{[\w.]*\}|<[^>]*>|\n|\\n")


# --- the catalogue's English phrases ------------------------------------------------------------

def _phrases_of(msgid: str):
    for chunk in CUT.split(msgid):
        words = tuple(WORD.findall(chunk))
        if len(words) >= 2 or (len(words) == 1 and len(words[0]) >= 8
                               and not words[0].isdigit()):
            yield words


@cache
def english_phrases() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """First word -> [(phrase words, msgid)], longest phrase first."""
    entries = [e for e in polib.pofile(str(CATALOGUE)) if not e.obsolete]
    german = " | ".join(" ".join(WORD.findall(text)) for e in entries
                        for text in [e.msgstr, *e.msgstr_plural.values()])
    german = f" {german} "
    index: dict[str, list] = {}
    for entry in entries:
        translations = {entry.msgstr, *entry.msgstr_plural.values()} - {""}
        for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
            if translations <= {msgid}:
                continue  # German says it the same way
            for words in _phrases_of(msgid):
                if f" {' '.join(words)} " in german:
                    continue  # a name or a phrase German text uses as well
                index.setdefault(words[0], []).append((words, msgid))
    for found in index.values():
        found.sort(key=lambda item: -len(item[0]))
    return index


def english_in(texts) -> set[str]:
    """The English phrases of the catalogue found in ``texts`` (each a separate text: a
    phrase never runs from one into the next)."""
    index, found = english_phrases(), set()
    for text in texts:
        words = WORD.findall(text)
        for i, word in enumerate(words):
            for phrase, _msgid in index.get(word, ()):
                if tuple(words[i:i + len(phrase)]) == phrase:
                    found.add(" ".join(phrase))
                    break
    return found


class _Text(HTMLParser):
    """What a person reads of a page: its text nodes and its read attributes."""

    READ = ("title", "aria-label", "alt", "placeholder", "aria-description")
    HIDDEN = ("script", "style", "template", "code", "pre", "kbd", "samp")  # not prose

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        attrs = dict(attrs)
        self.texts += [attrs[name] for name in self.READ if attrs.get(name)]
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.texts.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def page_texts(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.texts


def json_texts(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for value in data.values() for text in json_texts(value)]
    if isinstance(data, list):
        return [text for value in data for text in json_texts(value)]
    return []


READ_PROPERTIES = ("SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "NAME", "X-WR-CALNAME",
                   "X-WR-CALDESC")  # what a calendar shows; PRODID, UID and the like it does not


def calendar_texts(body: str) -> list[str]:
    unfolded = body.replace("\r\n ", "").replace("\r\n\t", "")
    texts = []
    for line in unfolded.splitlines():
        name, _, value = line.partition(":")
        if name.split(";")[0] in READ_PROPERTIES:
            texts.append(value.replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";"))
    return texts


# --- the world: a public campaign, two rounds played, round 3 in lists ------------------------

def _world():
    world = build_history_world("public")
    play_history_rounds(world)
    lg = world.lg
    Campaign.objects.filter(pk=world.campaign.pk).update(name="Feldzug Nordmark", language="de")
    with_emails(lg)
    for user in [lg.admin, *(p.user for p in lg.players)]:
        Profile.objects.update_or_create(user=user, defaults={"language": "de",
                                                              "time_zone": "Europe/Berlin"})
    rnd = world.campaign.rounds.get(number=3)
    declare(lg.b, rnd, world.tiles["b-edge"])  # ben wants his tile back from anna
    advance_to(rnd, Round.Phase.LISTS)
    battle = Battle.objects.get(round=rnd)
    hand_in(battle, lg.b, "Ork Boyz", 400)
    world.rnd, world.battle = rnd, battle
    return world


world = module_world(_world)


def leaks(world, user, paths, **headers) -> dict[str, set[str]]:
    client = client_for(user)
    found = {}
    for path in paths:
        url = path if path.startswith("/") else world.url(path)
        response = client.get(url, **GERMAN, **headers)
        assert response.status_code == 200, (url, response.status_code)
        english = english_in(page_texts(response.content.decode()))
        if english:
            found[path] = english
    return found


def assert_german(found: dict[str, set[str]]) -> None:
    """No English phrase anywhere; the failure lists each place with its phrases."""
    assert not found, "English in German:\n" + "\n".join(
        f"  {place}: {sorted(english)}" for place, english in sorted(found.items()))


def campaign_pages(world) -> list[str]:
    return ["", "map/", f"map/?tile={world.tiles['b-edge'].pk}", "map/history/?round=1",
            "standings/", "rounds/1/audit/", "rounds/2/audit/", "rules/", "/", "/rules/"]


def player_pages(world) -> list[str]:
    return [*campaign_pages(world), "conquest/", "battles/", f"battles/{world.battle.pk}/",
            "fleets/", "/accounts/profile/"]


def organiser_pages(world) -> list[str]:
    return ["manage/", "manage/dashboard/", "manage/members/", "manage/guide/",
            "manage/webhooks/", "manage/map/editor/", f"battles/{world.battle.pk}/",
            "/accounts/profile/"]


# --- the detector itself ------------------------------------------------------------------------

def test_the_phrases_are_the_catalogues_english_not_its_german():
    found = english_in(["The map can only be replaced before round 1 closes.",
                        "Die Karte kann nur ersetzt werden, bevor Runde 1 endet."])
    assert "The map can only be replaced before round 1 closes" in found
    assert not english_in(["Die Karte kann nur ersetzt werden, bevor Runde 1 endet.",
                           "Age of Sigmar", "Anna"])
    assert not english_in(["The", "map can"])  # a phrase never runs from one text into the next
    assert english_in(page_texts('<p title="Manufactorum">Schildgenerator</p><script>'
                                 'let x = "Shield generator";</script>')) == {"Manufactorum"}
    assert calendar_texts("PRODID:-//Feldzug//Campaign calendar//EN\r\nSUMMARY:Round 1: end "
                          "of the\r\n  phase\r\n") == ["Round 1: end of the phase"]


# --- pages -------------------------------------------------------------------------------------

def test_a_visitor_reads_the_public_campaign_in_german(world):
    assert_german(leaks(world, None, campaign_pages(world)))


def test_a_player_reads_every_page_in_german(world):
    assert_german(leaks(world, world.lg.a.user, player_pages(world)))


def test_the_organiser_reads_every_page_in_german(world):
    assert_german(leaks(world, world.lg.admin, organiser_pages(world)))


def test_a_visitor_signs_up_and_logs_in_in_german(world):
    assert_german(leaks(world, None, ["/accounts/login/", "/accounts/password_reset/"]))


def test_form_errors_are_german(world):
    """An unreadable pasted list and an army list over the limit, as the battle page says
    it (R-ARM-1, R-ARM-2)."""
    client, url = client_for(world.lg.a.user), world.url(f"battles/{world.battle.pk}/army-list/")
    found = {}
    for name, text in (("unreadable", "Hallo Welt"), ("over the limit", "Titan - 99000")):
        response = client.post(url, {"name": "Liste", "text": text}, **GERMAN)
        assert response.status_code in (200, 400), response.status_code
        english = english_in(page_texts(response.content.decode()))
        if english:
            found[name] = english
    assert_german(found)


def test_the_tile_panel_as_htmx_is_german(world):
    tile = world.tiles["free"]
    assert_german(leaks(world, world.lg.c.user, [f"map/tiles/{tile.pk}/"], HTTP_HX_REQUEST="true"))


def test_the_fleet_pages_and_naval_battle_reports_are_german(resolved_fleet_phase):
    """R-FLT-7, R-NAV-13: after a fleets phase with battles, the fleets page, the map with the
    full fleets and every naval battle report, for a player who fought and the organiser."""
    lg = resolved_fleet_phase.league
    Campaign.objects.filter(pk=lg.campaign.pk).update(name="Feldzug Nordmark")
    pages = SimpleNamespace(url=lambda rest="": f"/campaigns/{lg.campaign.pk}/{rest}")
    paths = ["fleets/", "map/", *(f"naval-battles/{pk}/" for pk in NavalBattle.objects.filter(
        round=resolved_fleet_phase.rnd).values_list("pk", flat=True))]
    assert len(paths) > 3
    found = {}
    for user in (lg.a.user, lg.admin):
        found.update({f"{user.username} {path}": english
                      for path, english in leaks(pages, user, paths).items()})
    assert_german(found)


# --- API refusals ---------------------------------------------------------------------------

def _refusals(world) -> dict[str, set[str]]:
    """Each refusal with the code it must answer (so the intended refusal is the one read):
    the played campaign's battle in lists, and a new campaign of the same club in declare."""
    lg, battle = world.lg, world.battle
    south = make_league(name="Feldzug Süd", admin="sued-orga", players=("erik", "frida"))
    terra = south.planet("Terra")
    tile(terra, 0, 0, south.a)
    free = tile(terra, 1, 0)
    declare_round = south.start()
    played, new = f"/api/v1/campaigns/{world.campaign.pk}/", south.url("")
    anna, erik, organiser = api(lg.a.user), api(south.a.user), api(south.admin)
    lists = played + f"battles/{battle.pk}/army-list/"
    attacks = new + f"rounds/{declare_round.number}/"
    calls = {
        "declare without armies": ("R-ATK-1", lambda: erik.post(
            attacks + "attacks/", {"tile": free.pk}, format="json", **GERMAN)),
        "purchase beyond the balance": ("R-ECO-1", lambda: erik.post(
            attacks + "purchases/", {"attack_armies": 500}, format="json", **GERMAN)),
        "army list over the limit": ("R-ARM-1", lambda: anna.post(
            lists, {"name": "Zu viel", "entries": [{"name": "Titan", "points": 99_000}]},
            format="json", **GERMAN)),
        "unreadable pasted list": ("invalid", lambda: anna.post(
            lists, {"name": "Kaputt", "text": "Hallo Welt"}, format="json", **GERMAN)),
        "roster that is no roster": ("invalid", lambda: anna.post(
            lists + "upload/", {"file": _upload("liste.txt", b"no roster")},
            format="multipart", **GERMAN)),
        "bad ruleset": ("invalid", lambda: organiser.patch(
            new, {"ruleset": {"base_army_points": "viel"}}, format="json", **GERMAN)),
        "bad map document": ("invalid", lambda: organiser.post(
            new + "map/import/", {"planets": [{"name": "", "tiles": [{"q": "x"}]}],
                                  "links": [[1, 1]]}, format="json", **GERMAN)),
        "map replaced too late": ("wrong_phase", lambda: api(lg.admin).post(
            played + "map/import/", {"planets": []}, format="json", **GERMAN)),
    }
    found = {}
    for name, (code, call) in calls.items():
        response = call()
        assert 400 <= response.status_code < 500, (name, response.status_code)
        assert response.json()["code"] == code, (name, response.json())
        english = english_in(json_texts(response.json()))
        if english:
            found[name] = english
    return found


def _upload(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="application/octet-stream")


def test_api_refusals_are_german(world):
    assert_german(_refusals(world))


# --- feeds -------------------------------------------------------------------------------------

def test_the_atom_and_calendar_feeds_are_german(world):
    client = client_for(None)
    found = {}
    atom = client.get(world.url("feed.atom"), **GERMAN)
    assert atom.status_code == 200
    found["feed.atom"] = english_in(page_texts(atom.content.decode()))
    token = api(world.lg.a.user).get("/api/v1/me/calendar-token/", **GERMAN).json()["token"]
    campaign = client.get(f"/api/v1/campaigns/{world.campaign.pk}/calendar.ics?token={token}",
                          **GERMAN)
    assert campaign.status_code == 200
    texts = calendar_texts(campaign.content.decode())
    assert any("Nordmark" in text for text in texts)  # the events are read
    found["calendar.ics"] = english_in(texts)
    own = client.get(f"/api/v1/me/calendar.ics?token={token}", **GERMAN)
    assert own.status_code == 200
    found["me/calendar.ics"] = english_in(calendar_texts(own.content.decode()))
    assert_german({name: english for name, english in found.items() if english})


# --- mails -------------------------------------------------------------------------------------

def test_the_mails_are_german(world, django_capture_on_commit_callbacks):
    """Invitation, phase opened, deadline soon, nudge, date proposed, result to confirm,
    dispute raised: each to a German reader."""
    lg = world.lg  # the round and battle afresh: this test changes them (rolled back after it)
    rnd, battle = Round.objects.get(pk=world.rnd.pk), Battle.objects.get(pk=world.battle.pk)
    now = timezone.now()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client_for(lg.admin).post(world.url("manage/members/invite/"),
                                  {"emails": "neu@example.org"}, **GERMAN)
        notifications_phase_opened(round=rnd, now=now)
        Round.objects.filter(pk=rnd.pk).update(phase_started_at=now - timedelta(hours=20),
                                               phase_deadline=now + timedelta(hours=2))
        reminders_send(now=now)
        nudges_send(campaign=world.campaign, by=lg.admin, now=now)
        client_for(lg.a.user).post(world.url(f"battles/{battle.pk}/schedule/"),
                                   {"proposed_at": "2027-01-06T17:25", "place": "Clubheim"},
                                   **GERMAN)
    with django_capture_on_commit_callbacks(execute=True):
        hand_in(battle, lg.a, "Skitarii", 500)
        advance_to(rnd, Round.Phase.BATTLES)
        battle_result_report(battle=battle, player=lg.b, outcome="victory", attacker_vp=9,
                             defender_vp=3)
        battle_result_dispute(battle=battle, player=lg.a, reason="Falsch gezählt")
    kinds = {message.subject for message in mail.outbox}
    assert len(kinds) >= 6, sorted(kinds)
    found = {}
    for message in mail.outbox:
        english = english_in([message.subject, *message.body.split("\n")])
        if english:
            found[f"{message.to[0]}: {message.subject}"] = english
    assert_german(found)
