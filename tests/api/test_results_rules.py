"""R-BAT-3 through the API: a result whose outcome the victory points do not allow (a moral
victory without the attacker ahead on points) is a 400 in the API's error shape naming the
rule and the field, on every path that writes a result - a player's report, the opponent's
confirmation, the admin's entry and correction - and nothing is written."""

import pytest

from battles.models import Battle, ResultChange
from tests.worlds import api, duel

pytestmark = pytest.mark.django_db
BEHIND = {"outcome": "moral_victory", "attacker_vp": 7, "defender_vp": 7}


def result(lg, battle, user, action: str = "", body=None):
    path = f"battles/{battle.pk}/result/" + (f"{action}/" if action else "")
    return api(user).post(lg.url(path), body if body is not None else {}, format="json")


def assert_r_bat_3(response) -> None:
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-BAT-3" and body["detail"].startswith("R-BAT-3:")
    assert "attacker ahead on points" in body["detail"]
    assert set(body) == {"detail", "code", "errors"} and list(body["errors"]) == ["outcome"]


def test_r_bat_3_every_result_path_refuses_a_moral_victory_behind_on_points(lg):
    battle = duel(lg, "battles")
    assert_r_bat_3(result(lg, battle, lg.a.user, body=BEHIND))  # report
    assert_r_bat_3(result(lg, battle, lg.admin, body=BEHIND))  # admin entry
    assert not ResultChange.objects.filter(battle=battle).exists()
    # a report written before the check existed: confirming it is refused
    Battle.objects.filter(pk=battle.pk).update(result_status="reported",
                                               reported_by=lg.a.user, **BEHIND)
    assert_r_bat_3(result(lg, battle, lg.b.user, "confirm"))
    assert Battle.objects.get(pk=battle.pk).result_status == "reported"
    # the admin settles it, and may not correct it into the contradiction again
    ahead = {**BEHIND, "attacker_vp": 8}
    assert result(lg, battle, lg.admin, body=ahead).status_code == 200
    assert_r_bat_3(result(lg, battle, lg.admin, body={**ahead, "defender_vp": 8}))
    fresh = Battle.objects.get(pk=battle.pk)
    assert (fresh.outcome, fresh.attacker_vp, fresh.defender_vp, fresh.result_status) == (
        "moral_victory", 8, 7, "confirmed")
