"""Every notification is written for its recipient - their language and
time zone (the zone named), their display name, an absolute ``SITE_URL`` link to the page where
they act, battles named by tile and sides (never an id) - and ends with the settings link and a
signed one-click unsubscribe link (RFC 8058 headers too) that works without a login."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail, signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Notification, NotificationKind
from battles.services.notifications import (
    notifications_phase_opened,
    preferences_of,
    reminders_send,
)
from campaigns.models import Profile, Round, Tile
from tests.battles.tabletop import WIN
from tests.factories import PlayerFactory, UserFactory
from tests.worlds import api, duel, make_league, with_emails

pytestmark = pytest.mark.django_db

SITE = "https://feldzug.example"
# Saturday 24 October 2026, 18:00 UTC: 20:00 in Berlin (CEST), 14:00 in New York (EDT)
DEADLINE = datetime(2026, 10, 24, 18, 0, tzinfo=UTC)


@pytest.fixture
def lg(league, settings):
    settings.SITE_URL = SITE
    league = with_emails(league)
    Profile.objects.create(user=league.a.user, language="de", time_zone="Europe/Berlin",
                           display_name="Anna die Kühne")
    Profile.objects.create(user=league.b.user, language="en", time_zone="America/New_York",
                           display_name="Ben Bold")
    return league


def to(username: str):
    """The one mail sent to ``username``."""
    (message,) = [m for m in mail.outbox if m.to == [f"{username}@example.org"]]
    return message


def links(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


def phase_mails(lg, phase: str = "declare", deadline=DEADLINE):
    """The phase-opened mails of round 1 in ``phase`` with ``deadline``, sent."""
    rnd = Round.objects.get(campaign=lg.campaign)
    Round.objects.filter(pk=rnd.pk).update(phase=phase, phase_deadline=deadline)
    rnd.refresh_from_db()
    Notification.objects.all().delete()
    mail.outbox.clear()
    return notifications_phase_opened(round=rnd, now=timezone.now())


def test_german_reader_gets_german_and_berlin_time_english_reader_their_zone(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
        phase_mails(lg)
    anna, ben = to("anna"), to("ben")
    assert "Hallo Anna die Kühne," in anna.body and "Hello Ben Bold," in ben.body
    assert "Runde 1" in anna.subject and "Round 1" in ben.subject
    assert "Sa. 24. Okt. 2026, 20:00 MESZ (Europe/Berlin)" in anna.body
    assert "Sat 24 Oct 2026, 14:00 EDT (America/New_York)" in ben.body
    # no profile: the campaign's zone, else the site's (UTC), named once
    assert "Sat 24 Oct 2026, 18:00 UTC" in to("carl").body and "(UTC)" not in to("carl").body


def test_a_deadline_after_the_october_change_is_in_winter_time(
        lg, django_capture_on_commit_callbacks):
    """Europe/Berlin leaves summer time on the last Sunday of October (25 Oct 2026)."""
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
        phase_mails(lg, deadline=DEADLINE + timedelta(days=2))
    assert "Mo. 26. Okt. 2026, 19:00 MEZ (Europe/Berlin)" in to("anna").body


@pytest.mark.parametrize(("phase", "page"), [
    ("declare", "map/"), ("lists", "battles/"), ("battles", "battles/"),
    ("conquest", "conquest/")])
def test_phase_mails_link_the_page_where_the_player_acts(
        lg, phase, page, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
        phase_mails(lg, phase)
    campaign = f"{SITE}/campaigns/{lg.campaign.pk}/"
    for name in ("anna", "ben", "carl", "dora"):
        found = links(to(name))
        assert found[0] == campaign + page
        assert (campaign + "fleets/" in found) == (phase == "declare")  # fleet orders
        assert f"{SITE}/accounts/profile/#notifications" in found


def test_deadline_reminder_links_the_page_and_names_the_zone(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        duel(lg, "lists")
    Round.objects.filter(campaign=lg.campaign).update(
        phase_started_at=timezone.now() - timedelta(days=2),
        phase_deadline=timezone.now() + timedelta(hours=3))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=timezone.now())
    anna = to("anna")
    assert "Frist" in anna.subject and "(Europe/Berlin)" in anna.body
    assert f"{SITE}/campaigns/{lg.campaign.pk}/battles/" in links(anna)


def _named_duel(lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg, "battles")
    Tile.objects.filter(pk=battle.tile_id).update(name="Hive Gate")
    mail.outbox.clear()
    return battle


def _no_battle_id(message, battle) -> None:
    text = " ".join([message.subject, *(line for line in message.body.splitlines()
                                       if "://" not in line)])
    text = re.sub(r"\d{1,2}:\d{2}", "", text.replace("1 : 0", ""))  # times and scores: no ids
    assert not re.search(rf"(?<![\d.]){battle.pk}(?![\d.])", text)
    assert "no." not in text and "Nr." not in text


def test_date_proposed_names_tile_and_opponent_in_their_time(
        lg, django_capture_on_commit_callbacks):
    battle = _named_duel(lg, django_capture_on_commit_callbacks)
    when = (timezone.now() + timedelta(days=3)).replace(hour=18, minute=30, second=0,
                                                        microsecond=0)
    local = when.astimezone(ZoneInfo("Europe/Berlin"))
    with django_capture_on_commit_callbacks(execute=True):
        response = api(lg.b.user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                                       {"proposed_at": when.isoformat(), "place": "Club"},
                                       format="json")
    assert response.status_code == 201, response.content
    anna = to("anna")  # German, in Berlin time
    assert "Ben Bold" in anna.subject and "Hive Gate" in anna.subject
    assert "Ben Bold schlägt vor" in anna.body
    abbreviation = {"CET": "MEZ", "CEST": "MESZ"}[local.tzname()]
    assert f"{local:%H:%M} {abbreviation} (Europe/Berlin)" in anna.body
    planet = battle.tile.planet.name  # a named tile by its name and planet, no coordinates
    assert f"Hive Gate ({planet}): {lg.a.faction} (Anna die Kühne) gegen {lg.b.faction} " \
        "(Ben Bold)" in anna.body
    assert links(anna)[0] == f"{SITE}/campaigns/{lg.campaign.pk}/battles/{battle.pk}/"
    _no_battle_id(anna, battle)


def test_result_and_dispute_mails_name_the_battle_and_link_its_page(
        lg, django_capture_on_commit_callbacks):
    battle = _named_duel(lg, django_capture_on_commit_callbacks)
    page = f"{SITE}/campaigns/{lg.campaign.pk}/battles/{battle.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
    ben = to("ben")
    assert "Hive Gate" in ben.subject and "Anna die Kühne reported" in ben.body
    planet = battle.tile.planet.name  # the result to confirm names the tile, no coordinates
    assert f"Hive Gate ({planet}): " in ben.subject and f"Hive Gate ({planet}): " in ben.body
    assert f"{planet} (1, 0)" not in ben.body
    assert "Victory" in ben.body and links(ben)[0] == page
    _no_battle_id(ben, battle)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.b.user).post(lg.url(f"battles/{battle.pk}/result/dispute/"),
                            {"reason": "Falsch gezählt"}, format="json")
    anna, orga = to("anna"), to("orga")
    assert "Ben Bold bestreitet" in anna.body and "Hive Gate" in anna.subject
    assert links(anna)[0] == page and "Ben Bold disputed" in orga.body
    assert f"{SITE}/campaigns/{lg.campaign.pk}/manage/" in links(orga)  # where admins settle
    assert f"{SITE}/campaigns/{lg.campaign.pk}/manage/" not in links(anna)
    for message in (anna, orga):
        _no_battle_id(message, battle)


def test_a_battle_without_tile_name_is_named_by_planet_and_coordinates(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg, "battles")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
    assert "Alpha (1, 0): " in to("ben").subject


# --- one-click unsubscribe (RFC 8058) ----------------------------------------------------------

def _unsubscribe_link(message) -> str:
    (link,) = [x for x in links(message) if "/unsubscribe/" in x]
    return link.removeprefix(SITE)


def test_unsubscribe_link_works_without_login_and_stops_only_that_kind(
        lg, django_capture_on_commit_callbacks):
    other = make_league(name="Other league")  # anna plays there too
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    link = _unsubscribe_link(to("anna"))
    anonymous = Client()
    page = anonymous.get(link)
    assert page.status_code == 200 and b"<form method=\"post\"" in page.content
    assert preferences_of(lg.a)[NotificationKind.PHASE_OPENED]  # GET changes nothing
    assert anonymous.post(link).status_code == 200
    assert preferences_of(lg.a) == {**dict.fromkeys(NotificationKind.values, True),
                                    NotificationKind.PHASE_OPENED: False}
    assert all(preferences_of(lg.b).values())
    anna_elsewhere = other.players[0]
    assert anna_elsewhere.user == lg.a.user and all(preferences_of(anna_elsewhere).values())
    assert anonymous.post(link).status_code == 200  # twice: still off, no error
    Notification.objects.all().delete()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        phase_mails(lg)
    assert "anna@example.org" not in {m.to[0] for m in mail.outbox}
    assert "ben@example.org" in {m.to[0] for m in mail.outbox}


def test_a_tampered_unsubscribe_link_is_a_400_page(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    link = _unsubscribe_link(to("anna"))
    token = link.rstrip("/").rsplit("/", 1)[1]
    payload, signature = token.rsplit(":", 1)
    bens = signing.dumps([lg.b.pk, lg.b.user_id, NotificationKind.PHASE_OPENED],
                         compress=False)
    bad_tokens = [
        f"{payload}:{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}",  # signature
        f"{bens.rsplit(':', 1)[0]}:{signature}",  # another player's seat, anna's signature
        bens,  # signed, but not as an unsubscribe link (another salt)
        "nonsense"]
    for bad in bad_tokens:
        for method in ("get", "post"):
            response = getattr(Client(), method)(link.replace(token, bad))
            assert response.status_code == 400, bad
            assert b"not valid" in response.content
    assert all(preferences_of(lg.a).values()) and all(preferences_of(lg.b).values())


def test_the_same_seat_and_kind_always_get_the_same_link(lg, monkeypatch):
    """The header is made when the mail goes out, the body's link when it was queued: both are
    one link (no timestamp in it), whenever each was made."""
    from battles.services.unsubscribe import unsubscribe_link

    args = {"player_id": lg.a.pk, "user_id": lg.a.user_id, "kind": NotificationKind.PHASE_OPENED}
    monkeypatch.setattr(signing.time, "time", lambda: 1_767_268_800.0)
    first = unsubscribe_link(**args)
    monkeypatch.setattr(signing.time, "time", lambda: 1_780_300_801.0)  # months later
    assert unsubscribe_link(**args) == first


def test_a_link_mailed_with_a_timestamp_still_unsubscribes(lg):
    """Links mailed before they lost their timestamp keep working (links do not expire)."""
    from django.urls import reverse

    from battles.services.unsubscribe import SALT

    old = signing.dumps([lg.a.pk, lg.a.user_id, NotificationKind.PHASE_OPENED], salt=SALT,
                        compress=False)
    assert old.count(":") == 2
    assert Client().post(reverse("unsubscribe", args=[old])).status_code == 200
    assert not preferences_of(lg.a)[NotificationKind.PHASE_OPENED]


def test_a_former_holders_link_does_not_touch_the_new_holders_settings(
        lg, django_capture_on_commit_callbacks):
    """A seat handed to another user; the old mails' links stop working."""
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    link = _unsubscribe_link(to("anna"))
    type(lg.a).objects.filter(pk=lg.a.pk).update(user=UserFactory(username="nachfolger"))
    assert Client().post(link).status_code == 400
    assert all(preferences_of(lg.a).values())


def test_rfc_8058_headers_and_the_one_click_post(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    anna = to("anna")
    header = anna.extra_headers["List-Unsubscribe"]
    assert header == f"<{SITE}{_unsubscribe_link(anna)}>"
    assert anna.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # what a mail program sends: a POST with that body, no cookie, no CSRF token
    response = Client(enforce_csrf_checks=True).post(
        header.strip("<>").removeprefix(SITE), "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert not preferences_of(lg.a)[NotificationKind.PHASE_OPENED]


def test_an_admin_without_a_seat_gets_no_unsubscribe_link(
        lg, django_capture_on_commit_callbacks):
    """Admins hear of disputes as admins; there is no per-player switch to flip for them."""
    battle = _named_duel(lg, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
        api(lg.b.user).post(lg.url(f"battles/{battle.pk}/result/dispute/"), {},
                            format="json")
    orga = to("orga")
    assert "List-Unsubscribe" not in orga.extra_headers
    assert not [x for x in links(orga) if "/unsubscribe/" in x]
    assert f"{SITE}/accounts/profile/#notifications" in links(orga)


# --- queries -----------------------------------------------------------------------------------

def _queries_for_phase_opening(players: int) -> int:
    league = with_emails(make_league(name=f"League {players}", admin=f"orga{players}",
                                     players=tuple(f"p{players}x{i}" for i in range(players))))
    for i, player in enumerate(league.players):  # each with a profile of their own
        Profile.objects.create(user=player.user, language=("de", "en")[i % 2],
                               time_zone="Europe/Berlin", display_name=f"Name {i}")
    rnd = league.start()
    Notification.objects.all().delete()
    with CaptureQueriesContext(connection) as queries:
        queued = notifications_phase_opened(round=rnd, now=timezone.now())
    assert len(queued) == players
    return len(queries)


def test_phase_opening_mail_takes_the_same_queries_for_2_or_12_players():
    assert _queries_for_phase_opening(2) == _queries_for_phase_opening(12)


def test_a_player_without_profile_or_address_is_skipped_or_defaulted(
        lg, django_capture_on_commit_callbacks):
    extra = PlayerFactory(campaign=lg.campaign, user=UserFactory(username="ohne", email=""))
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    assert not Notification.objects.filter(recipient=extra.user).exists()
    assert "Hello carl," in to("carl").body  # no display name: the username
