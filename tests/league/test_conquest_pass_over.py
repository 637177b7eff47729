"""A conquest phase with no roll due is passed over [reading R-RND-1, R-CON-4]: no "phase
opened" mail, no calendar entry, its end steps still run (R-CON-4: the conquest is resolved),
and a public note in the audit log says why, in English and German."""

import pytest
from django.urls import reverse

from battles.models import Battle, CalendarDeadline, Notification
from battles.services.results import battle_result_enter
from campaigns.models import AdminAction, Round
from league.services.rounds import round_advance
from tests.worlds import client_for, duel, with_emails

pytestmark = pytest.mark.django_db
SKIP = "round.skip_conquest"


def _settle(lg, outcome: str) -> Battle:
    battle = duel(with_emails(lg), "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome=outcome,
                        attacker_vp=10, defender_vp=2)
    return battle


def _leave_battles(battle: Battle, capture) -> Round:
    with capture(execute=True):
        round_advance(round_id=battle.round_id, expected_phase="battles")
    return Round.objects.get(pk=battle.round_id)


def _conquest_mail(rnd: Round) -> bool:
    return Notification.objects.filter(event=f"round:{rnd.pk}:conquest").exists()


def test_r_con_4_no_won_attack_passes_the_conquest_phase_over(
        lg, django_capture_on_commit_callbacks):
    battle = _settle(lg, "defeat")  # ben held his tile: nobody has a roll to make
    rnd = _leave_battles(battle, django_capture_on_commit_callbacks)
    assert rnd.phase == "closed" and rnd.seed_revealed
    assert rnd.conquest_resolved_at is not None  # the conquest end steps ran
    assert lg.campaign.rounds.get(number=2).phase == "declare"
    assert not _conquest_mail(rnd)
    assert not CalendarDeadline.objects.filter(round=rnd, phase="conquest").exists()
    note = AdminAction.objects.get(campaign=lg.campaign, kind=SKIP)
    assert note.public and note.actor is None and note.round_id == rnd.pk


def test_r_con_4_a_won_attack_opens_the_conquest_phase_as_before(
        lg, django_capture_on_commit_callbacks):
    battle = _settle(lg, "victory")
    rnd = _leave_battles(battle, django_capture_on_commit_callbacks)
    assert rnd.phase == "conquest" and rnd.phase_deadline is not None
    assert _conquest_mail(rnd)
    assert CalendarDeadline.objects.filter(round=rnd, phase="conquest").exists()
    assert not AdminAction.objects.filter(kind=SKIP).exists()


@pytest.mark.parametrize(("language", "label"), [
    ("en", "Conquest phase passed over: no conquest roll was due"),
    ("de", "Eroberungsphase übersprungen: kein Eroberungswurf war fällig"),
])
def test_r_con_4_members_read_why_in_the_audit_log(
        lg, django_capture_on_commit_callbacks, language, label):
    _leave_battles(_settle(lg, "defeat"), django_capture_on_commit_callbacks)
    page = client_for(lg.b.user).get(reverse("campaigns:corrections-log",
                                             args=[lg.campaign.pk]),
                                     HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200 and label in page.content.decode()
