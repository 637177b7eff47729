"""Opening a phase, with its mail sent, and the round's automatic work cost a
constant number of queries whatever the league's size (R-RND-1: every player hears of a phase;
the deadline reminder; the steps for phase inputs, webhook events)."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.services.notifications import reminders_send
from campaigns.models import Tile
from league.services.rounds import round_advance, round_run_phase_job
from tests.worlds import declare, make_league, row, with_emails

pytestmark = pytest.mark.django_db


def _league(size: int):
    """``size`` players with three tiles each in a row; each attacks the next one's tile."""
    lg = with_emails(make_league(players=tuple(f"p{i}" for i in range(size))))
    alpha = lg.planet("Alpha")
    for i, player in enumerate(lg.players):
        row(alpha, player, (3 * i, 3 * i + 1, 3 * i + 2))
    rnd = lg.start()
    for i, player in enumerate(lg.players[:-1]):
        declare(player, rnd, Tile.objects.get(planet=alpha, q=3 * i + 3))
    return rnd


def _counted(capture, action) -> int:
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        action()  # the mail is handed out after commit: counted too
    return len(queries)


def _round_costs(size: int, capture) -> dict[str, int]:
    rnd = _league(size)
    costs = {}
    for phase in ("declare", "fleets", "lists"):  # battles_close settles battle by battle
        rnd.refresh_from_db()
        if phase == "fleets":
            step = lambda: round_run_phase_job(round_id=rnd.pk, phase="fleets")  # noqa: E731
        else:
            step = lambda p=phase: round_advance(round_id=rnd.pk, expected_phase=p)  # noqa: E731
        costs[phase] = _counted(capture, step)
        rnd.refresh_from_db()
        costs[f"reminder in {rnd.phase}"] = _counted(
            capture, lambda r=rnd: reminders_send(now=r.phase_deadline - timedelta(hours=1)))
    rnd.campaign.delete()  # the next league's reminder job must not see this one
    return costs


def test_phase_openings_and_their_mail_cost_the_same_for_4_and_16_players(
        django_capture_on_commit_callbacks):
    small = _round_costs(4, django_capture_on_commit_callbacks)
    sent_small = len(mail.outbox)
    large = _round_costs(16, django_capture_on_commit_callbacks)
    assert len(mail.outbox) - sent_small > 3 * sent_small  # the larger league heard more
    assert large == small
