"""The clock's state (R-RND-2), one reading for pages, API and /healthz: "never" without a
heartbeat, "ok" while the newest heartbeat of any clock is under CLOCK_LATE_SECONDS (3
minutes) old, "late" from then on."""

from datetime import UTC, datetime, timedelta

import pytest

from campaigns.models import ClockBeat
from campaigns.selectors.clock import LATE, NEVER, OK, clock_state
from campaigns.services.clock import clock_beat_record

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 3, 18, 0, tzinfo=UTC)


def test_r_rnd_2_no_heartbeat_is_never_and_counts_as_late():
    state = clock_state(NOW)
    assert (state.status, state.last_at, state.late) == (NEVER, None, True)


def test_r_rnd_2_a_clock_is_late_at_three_minutes_without_a_heartbeat(settings):
    assert settings.CLOCK_LATE_SECONDS == 180
    clock_beat_record(name="in-process", due_rounds=0, now=NOW)
    assert clock_state(NOW + timedelta(seconds=40)) == clock_state(NOW)
    assert clock_state(NOW + timedelta(seconds=179)).status == OK
    assert not clock_state(NOW + timedelta(seconds=179)).late
    late = clock_state(NOW + timedelta(seconds=180))
    assert (late.status, late.last_at, late.late) == (LATE, NOW, True)


def test_r_rnd_2_the_newest_heartbeat_of_any_clock_counts():
    clock_beat_record(name="in-process", due_rounds=0, now=NOW - timedelta(days=2))
    clock_beat_record(name="beat", due_rounds=3, now=NOW - timedelta(seconds=30))
    assert clock_state(NOW).status == OK
    assert clock_state(NOW).last_at == NOW - timedelta(seconds=30)
    assert ClockBeat.objects.get(name="beat").due_rounds == 3


def test_r_rnd_2_the_late_threshold_is_a_setting(settings):
    settings.CLOCK_LATE_SECONDS = 600
    clock_beat_record(name="beat", due_rounds=0, now=NOW)
    assert clock_state(NOW + timedelta(minutes=5)).status == OK
