"""R-BAT-2, R-RND-1, R-RND-2: a phase deadline's calendar event follows every move of the
deadline - a pause, a resume, an extension (running or paused), an absolute move and an early
advance - with a strictly higher SEQUENCE and a DTSTAMP never earlier than before, read back
from the feed with the ``icalendar`` library as a calendar client reads it."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from icalendar import Calendar

from battles.services.feeds import campaign_feed
from campaigns.models import Round
from league.services.pause import campaign_pause, campaign_resume, round_extend_deadline
from league.services.readiness import phase_done_mark
from league.services.rounds import campaign_start, round_set_deadline

pytestmark = pytest.mark.django_db
H = timedelta(hours=1)


def _t0():
    """A whole second after every time the league's creation stamped (DTSTAMP counts it)."""
    return (timezone.now() + timedelta(minutes=1)).replace(microsecond=0)


class Follow:
    """Reads round 1's declare deadline event after each step and checks it moved on."""

    def __init__(self, lg, rnd: Round):
        self.lg, self.uid = lg, f"deadline-{rnd.pk}-declare@{settings.SITE_HOST}"
        self.sequence, self.stamp = -1, None

    def event(self, now):
        feed = campaign_feed(self.lg.campaign, now + timedelta(minutes=1)).body
        found = {str(e["UID"]): e for e in Calendar.from_ical(feed).walk("VEVENT")}
        return found[self.uid]

    def after(self, now, *, start, status="CONFIRMED"):
        event = self.event(now)
        sequence, stamp = event.decoded("SEQUENCE"), event.decoded("DTSTAMP")
        assert sequence > self.sequence, "SEQUENCE must grow with every move"
        assert self.stamp is None or stamp >= self.stamp, "DTSTAMP must not go back"
        assert stamp >= now, "DTSTAMP is the time of the move"
        assert event.decoded("DTSTART") == start
        assert event.decoded("DTEND") == start + timedelta(minutes=15)
        assert str(event["STATUS"]) == status
        self.sequence, self.stamp = sequence, stamp
        return event


def test_r_bat_2_the_declare_deadline_event_follows_pause_resume_extend_move_and_early_end(lg):
    t0 = _t0()
    rnd = campaign_start(campaign=lg.campaign, now=t0)  # declare: 48 h
    follow = Follow(lg, rnd)
    follow.after(t0, start=t0 + 48 * H)

    # paused with 38 h left: the event stays at that time, marked as waiting (TENTATIVE)
    campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Easter", now=t0 + 10 * H)
    paused = follow.after(t0 + 10 * H, start=t0 + 48 * H, status="TENTATIVE")
    assert str(paused["SUMMARY"]).startswith("Paused: ")

    # extended while paused: 62 h left, shown from the pause on
    round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=24, now=t0 + 11 * H)
    follow.after(t0 + 11 * H, start=t0 + 72 * H, status="TENTATIVE")

    # resumed 10 h later: now + 62 h, confirmed again
    campaign_resume(campaign=lg.campaign, by=lg.admin, now=t0 + 20 * H)
    resumed = follow.after(t0 + 20 * H, start=t0 + 82 * H)
    assert not str(resumed["SUMMARY"]).startswith("Paused")

    # extended while running
    round_extend_deadline(campaign=lg.campaign, by=lg.admin, hours=6, now=t0 + 21 * H)
    follow.after(t0 + 21 * H, start=t0 + 88 * H)

    # moved to an absolute time
    round_set_deadline(rnd=rnd, deadline=t0 + 30 * H, now=t0 + 22 * H, by=lg.admin)
    follow.after(t0 + 22 * H, start=t0 + 30 * H)

    # everyone is done: the phase ends early, and its event says when it really ended
    for player in lg.players:
        phase_done_mark(round=rnd, player=player, now=t0 + 23 * H)
    assert Round.objects.get(pk=rnd.pk).phase != "declare"
    follow.after(t0 + 23 * H, start=t0 + 23 * H)


def test_r_bat_2_a_move_is_stamped_when_it_happens_not_when_the_feed_is_read(lg):
    """The service that moves the deadline writes the event; reading the feed much later does
    not restamp it (the same data, the same bytes)."""
    t0 = _t0()
    rnd = campaign_start(campaign=lg.campaign, now=t0)
    round_set_deadline(rnd=rnd, deadline=t0 + 60 * H, now=t0 + H, by=lg.admin)
    follow = Follow(lg, rnd)
    event = follow.event(t0 + 40 * H)
    assert event.decoded("DTSTAMP") == t0 + H and event.decoded("SEQUENCE") == 1
    assert follow.event(t0 + 41 * H).to_ical() == event.to_ical()
