"""R-BAT-3 [decision]: 24 hours before the ``battles`` deadline the campaign's admins are told
by mail which disputes are still open (the battle, who disputed and why, what the deadline
does to it), each admin once per round in their language; nothing when no dispute is open."""

from datetime import timedelta

import pytest
from django.core import mail

from battles.services.notifications import reminders_send
from campaigns.models import JobRun, Profile, Round
from tests.battles.tabletop import WIN
from tests.factories import UserFactory
from tests.worlds import api, duel, with_emails

pytestmark = pytest.mark.django_db


@pytest.fixture
def lg(league):
    league = with_emails(league)
    Profile.objects.create(user=league.admin, language="de")
    second = UserFactory(username="hanna", email="hanna@example.org")
    Profile.objects.create(user=second, language="en")
    league.campaign.admins.add(second)
    return league


def admin_mails() -> dict[str, list]:
    found: dict[str, list] = {"orga": [], "hanna": []}
    for message in mail.outbox:
        name = message.to[0].split("@")[0]
        if name in found:
            found[name].append(message)
    return found


def battle_in_battles(lg, capture, dispute: str | None = "Wrong score, 12 : 3"):
    with capture(execute=True):
        battle = duel(lg, "battles")
        api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), WIN, format="json")
        if dispute is not None:
            response = api(lg.b.user).post(lg.url(f"battles/{battle.pk}/result/dispute/"),
                                           {"reason": dispute}, format="json")
            assert response.status_code == 200, response.content
    mail.outbox.clear()
    return battle, Round.objects.get(pk=battle.round_id)


def test_r_bat_3_admins_hear_of_open_disputes_24_hours_before_the_deadline_once(
        lg, django_capture_on_commit_callbacks):
    battle, rnd = battle_in_battles(lg, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=rnd.phase_deadline - timedelta(hours=25))
    assert admin_mails() == {"orga": [], "hanna": []}  # not yet: more than 24 hours left
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=rnd.phase_deadline - timedelta(hours=23))
    mails = admin_mails()
    assert len(mails["orga"]) == 1 and len(mails["hanna"]) == 1
    (english,), (german,) = mails["hanna"], mails["orga"]
    faction_a, faction_b = battle.attacker.faction, battle.defender.faction
    # English: the battle, the reason, what the deadline does, where to settle it
    assert "Disputes still open before the battles deadline of round 1" in english.subject
    assert faction_a in english.body and faction_b in english.body
    assert "Wrong score, 12 : 3" in english.body
    assert "gives the battle the campaign's outcome for an unplayed battle: a defeat of the " \
           "attacker (R-BAT-3)" in " ".join(english.body.split())
    assert f"/campaigns/{lg.campaign.pk}/manage/" in english.body
    assert f"/campaigns/{lg.campaign.pk}/battles/{battle.pk}/" in english.body
    # German for the admin who reads German
    assert "Offene Streitfälle vor der Frist der Schlachtphase von Runde 1" in german.subject
    assert "Wrong score, 12 : 3" in german.body and faction_a in german.body
    assert "eine Niederlage des Angreifers (R-BAT-3)" in " ".join(german.body.split())
    # a second run of the periodic step, later the same day: nothing more
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=rnd.phase_deadline - timedelta(hours=22))
        reminders_send(now=rnd.phase_deadline - timedelta(hours=1))
    assert admin_mails() == {"orga": [], "hanna": []}
    assert JobRun.objects.filter(name="dispute_deadline", key=str(rnd.pk)).count() == 1


def test_r_bat_3_no_open_dispute_no_mail(lg, django_capture_on_commit_callbacks):
    _battle, rnd = battle_in_battles(lg, django_capture_on_commit_callbacks, dispute=None)
    with django_capture_on_commit_callbacks(execute=True):
        reminders_send(now=rnd.phase_deadline - timedelta(hours=23))
    assert admin_mails() == {"orga": [], "hanna": []}
    assert not JobRun.objects.filter(name="dispute_deadline").exists()
