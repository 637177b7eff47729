"""The reliability record (R-RND-3 [reading]): when a waiting phase ends,
each player who could act in it is recorded on time or defaulted (``absent`` when away), once;
the dashboard counts them over the season."""

from datetime import timedelta

import pytest

from battles.selectors.reliability import reliability
from battles.services.reliability import phase_inputs_record
from campaigns.models import Absence, PhaseDone, PhaseInput, Round
from campaigns.selectors.absences import campaign_day
from league.phases import TABLE
from league.services.rounds import advance_due_rounds
from rules.rounds import WAITING
from tests.worlds import buy, declare, duel, hand_in, row, tile

pytestmark = pytest.mark.django_db


def records(rnd, phase) -> dict[str, tuple[bool, bool]]:
    return {i.player.user.username: (i.on_time, i.absent)
            for i in PhaseInput.objects.filter(round=rnd, phase=phase).select_related(
                "player__user")}


def test_registered_first_at_the_end_of_every_waiting_phase():
    for phase in WAITING:
        assert TABLE[phase].end[0] is phase_inputs_record


def test_lists_ended_by_the_deadline_with_one_player_defaulting(lg):
    battle = duel(lg, "lists")
    rnd = Round.objects.get(pk=battle.round_id)
    hand_in(battle, lg.a, "Captain")
    advance_due_rounds(now=rnd.phase_deadline + timedelta(minutes=1))  # the periodic job
    rnd.refresh_from_db()
    assert rnd.phase == "battles"
    assert records(rnd, "lists") == {"anna": (True, False), "ben": (False, False)}
    counts = reliability(lg.campaign)  # declare (anna declared, the others did nothing)
    assert counts[lg.a.pk] == {"on_time": 2, "defaulted": 0, "away": 0}
    assert counts[lg.b.pk] == {"on_time": 0, "defaulted": 2, "away": 0}
    assert counts[lg.c.pk] == {"on_time": 0, "defaulted": 1, "away": 0}  # no list to give


def test_declare_reading_bought_declared_done_or_away(lg):
    """[reading R-RND-3] declare: buying, declaring or "done" is input; dora defaults while
    away."""
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    buy(lg.b, rnd, 1)
    PhaseDone.objects.create(round=rnd, player=lg.c, phase="declare")
    when = rnd.phase_deadline
    day = campaign_day(lg.campaign, when)
    Absence.objects.create(player=lg.d, starts_on=day, ends_on=day)
    assert phase_inputs_record(round=rnd, now=when) == 4
    assert records(rnd, "declare") == {"anna": (True, False), "ben": (True, False),
                                       "carl": (True, False), "dora": (False, True)}
    assert reliability(lg.campaign)[lg.d.pk] == {"on_time": 0, "defaulted": 1, "away": 1}


def test_recording_twice_adds_nothing(lg):
    rnd = lg.start()
    assert phase_inputs_record(round=rnd, now=rnd.phase_deadline) == 4
    assert phase_inputs_record(round=rnd, now=rnd.phase_deadline) == 0
    assert PhaseInput.objects.count() == 4
    assert all(not on_time for on_time, _ in records(rnd, "declare").values())
