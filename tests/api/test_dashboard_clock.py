"""The API's dashboard says when the clock that advances deadlines last ran (R-RND-2), from the
same selector as the pages and /healthz: ``clock`` (ok / late / never), ``clock_last_ran_at``
and ``clock_late``."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from campaigns.services.clock import clock_beat_record
from tests.worlds import api

pytestmark = pytest.mark.django_db


def _clock(lg) -> tuple:
    response = api(lg.admin).get(lg.url("dashboard/"))
    assert response.status_code == 200, response.content
    body = response.json()
    return body["clock"], body["clock_last_ran_at"], body["clock_late"]


def test_r_rnd_2_the_dashboard_reports_the_clock(lg):
    lg.start()
    assert _clock(lg) == ("never", None, True)
    ran = timezone.now() - timedelta(seconds=40)
    clock_beat_record(name="beat", due_rounds=0, now=ran)
    status, at, late = _clock(lg)
    assert (status, late) == ("ok", False)
    assert abs((datetime.fromisoformat(at) - ran).total_seconds()) < 1
    clock_beat_record(name="beat", due_rounds=0, now=ran - timedelta(minutes=3))
    assert _clock(lg)[0::2] == ("late", True)


def test_r_rnd_2_the_clock_fields_are_in_the_schema(lg):
    schema = api(lg.admin).get("/api/schema/?format=json").json()
    fields = schema["components"]["schemas"]["Dashboard"]["properties"]
    assert {"clock", "clock_last_ran_at", "clock_late"} <= set(fields)
