"""Absences (R-RND-3). The season's cap (``absence_days``, 0 = off), no
overlap, no start in the past (the campaign's calendar), withdrawing (future goes, current is
cut to end yesterday, past stays); away players get neither reminders nor phase mails; an
agreed battle date inside an absence stays and either side may propose another (R-BAT-2)."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.utils import translation

from battles.models import NotificationKind
from battles.services.notifications import notifications_phase_opened, reminders_send
from battles.services.schedule import schedule_accept, schedule_propose
from campaigns.errors import Conflict, DomainError
from campaigns.models import Absence, Round
from campaigns.selectors.absences import absence_days_used, away_player_ids, campaign_day
from campaigns.services.absences import absence_add, absence_delete
from tests.battles.tabletop import CAPTAIN_LIST
from tests.worlds import api, duel, with_emails

pytestmark = pytest.mark.django_db

# 23:30 UTC on 24 Nov 2026 is already 25 Nov in Berlin: "today" is the campaign's day
NOW = datetime(2026, 11, 24, 23, 30, tzinfo=UTC)
TODAY = date(2026, 11, 25)


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):  # refusals are checked in English
        yield


@pytest.fixture
def lg(league):
    league.campaign.time_zone = "Europe/Berlin"
    league.campaign.save(update_fields=["time_zone"])
    return league


def add(lg, player=None, start=TODAY, days=1, *, by=None, note="", now=NOW):
    player = player or lg.a
    return absence_add(player=player, by=by or player.user, starts_on=start,
                       ends_on=start + timedelta(days=days - 1), note=note, now=now)


def test_today_is_the_campaigns_calendar_day(lg):
    assert campaign_day(lg.campaign, NOW) == TODAY


def test_cap_exactly_the_cap_is_accepted_one_more_day_refused(lg):
    lg.set_rules(absence_days=5)
    add(lg, days=3)
    add(lg, start=TODAY + timedelta(days=10), days=2)  # 5 of 5
    assert absence_days_used(lg.a) == 5
    with pytest.raises(Conflict) as refused:
        add(lg, start=TODAY + timedelta(days=20), days=1)
    assert refused.value.code == "absence_days"
    assert "0 of the season's 5 days are left" in refused.value.message
    assert "absence_days" in refused.value.message and "R-RND-3" in refused.value.message
    add(lg, lg.b, days=5)  # the cap is per player


def test_cap_a_too_long_absence_says_how_many_days_are_left(lg):
    lg.set_rules(absence_days=4)
    add(lg, days=2)
    with pytest.raises(Conflict, match="only 2 of the season's 4 days are left"):
        add(lg, start=TODAY + timedelta(days=5), days=3)
    assert Absence.objects.count() == 1


def test_cap_0_means_absences_off(lg):
    lg.set_rules(absence_days=0)
    with pytest.raises(Conflict) as refused:
        add(lg)
    assert refused.value.code == "absences_off"
    assert "absence_days is 0" in refused.value.message


def test_default_cap_is_21_days(lg):
    add(lg, days=21)
    with pytest.raises(Conflict, match="absence_days"):
        add(lg, start=TODAY + timedelta(days=30))


def test_overlap_with_another_absence_is_refused(lg):
    add(lg, start=TODAY + timedelta(days=2), days=3)
    for start, days in ((TODAY, 3), (TODAY + timedelta(days=4), 5), (TODAY + timedelta(days=3), 1)):
        with pytest.raises(Conflict) as refused:
            add(lg, start=start, days=days)
        assert refused.value.code == "absence_overlap"
    add(lg, start=TODAY, days=2)  # touching is fine
    add(lg, start=TODAY + timedelta(days=5))
    add(lg, lg.b, start=TODAY + timedelta(days=2), days=3)  # another player's days


def test_a_start_in_the_past_or_an_end_before_the_start_is_refused(lg):
    with pytest.raises(DomainError) as refused:
        add(lg, start=TODAY - timedelta(days=1))
    assert refused.value.code == "absence_past" and refused.value.field == "starts_on"
    with pytest.raises(DomainError) as refused:
        absence_add(player=lg.a, by=lg.a.user, starts_on=TODAY + timedelta(days=2),
                    ends_on=TODAY + timedelta(days=1), note="", now=NOW)
    assert refused.value.field == "ends_on"
    with pytest.raises(DomainError, match="a year ahead"):
        add(lg, start=TODAY + timedelta(days=400))
    assert not Absence.objects.exists()


def test_only_the_player_or_a_campaign_admin_marks_an_absence(lg):
    with pytest.raises(PermissionDenied):
        add(lg, lg.a, by=lg.b.user)
    by_admin = add(lg, lg.a, by=lg.admin, note="told me by phone")
    assert by_admin.player == lg.a and by_admin.note == "told me by phone"
    with pytest.raises(PermissionDenied):
        absence_delete(absence=by_admin, by=lg.b.user, now=NOW)


def test_withdraw_future_goes_current_is_cut_past_stays(lg):
    future = add(lg, start=TODAY + timedelta(days=3), days=2)
    assert absence_delete(absence=future, by=lg.a.user, now=NOW) is None
    assert not Absence.objects.filter(pk=future.pk).exists()

    current = add(lg, start=TODAY, days=5)
    later = NOW + timedelta(days=2)  # the third day of it
    cut = absence_delete(absence=current, by=lg.a.user, now=later)
    assert (cut.starts_on, cut.ends_on) == (TODAY, TODAY + timedelta(days=1))
    assert absence_days_used(lg.a) == 2  # the days away count

    with pytest.raises(Conflict) as refused:  # now in the past
        absence_delete(absence=cut, by=lg.admin, now=later)
    assert refused.value.code == "absence_over"
    assert Absence.objects.filter(pk=cut.pk).exists()


def test_withdrawing_on_its_first_day_removes_it(lg):
    today = add(lg, start=TODAY, days=3)
    assert absence_delete(absence=today, by=lg.a.user, now=NOW) is None
    assert absence_days_used(lg.a) == 0


def test_away_player_ids_follow_the_campaign_calendar(lg):
    add(lg, start=TODAY, days=2)
    assert away_player_ids(lg.campaign, NOW) == {lg.a.pk}
    assert away_player_ids(lg.campaign, NOW - timedelta(hours=1)) == set()  # 24 Nov in Berlin
    assert away_player_ids(lg.campaign, NOW + timedelta(days=2)) == set()


# --- R-RND-3: no reminders while away -------------------------------------------------------

def _mark_away(player, rnd_now):
    """``player`` away on the day of ``rnd_now`` (rows written directly: the day may be
    "past" for the service's clock)."""
    day = campaign_day(player.campaign, rnd_now)
    return Absence.objects.create(player=player, starts_on=day, ends_on=day)


def _to(kind: str) -> list[str]:
    return sorted(m.to[0].split("@")[0] for m in mail.outbox
                  if m.subject in _subjects(kind))


def _subjects(kind: str) -> set[str]:
    from battles.models import Notification

    return set(Notification.objects.filter(kind=kind).values_list("subject", flat=True))


def test_r_rnd_3_reminder_skips_an_away_player_but_reaches_the_others(
        lg, django_capture_on_commit_callbacks):
    with_emails(lg)
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg)
    rnd = Round.objects.get(pk=battle.round_id)
    mail.outbox.clear()
    when = rnd.phase_deadline - timedelta(hours=2)
    _mark_away(lg.b, when)  # ben owes a list but is away; anna owes one too
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_send(now=when) == 1
    assert _to(NotificationKind.DEADLINE_SOON) == ["anna"]


def test_r_rnd_3_reminder_for_a_player_away_on_another_day_goes_out(
        lg, django_capture_on_commit_callbacks):
    with_emails(lg)
    with django_capture_on_commit_callbacks(execute=True):
        battle = duel(lg)
    api(lg.a.user).post(lg.url(f"battles/{battle.pk}/army-list/"), CAPTAIN_LIST, format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    mail.outbox.clear()
    when = rnd.phase_deadline - timedelta(hours=2)
    _mark_away(lg.b, when + timedelta(days=3))
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=when)
    assert _to(NotificationKind.DEADLINE_SOON) == ["ben"]


def test_r_rnd_3_phase_opened_mail_skips_away_players(
        lg, django_capture_on_commit_callbacks):
    with_emails(lg)
    rnd = lg.start()
    mail.outbox.clear()
    when = rnd.phase_started_at or NOW
    Round.objects.filter(pk=rnd.pk).update(phase="lists")
    rnd.refresh_from_db()
    _mark_away(lg.c, when)
    _mark_away(lg.d, when)
    with django_capture_on_commit_callbacks(execute=True):
        notifications_phase_opened(round=rnd, now=when)
    assert _to(NotificationKind.PHASE_OPENED) == ["anna", "ben"]


# --- R-BAT-2: rescheduling around an absence --------------------------------------------------

def test_r_bat_2_an_agreed_date_inside_an_absence_stays_and_either_side_reschedules(lg):
    battle = duel(lg)
    now = datetime.now(UTC)
    agreed_at = now + timedelta(days=4)
    schedule_propose(battle=battle, player=lg.a, proposed_at=agreed_at, place="Club", now=now)
    schedule_accept(battle=battle, player=lg.b, now=now)
    day = campaign_day(lg.campaign, agreed_at)
    absence_add(player=lg.b, by=lg.b.user, starts_on=day - timedelta(days=1), ends_on=day,
                note="", now=now)
    battle.refresh_from_db()
    assert battle.scheduled_at == agreed_at  # [reading R-BAT-2] not cleared silently
    # the away side proposes a new date even though one was agreed; the other accepts
    new_at = now + timedelta(days=7)
    schedule_propose(battle=battle, player=lg.b, proposed_at=new_at, place="Club", now=now)
    schedule_accept(battle=battle, player=lg.a, now=now)
    battle.refresh_from_db()
    assert battle.scheduled_at == new_at and battle.calendar_sequence == 1


def test_an_admin_acting_for_a_player_is_in_the_audit_log_without_the_note(lg):
    from campaigns.models import AdminAction

    add(lg, lg.a, note="private matter")  # the player's own: no admin action
    assert not AdminAction.objects.exists()
    by_admin = add(lg, lg.b, by=lg.admin, note="private matter")
    absence_delete(absence=by_admin, by=lg.admin, now=NOW)
    entries = list(AdminAction.objects.order_by("id").values_list("kind", "target", "public"))
    assert [kind for kind, *_ in entries] == ["absence.create", "absence.delete"]
    assert "private" not in str(list(AdminAction.objects.values("before", "after")))
