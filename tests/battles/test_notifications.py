"""E-mail notifications: each kind goes out once per event, after commit, from the background
task - running the sending job (or the hook) again sends nothing - and a player's switches are
respected."""

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from battles.models import Battle, Notification, NotificationKind
from battles.services.notifications import (
    notifications_phase_opened,
    notifications_resend,
    reminders_send,
)
from battles.services.results import battle_result_enter
from battles.tasks import send_notifications
from campaigns.models import Round
from league.services.rounds import round_advance
from tests.battles.tabletop import CAPTAIN_LIST, WIN
from tests.factories import NotificationPreferenceFactory
from tests.mail_servers import silent_smtp as silent_smtp_server
from tests.worlds import advance_to, api, chain, declare, duel, row, tile, with_emails

pytestmark = pytest.mark.django_db


@pytest.fixture
def lg(league):
    return with_emails(league)


def inbox(kind: str | None = None) -> list[tuple[str, str]]:
    """(recipient username, subject) of the mails sent, optionally of one kind."""
    sent = [(m.to[0].split("@")[0], m.subject) for m in mail.outbox]
    if kind is None:
        return sent
    subjects = set(Notification.objects.filter(kind=kind).values_list("subject", flat=True))
    return [(to, subject) for to, subject in sent if subject in subjects]


def send_again() -> int:
    """The sending job run once more over every row: it must send nothing new."""
    before = len(mail.outbox)
    send_notifications.delay(list(Notification.objects.values_list("pk", flat=True)))
    return len(mail.outbox) - before


def test_phase_opened_goes_to_every_player_once_after_commit(lg,
                                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        lg.start()
    assert mail.outbox == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sorted(to for to, _ in inbox(NotificationKind.PHASE_OPENED)) == [
        "anna", "ben", "carl", "dora"]
    assert "Declare phase is open" in mail.outbox[0].subject
    assert "It ends at" in mail.outbox[0].body
    assert send_again() == 0
    assert Notification.objects.filter(sent_at__isnull=True).count() == 0


def test_a_campaign_name_with_line_breaks_never_stops_mail(lg,
                                                          django_capture_on_commit_callbacks):
    """Names are one line where they are entered; one stored before that still gets its mail
    (a mail header with a line break would be refused by the mail library)."""
    type(lg.campaign).objects.filter(pk=lg.campaign.pk).update(name="Liga\nNord\r\n 2025")
    lg.campaign.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    assert len(inbox(NotificationKind.PHASE_OPENED)) == 4
    assert mail.outbox[0].subject.startswith("[Liga Nord 2025] ")


def test_phase_opened_for_lists_and_battles(lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg, "battles")
    subjects = [s for to, s in inbox(NotificationKind.PHASE_OPENED) if to == "anna"]
    assert [s.split(": the ")[1] for s in subjects] == [
        "Declare phase is open", "Army lists phase is open", "Battles phase is open"]
    with django_capture_on_commit_callbacks(execute=True):  # the hook again: nothing new
        notifications_phase_opened(round=Round.objects.get(pk=battle.round_id), now=timezone.now())
    assert len(inbox(NotificationKind.PHASE_OPENED)) == 12
    assert send_again() == 0


def test_date_proposed_tells_the_opponent_once(lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg)
    mail.outbox.clear()
    when = (timezone.now() + timedelta(days=2)).isoformat()
    with django_capture_on_commit_callbacks(execute=True):
        response = api(lg.a.user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                                       {"proposed_at": when, "place": "Club & Pub"},
                                       format="json")
    assert response.status_code == 201
    assert [to for to, _ in inbox()] == ["ben"]
    assert "anna proposed a date" in mail.outbox[0].subject
    assert "Club & Pub" in mail.outbox[0].body  # plain text, not HTML-escaped
    assert send_again() == 0


def test_result_to_confirm_and_dispute(lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg, "battles")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
    assert [to for to, _ in inbox()] == ["ben"]
    assert "waits for your confirmation" in mail.outbox[0].subject
    assert "48 hours" in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.b.user).post(lg.url(f"battles/{battle.pk}/result/dispute/"),
                            {"reason": "Wrong score"}, format="json")
    disputes = inbox(NotificationKind.DISPUTE_RAISED)
    assert sorted(to for to, _ in disputes) == ["anna", "orga"]
    assert all("Wrong score" in m.body for m in mail.outbox[1:])
    assert send_again() == 0
    assert len(mail.outbox) == 3


def test_deadline_reminder_goes_once_to_who_still_owes_input(lg,
                                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg)
    api(lg.a.user).post(lg.url(f"battles/{battle.pk}/army-list/"), CAPTAIN_LIST,
                        format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    mail.outbox.clear()
    early = rnd.phase_deadline - timedelta(hours=13)  # 24 h phase: reminder at half time
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_send(now=early) == 0
        assert reminders_send(now=rnd.phase_deadline - timedelta(hours=11)) == 1
        assert reminders_send(now=rnd.phase_deadline - timedelta(hours=1)) == 0
    assert inbox() == [("ben", inbox()[0][1])]
    assert "Army lists deadline is near" in mail.outbox[0].subject
    assert "army list of yours is still missing" in mail.outbox[0].body
    assert send_again() == 0


def test_deadline_reminder_in_battles_names_who_must_report_or_confirm(
        lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg, "battles")
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=rnd.phase_deadline - timedelta(hours=2))
    assert [to for to, _ in inbox()] == ["ben"]  # anna reported; ben must confirm


def test_preferences_switch_kinds_off(lg, django_capture_on_commit_callbacks):
    url = lg.url("players/me/notifications/")
    assert api(lg.b.user).get(url).json() == {kind: True for kind in NotificationKind.values}
    changed = api(lg.b.user).patch(url, {"date_proposed": False}, format="json")
    assert changed.status_code == 200 and changed.json()["date_proposed"] is False
    assert changed.json()["result_to_confirm"] is True
    NotificationPreferenceFactory(player=lg.d, kind=NotificationKind.PHASE_OPENED)
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg)
    assert "dora" not in {to for to, _ in inbox(NotificationKind.PHASE_OPENED)}
    mail.outbox.clear()
    when = (timezone.now() + timedelta(days=2)).isoformat()
    with django_capture_on_commit_callbacks(execute=True):
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/schedule/"),
                            {"proposed_at": when, "place": "Club"}, format="json")
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="date_proposed").exists()


@pytest.mark.parametrize("body", [{"shouting": True}, {"date_proposed": "maybe"}, []])
def test_preferences_reject_bad_input(lg, body):
    response = api(lg.b.user).patch(lg.url("players/me/notifications/"), body, format="json")
    assert response.status_code == 400


def test_preferences_are_for_players(lg):
    url = lg.url("players/me/notifications/")
    assert api().get(url).status_code == 401
    assert api(lg.admin).get(url).status_code == 403


def test_no_address_no_mail_and_unsent_rows_are_retried(lg,
                                                        django_capture_on_commit_callbacks):
    lg.c.user.email = ""
    lg.c.user.save()
    with django_capture_on_commit_callbacks(execute=False):
        lg.start()  # queued, but the task never ran (a lost broker message)
    assert mail.outbox == [] and Notification.objects.count() == 3
    assert notifications_resend(now=timezone.now()) == []  # too fresh to be given up on
    with django_capture_on_commit_callbacks(execute=True):
        assert len(notifications_resend(now=timezone.now() + timedelta(minutes=6))) == 3
    assert len(mail.outbox) == 3 and send_again() == 0


def test_a_failing_mail_server_leaves_the_row_for_the_retry(lg, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    def down(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr("battles.services.notifications.deliver", down)
    with django_capture_on_commit_callbacks(execute=True):
        lg.start()
    assert Notification.objects.filter(sent_at__isnull=True).count() == 4
    monkeypatch.undo()
    assert send_again() == 4 and send_again() == 0


def test_advancing_twice_sends_the_phase_mail_once(lg, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg)
    rnd = Round.objects.get(pk=battle.round_id)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        round_advance(round_id=rnd.pk, expected_phase="lists")
        round_advance(round_id=rnd.pk, expected_phase="lists")
    assert len(inbox(NotificationKind.PHASE_OPENED)) == 4


# --- the reminder and the home page's to-do list agree (one "what a player owes") ----------

def _page_owes(lg, player) -> bool:
    """Does the campaign home list anything this player still owes?"""
    client = Client()
    client.force_login(player.user)
    html = client.get(f"/campaigns/{lg.campaign.pk}/").content.decode()
    assert "What you still owe this phase" in html
    return "Nothing: you are done for this phase." not in html


def _reminded(lg, rnd, django_capture_on_commit_callbacks) -> set[str]:
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_send(now=rnd.phase_deadline - timedelta(hours=1)) == 1
    return {to for to, _ in inbox(NotificationKind.DEADLINE_SOON)}


def _assert_reminder_matches_page(lg, rnd, django_capture_on_commit_callbacks) -> set[str]:
    reminded = _reminded(lg, rnd, django_capture_on_commit_callbacks)
    on_page = {p.user.username for p in (lg.a, lg.b, lg.c, lg.d) if _page_owes(lg, p)}
    assert reminded == on_page
    return reminded


def test_reminder_reaches_a_garrison_attacker_whose_page_asks_for_a_list(
        lg, django_capture_on_commit_callbacks):
    """R-ATK-4: a battle against a neutral garrison takes the attacker's list; the page asks
    for it, so the lists reminder goes to the attacker too."""
    lg.set_rules(neutral_needs_battle=True)
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, None))
        rnd = advance_to(attack.round, "lists")
    assert Battle.objects.get(attack=attack).neutral
    assert _assert_reminder_matches_page(lg, rnd, django_capture_on_commit_callbacks) == {
        "anna"}


def test_reminder_reaches_a_chain_attacker_whose_page_asks_for_the_roll_decision(
        lg, django_capture_on_commit_callbacks):
    """R-CON-6: a won chain link waits for its attacker's roll decision; the page asks for it,
    so the battles reminder goes to that attacker, and to nobody the page leaves alone."""
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        links = chain(lg, "battles")
        battle_result_enter(battle=links[0], by_admin_user=lg.admin, **WIN)
    rnd = Round.objects.get(pk=links[0].round_id)
    assert _assert_reminder_matches_page(lg, rnd, django_capture_on_commit_callbacks) == {
        "anna"}


def test_reminder_in_battles_goes_to_exactly_whom_the_page_asks(
        lg, django_capture_on_commit_callbacks):
    """Anna reported: ben must confirm, anna is done (the page and the mail agree)."""
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        battle = duel(lg, "battles")
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    assert _assert_reminder_matches_page(lg, rnd, django_capture_on_commit_callbacks) == {"ben"}


def test_a_garrison_battle_asks_no_result_of_the_attacker_on_the_page_or_by_mail(
        lg, django_capture_on_commit_callbacks):
    """R-ATK-4: the admin records a battle against a neutral garrison (the attacker's report
    is refused), so neither the page nor the reminder asks the attacker for it."""
    lg.set_rules(neutral_needs_battle=True)
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    with django_capture_on_commit_callbacks(execute=True):  # earlier mail sent
        attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, None))
        rnd = advance_to(attack.round, "battles")
    assert _assert_reminder_matches_page(lg, rnd, django_capture_on_commit_callbacks) == set()


def test_a_silent_mail_server_ends_the_batch_at_the_first_timeout(
        lg, settings, django_capture_on_commit_callbacks):
    """The send task has 30 s (``campaigns.tasks.OUTBOX_TASK``): a server that never answers
    costs one ``EMAIL_TIMEOUT``, not one per row; every row waits for the retry."""
    with silent_smtp_server(settings) as accepted:
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            lg.start()
        assert time.monotonic() - started < 3.5  # four rows, a one-second timeout each
        assert len(accepted) == 1 and mail.outbox == []  # asked once
    assert Notification.objects.filter(sent_at__isnull=True).count() == 4
