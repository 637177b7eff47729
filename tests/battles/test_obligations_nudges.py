"""Nudges: the admin mails who still owes input, at most once per person,
phase and 12 hours, never a player away today nor while paused; each mail in the recipient's
language with the link where they act; every call is in the (non-public) audit log."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from battles.models import Notification
from battles.services.nudges import nudges_send
from campaigns.errors import Conflict, DomainError
from campaigns.models import Absence, AdminAction, Nudge, Profile, Round
from campaigns.selectors.absences import campaign_day
from tests.concurrency import at_once
from tests.worlds import advance_to, duel, hand_in, make_league, with_emails

pytestmark = pytest.mark.django_db


@pytest.fixture
def lists_duel(lg, django_capture_on_commit_callbacks):
    """Anna and ben owe their lists (R-ARM-1); carl and dora owe nothing."""
    with_emails(lg)
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg, "lists")
    mail.outbox.clear()
    return lg, battle


def nudge(lg, capture, now, **kwargs):
    with capture(execute=True):
        outcome = nudges_send(campaign=lg.campaign, by=lg.admin, now=now, **kwargs)
    return outcome


def names(players) -> list[str]:
    return sorted(p.user.username for p in players)


def test_nudge_everyone_who_owes_mails_them_once(lists_duel,
                                                 django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    now = timezone.now()
    outcome = nudge(lg, django_capture_on_commit_callbacks, now)
    assert names(outcome.nudged) == ["anna", "ben"] and outcome.skipped == []
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "ben@example.org"]
    body = mail.outbox[0].body
    assert "still waits for your input" in body
    assert f"/campaigns/{lg.campaign.pk}/battles/" in body  # where lists are handed in
    assert "orga" in body  # who nudges
    entry = AdminAction.objects.get(kind="nudge")
    assert entry.public is False and "anna" in entry.target and "ben" in entry.target


def test_a_second_nudge_within_12_hours_is_skipped_then_sent(
        lists_duel, django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    first = timezone.now()
    nudge(lg, django_capture_on_commit_callbacks, first)
    again = nudge(lg, django_capture_on_commit_callbacks, first + timedelta(hours=11))
    assert again.nudged == []
    assert {(s["player"].user.username, s["reason"], s["until"]) for s in again.skipped} == {
        ("anna", "recently", first + timedelta(hours=12)),
        ("ben", "recently", first + timedelta(hours=12))}
    assert len(mail.outbox) == 2
    later = nudge(lg, django_capture_on_commit_callbacks, first + timedelta(hours=12, minutes=1))
    assert names(later.nudged) == ["anna", "ben"] and len(mail.outbox) == 4
    assert Nudge.objects.count() == 4


def test_a_new_phase_resets_the_limit(lists_duel, django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    now = timezone.now()
    nudge(lg, django_capture_on_commit_callbacks, now)
    hand_in(battle, lg.a, "Captain")
    hand_in(battle, lg.b, "Boss")
    advance_to(Round.objects.get(pk=battle.round_id), "battles")
    mail.outbox.clear()
    outcome = nudge(lg, django_capture_on_commit_callbacks, now + timedelta(hours=1))
    assert names(outcome.nudged) == ["anna", "ben"]  # results to report now


def test_only_who_owes_and_is_not_away(lists_duel, django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    now = timezone.now()
    today = campaign_day(lg.campaign, now)
    Absence.objects.create(player=lg.b, starts_on=today, ends_on=today + timedelta(days=2))
    outcome = nudge(lg, django_capture_on_commit_callbacks, now,
                    player_ids=[lg.a.pk, lg.b.pk, lg.c.pk])
    assert names(outcome.nudged) == ["anna"]
    assert {(s["player"].user.username, s["reason"]) for s in outcome.skipped} == {
        ("ben", "away"), ("carl", "owes_nothing")}
    assert [m.to[0] for m in mail.outbox] == ["anna@example.org"]


def test_the_nudge_is_in_the_recipients_language(lists_duel,
                                                 django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    Profile.objects.update_or_create(user=lg.b.user, defaults={"language": "de"})
    nudge(lg, django_capture_on_commit_callbacks, timezone.now())
    by_address = {m.to[0]: m for m in mail.outbox}
    assert "still waits for your input" in by_address["anna@example.org"].body
    german = by_address["ben@example.org"]
    assert "wartet noch auf deine Eingabe" in german.body
    assert "wartet auf dich" in german.subject


def test_refused_while_paused_or_for_foreign_players(lists_duel,
                                                     django_capture_on_commit_callbacks):
    lg, battle = lists_duel
    other = make_league(name="Other", players=("zed",))
    with pytest.raises(DomainError):
        nudges_send(campaign=lg.campaign, by=lg.admin, player_ids=[other.a.pk])
    lg.campaign.paused_at = timezone.now()
    lg.campaign.save(update_fields=["paused_at"])
    with pytest.raises(Conflict):
        nudges_send(campaign=lg.campaign, by=lg.admin)
    assert Nudge.objects.count() == 0 and Notification.objects.filter(kind="nudge").count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_admins_nudging_at_once_nudge_each_player_once(lg):
    """The round row is locked: the second call sees the first one's nudges (12-hour limit)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    with_emails(lg)
    duel(lg, "lists")
    def nudge_all():
        return sorted(p.pk for p in nudges_send(campaign=lg.campaign, by=lg.admin).nudged)

    outcomes = at_once(nudge_all, nudge_all)
    assert sorted(outcomes) == [[], sorted([lg.a.pk, lg.b.pk])]
    assert Nudge.objects.count() == 2
    assert Notification.objects.filter(kind="nudge").count() == 2
