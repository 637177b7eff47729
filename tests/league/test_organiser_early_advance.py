"""Early advance follows the organiser too (R-RND-2 [reading]): everything that settles what a
player owes re-checks at once, after its transaction committed, as the players' own inputs do.
Each world is ready only through the organiser's action."""

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from battles.models import Battle
from battles.services.results import battle_result_dispute, battle_result_report
from campaigns.errors import Conflict, DomainError
from campaigns.models import AdminAction, PhaseDone, Round
from campaigns.selectors.absences import campaign_day
from league.services.corrections import absence_mark_for, phase_done_mark_for
from league.services.readiness import phase_done_mark
from tests.worlds import api, client_for, duel


def _phase(rnd: Round) -> str:
    rnd.refresh_from_db()
    return rnd.phase


def _three_done(lg) -> Round:
    rnd = lg.start()
    for player in lg.players[:3]:
        phase_done_mark(round=rnd, player=player)
    assert _phase(rnd) == "declare"
    return rnd


def _disputed(lg) -> Battle:
    battle = duel(lg, "battles")
    battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=5,
                         defender_vp=1)
    battle_result_dispute(battle=Battle.objects.get(pk=battle.pk), player=lg.b, reason="no")
    assert _phase(battle.round) == "battles"  # held for the organiser
    return battle


def test_r_rnd_2_marking_the_last_player_done_advances_at_once(lg):
    rnd = _three_done(lg)
    created, advanced = phase_done_mark_for(player=lg.d, by=lg.admin, reason="Told me by phone")
    assert created and advanced and _phase(rnd) != "declare"
    entry = AdminAction.objects.get(kind="player.done")
    assert entry.actor == lg.admin and entry.reason == "Told me by phone" and entry.public


def test_r_rnd_2_done_for_a_player_needs_a_reason_and_an_admin(lg):
    rnd = _three_done(lg)
    with pytest.raises(DomainError):
        phase_done_mark_for(player=lg.d, by=lg.admin, reason="")
    with pytest.raises(PermissionDenied):
        phase_done_mark_for(player=lg.d, by=lg.a.user, reason="me")
    with pytest.raises(Conflict):
        phase_done_mark_for(player=lg.d, by=lg.admin, reason="x", phase="lists")
    assert not PhaseDone.objects.filter(player=lg.d).exists() and _phase(rnd) == "declare"


def test_r_rnd_2_marking_the_last_player_away_advances_at_once(lg):
    rnd = _three_done(lg)
    today = campaign_day(lg.campaign, timezone.now())
    absence, advanced = absence_mark_for(player=lg.d, by=lg.admin, reason="In hospital",
                                         starts_on=today, ends_on=today)
    assert advanced and _phase(rnd) != "declare"
    assert AdminAction.objects.get(kind="absence.create").reason == "In hospital"


def test_r_rnd_2_the_organisers_settled_dispute_on_the_manage_page_advances_at_once(lg):
    battle = _disputed(lg)
    response = client_for(lg.admin).post(
        f"/campaigns/{lg.campaign.pk}/manage/battles/{battle.pk}/result/",
        {f"b{battle.pk}-outcome": "victory", f"b{battle.pk}-attacker_vp": 5,
         f"b{battle.pk}-defender_vp": 1})
    assert response.status_code == 302
    assert _phase(battle.round) == "conquest"
    assert AdminAction.objects.filter(kind="dispute.settle").exists()


def test_r_rnd_2_the_organisers_correction_in_the_api_advances_at_once(lg):
    battle = _disputed(lg)
    response = api(lg.admin).post(lg.url(f"battles/{battle.pk}/result/correct/"),
                                  {"outcome": "draw", "attacker_vp": 3, "defender_vp": 3,
                                   "reason": "Both agreed on a draw"}, format="json")
    assert response.status_code == 200, response.content
    assert _phase(battle.round) != "battles"  # a draw wins nothing: conquest is ready too


def test_r_rnd_2_an_away_player_marked_on_the_campaign_page_counts_at_once(lg):
    """The player's own absence (campaign home) re-checks at once too."""
    rnd = _three_done(lg)
    today = campaign_day(lg.campaign, timezone.now()).isoformat()
    response = client_for(lg.d.user).post(f"/campaigns/{lg.campaign.pk}/absences/",
                                          {"starts_on": today, "ends_on": today})
    assert response.status_code == 302
    assert _phase(rnd) != "declare"


def test_r_rnd_2_the_done_page_action_advances_at_once(lg):
    rnd = _three_done(lg)
    response = client_for(lg.admin).post(
        f"/campaigns/{lg.campaign.pk}/manage/members/players/{lg.d.pk}/corrections/done/",
        {"done-reason": "Said so in the chat"})
    assert response.status_code == 302
    assert _phase(rnd) != "declare"


def test_r_rnd_2_the_away_api_advances_at_once(lg):
    rnd = _three_done(lg)
    today = campaign_day(lg.campaign, timezone.now()).isoformat()
    response = api(lg.admin).post(lg.url(f"players/{lg.d.pk}/away/"),
                                  {"starts_on": today, "ends_on": today, "reason": "Ill"},
                                  format="json")
    assert response.status_code == 201, response.content
    assert _phase(rnd) != "declare"
