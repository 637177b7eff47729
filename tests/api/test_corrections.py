"""API of the organiser's corrections (R-SEC-2): refusals in the API's error shape (missing
reason 400 naming ``reason``, a player 403, an outsider 404, an automatic phase 409, bad
values 400) and the reason in the audit log."""

import pytest

from campaigns.models import AdminAction, Round
from tests.worlds import api, declare, duel, row, tile


def _declaring(lg):
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    return rnd, declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))


def test_r_sec_2_missing_reason_is_400_naming_the_field(lg):
    _declaring(lg)
    response = api(lg.admin).post(lg.url(f"players/{lg.a.pk}/armies/"), {"armies": 2},
                                  format="json")
    assert response.status_code == 400
    assert "reason" in response.json()["errors"]


@pytest.mark.parametrize("who,status", [("player", 403), ("outsider", 404), (None, 401)])
def test_r_sec_2_only_the_campaign_admin_corrects(lg, outsider, who, status):
    _declaring(lg)
    user = {"player": lg.b.user, "outsider": outsider, None: None}[who]
    response = api(user).post(lg.url(f"players/{lg.a.pk}/armies/"),
                              {"armies": 2, "reason": "x"}, format="json")
    assert response.status_code == status


def test_r_rnd_2_automatic_phase_is_409(lg):
    rnd, _attack = _declaring(lg)
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.FLEETS)
    response = api(lg.admin).post(lg.url(f"players/{lg.a.pk}/armies/"),
                                  {"requisition": 2, "reason": "x"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "automatic_phase"


def test_r_eco_1_bad_values_are_400(lg):
    _declaring(lg)
    response = api(lg.admin).post(lg.url(f"players/{lg.a.pk}/armies/"),
                                  {"armies": -3, "reason": "x"}, format="json")
    assert response.status_code == 400 and "armies" in response.json()["errors"]


def test_r_atk_5_cancel_for_the_player_and_the_audit_log_shows_the_reason(lg):
    rnd, attack = _declaring(lg)
    client = api(lg.admin)
    response = client.post(lg.url(f"rounds/{rnd.number}/attacks/{attack.pk}/cancel/"),
                           {"reason": "Wrong tile"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    armies = client.post(lg.url(f"players/{lg.a.pk}/armies/"), {"reason": "check"},
                         format="json")
    assert armies.status_code == 400  # nothing to change
    log = client.get(lg.url("audit-log/")).json()
    entry = next(e for e in log["results"] if e["kind"] == "attack.cancel")
    assert entry["reason"] == "Wrong tile" and entry["public"] is False


def test_r_bat_4_void_in_the_api(lg):
    battle = duel(lg, "battles")
    lg.set_rules(early_advance=False)  # the entered result would end the phase at once
    client = api(lg.admin)
    client.post(lg.url(f"battles/{battle.pk}/result/"),
                {"outcome": "victory", "attacker_vp": 5, "defender_vp": 1}, format="json")
    response = client.post(lg.url(f"battles/{battle.pk}/result/void/"),
                           {"reason": "Wrong battle"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "open"
    again = client.post(lg.url(f"battles/{battle.pk}/result/void/"), {"reason": "x"},
                        format="json")
    assert again.status_code == 409
    assert AdminAction.objects.get(kind="result.void").reason == "Wrong battle"


def test_r_rnd_2_done_for_a_player_in_the_api(lg):
    lg.start()
    response = api(lg.admin).post(lg.url(f"players/{lg.a.pk}/done/"), {"reason": "phone"},
                                  format="json")
    assert response.status_code == 200
    assert response.json() == {"created": True, "advanced": False}
