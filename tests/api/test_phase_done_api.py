"""Early advance in the API: ``/campaigns/{id}/rounds/current/done/`` (R-RND-2 [reading])
and the early advance after a player's input."""

import pytest
from django.utils import timezone

from battles.models import Battle
from campaigns.models import Campaign, PhaseDone
from tests.worlds import api, duel

DONE = "rounds/current/done/"
LIST = {"name": "List", "entries": [{"name": "Unit", "points": 500}]}


@pytest.fixture
def rnd(lg):
    return lg.start()


def test_mark_answers_the_readiness_state(lg, rnd):
    first = api(lg.a.user).post(lg.url(DONE), {"phase": "declare"}, format="json")
    assert first.status_code == 201
    assert first.json() == {"phase": "declare", "early_advance": True, "done": True,
                            "ready": 1, "players": 4, "waiting_for": 3, "advanced": False}
    again = api(lg.a.user).post(lg.url(DONE), {}, format="json")
    assert again.status_code == 200 and again.json()["ready"] == 1
    seen = api(lg.b.user).get(lg.url(DONE)).json()
    assert seen["done"] is False and seen["ready"] == 1
    assert api(lg.admin).get(lg.url(DONE)).json()["waiting_for"] == 3


def test_the_last_mark_advances_the_phase(lg, rnd):
    for player in lg.players[:3]:
        assert api(player.user).post(lg.url(DONE), {}, format="json").status_code == 201
    last = api(lg.d.user).post(lg.url(DONE), {"phase": "declare"}, format="json").json()
    assert last["advanced"] is True and last["phase"] in ("fleets", "lists")
    rnd.refresh_from_db()
    assert rnd.phase != "declare"


def test_delete_takes_the_mark_back(lg, rnd):
    api(lg.a.user).post(lg.url(DONE), {}, format="json")
    answer = api(lg.a.user).delete(lg.url(DONE) + "?phase=declare")
    assert answer.status_code == 200 and answer.json()["done"] is False
    assert not PhaseDone.objects.filter(round=rnd).exists()


def test_a_mark_for_a_phase_that_moved_on_is_409(lg, rnd):
    answer = api(lg.a.user).post(lg.url(DONE), {"phase": "lists"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "phase_over"
    assert answer.json()["errors"] == {"phase": [answer.json()["detail"]]}


def test_refusals(lg, rnd):
    assert api(lg.a.user).post(lg.url(DONE), {"phase": "fleets"},
                               format="json").status_code == 400
    assert api(lg.admin).post(lg.url(DONE), {}, format="json").status_code == 403
    assert api().post(lg.url(DONE), {}, format="json").status_code == 401
    Campaign.objects.filter(pk=lg.campaign.pk).update(paused_at=timezone.now(),
                                                      pause_reason="Christmas break")
    paused = api(lg.a.user).post(lg.url(DONE), {}, format="json")
    assert paused.status_code == 409 and paused.json()["code"] == "campaign_paused"
    assert "Christmas break" in paused.json()["detail"]


def test_early_advance_off_is_409_and_shown(lg, rnd):
    lg.set_rules(early_advance=False)
    answer = api(lg.a.user).post(lg.url(DONE), {}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "early_advance_off"
    assert api(lg.a.user).get(lg.url(DONE)).json()["early_advance"] is False


def test_before_the_campaign_starts_is_409(lg):
    assert api(lg.a.user).post(lg.url(DONE), {}, format="json").status_code == 409
    assert api(lg.a.user).get(lg.url(DONE)).status_code == 409


def test_the_last_list_advances_the_lists_phase_at_once(lg):
    """Inputs made elsewhere complete the phase in the same request (R-ARM-3: revealed)."""
    battle = duel(lg, "lists")
    url = lg.url(f"battles/{battle.pk}/army-list/")
    assert api(lg.a.user).post(url, LIST, format="json").status_code == 201
    battle.round.refresh_from_db()
    assert battle.round.phase == "lists"
    assert api(lg.b.user).post(url, LIST, format="json").status_code == 201
    battle.round.refresh_from_db()
    assert battle.round.phase == "battles"
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is not None


def test_confirming_the_last_result_advances_the_battles_phase(lg):
    battle = duel(lg, "battles")
    win = {"outcome": "victory", "attacker_vp": 5, "defender_vp": 1}
    url = lg.url(f"battles/{battle.pk}/result/")
    assert api(lg.a.user).post(url, win, format="json").status_code == 200
    battle.round.refresh_from_db()
    assert battle.round.phase == "battles"  # ben still owes the confirmation
    assert api(lg.b.user).post(url + "confirm/", format="json").status_code == 200
    battle.round.refresh_from_db()
    assert battle.round.phase == "conquest"


def test_the_conquest_choice_advances_the_conquest_phase(lg):
    battle = duel(lg, "battles")
    win = {"outcome": "victory", "attacker_vp": 5, "defender_vp": 1}
    api(lg.a.user).post(lg.url(f"battles/{battle.pk}/result/"), win, format="json")
    api(lg.b.user).post(lg.url(f"battles/{battle.pk}/result/confirm/"), format="json")
    battle.round.refresh_from_db()
    assert battle.round.phase == "conquest"
    answer = api(lg.a.user).post(lg.url(f"rounds/{battle.round.number}/conquest/"),
                                 {"roll": [battle.attack_id]}, format="json")
    assert answer.status_code == 200
    battle.round.refresh_from_db()
    assert battle.round.phase == "closed"
