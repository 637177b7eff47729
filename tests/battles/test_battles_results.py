"""Results entered and corrected by the campaign admin (R-BAT-3, R-BAT-4, R-SEC-2)."""

import pytest

from battles.models import Battle, ResultChange
from battles.services.results import battle_result_enter
from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Round
from tests.factories import BattleFactory, CampaignFactory, UserFactory
from tests.worlds import advance_to, api, declare, row, tile

pytestmark = pytest.mark.django_db
VICTORY = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}


@pytest.fixture
def fought(lg):
    """Anna attacked ben's tile; the round is in ``battles``."""
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, lg.b))
    advance_to(attack.round, "battles")
    return Battle.objects.get(attack=attack)


def result_url(lg, battle):
    return lg.url(f"battles/{battle.pk}/result/")


def test_r_bat_3_admin_enters_a_result_confirmed_at_once(lg, fought):
    response = api(lg.admin).post(result_url(lg, fought), VICTORY, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["result"] == {**VICTORY, "status": "confirmed"}
    assert body["status"] == "done"
    (entry,) = body["history"]
    assert entry["by"] == "orga" and entry["old"] is None
    assert entry["new"] == {**VICTORY, "status": "confirmed"}
    fought.refresh_from_db()
    assert fought.won and fought.reported_by == lg.admin and fought.confirmed_at


def test_r_bat_4_a_correction_is_kept_in_the_history(lg, fought):
    battle_result_enter(battle=fought, by_admin_user=lg.admin, **VICTORY)
    corrected = {"outcome": "draw", "attacker_vp": 8, "defender_vp": 8}
    body = api(lg.admin).post(result_url(lg, fought), corrected, format="json").json()
    assert body["result"] == {**corrected, "status": "confirmed"}
    assert [(h["old"], h["new"]) for h in body["history"]] == [
        (None, {**VICTORY, "status": "confirmed"}),
        ({**VICTORY, "status": "confirmed"}, {**corrected, "status": "confirmed"})]
    # the same result again is no change: nothing is appended
    battle_result_enter(battle=fought, by_admin_user=lg.admin, **corrected)
    assert ResultChange.objects.filter(battle=fought).count() == 2


def test_r_bat_3_a_participant_reports_others_may_not(lg, fought):
    response = api(lg.a.user).post(result_url(lg, fought), VICTORY, format="json")
    assert response.status_code == 200
    assert response.json()["result"] == {**VICTORY, "status": "reported"}
    assert api(lg.c.user).post(result_url(lg, fought), VICTORY, format="json").status_code == 403
    assert Battle.objects.get(pk=fought.pk).result_status == "reported"


def test_result_permissions_hide_other_campaigns(lg, fought):
    url = result_url(lg, fought)
    assert api().post(url, VICTORY, format="json").status_code == 401
    assert api(UserFactory()).post(url, VICTORY, format="json").status_code == 404
    other = CampaignFactory()
    other.admins.add(lg.admin)
    foreign = f"/api/v1/campaigns/{other.pk}/battles/{fought.pk}/result/"
    assert api(lg.admin).post(foreign, VICTORY, format="json").status_code == 404
    with pytest.raises(Exception, match="campaign admin"):
        battle_result_enter(battle=fought, by_admin_user=lg.a.user, **VICTORY)


@pytest.mark.parametrize("payload", [
    {**VICTORY, "outcome": "win"}, {**VICTORY, "attacker_vp": -1},
    {**VICTORY, "defender_vp": "x"}, {**VICTORY, "attacker_vp": 10**12},
    {"outcome": "draw"}, {**VICTORY, "attacker_vp": True}, [],
])
def test_r_bat_3_malformed_results_are_400(lg, fought, payload):
    response = api(lg.admin).post(result_url(lg, fought), payload, format="json")
    assert response.status_code == 400
    assert not ResultChange.objects.exists()


def test_r_bat_3_no_result_before_the_battles_phase(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, lg.b))
    advance_to(attack.round, "lists")
    battle = Battle.objects.get(attack=attack)
    response = api(lg.admin).post(result_url(lg, battle), {"outcome": "??"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"


def test_r_atk_5_a_pending_chain_link_takes_no_result(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0, lg.d)
    tile(alpha, 1, 0, lg.a)
    tile(alpha, -1, 0, lg.b)
    rnd = lg.start()
    declare(lg.a, rnd, target)
    second = declare(lg.b, rnd, target)
    advance_to(rnd, "battles")
    pending = Battle.objects.get(attack=second)
    response = api(lg.admin).post(result_url(lg, pending), VICTORY, format="json")
    assert response.status_code == 409 and response.json()["code"] == "battle_pending"


def test_r_sec_2_after_battles_only_corrections_that_keep_won_or_lost(lg, fought):
    battle_result_enter(battle=fought, by_admin_user=lg.admin, **VICTORY)
    Round.objects.filter(pk=fought.round_id).update(phase="conquest")
    moral = {"outcome": "moral_victory", "attacker_vp": 10, "defender_vp": 6}
    assert api(lg.admin).post(result_url(lg, fought), moral, format="json").status_code == 200
    flip = api(lg.admin).post(result_url(lg, fought), {**moral, "outcome": "defeat"},
                              format="json")
    assert flip.status_code == 409 and flip.json()["code"] == "result_locked"
    assert Battle.objects.get(pk=fought.pk).outcome == "moral_victory"
    assert ResultChange.objects.filter(battle=fought).count() == 2


def test_r_sec_2_no_new_result_after_the_battles_phase(lg, fought):
    Round.objects.filter(pk=fought.round_id).update(phase="closed")
    with pytest.raises(Conflict):
        battle_result_enter(battle=fought, by_admin_user=lg.admin, **VICTORY)


def test_r_con_6_a_decided_chain_link_cannot_flip(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0, lg.d)
    tile(alpha, 1, 0, lg.a)
    tile(alpha, -1, 0, lg.b)
    rnd = lg.start()
    first = declare(lg.a, rnd, target)
    declare(lg.b, rnd, target)
    advance_to(rnd, "battles")
    link = Battle.objects.get(attack=first)
    battle_result_enter(battle=link, by_admin_user=lg.admin, **VICTORY)
    Battle.objects.filter(pk=link.pk).update(chain_decision="waive")
    with pytest.raises(Conflict) as exc:
        battle_result_enter(battle=link, by_admin_user=lg.admin, outcome="defeat",
                            attacker_vp=0, defender_vp=9)
    assert exc.value.code == "result_locked"
    battle_result_enter(battle=link, by_admin_user=lg.admin, outcome="victory", attacker_vp=15,
                        defender_vp=2)  # victory points still change
    assert Battle.objects.get(pk=link.pk).attacker_vp == 15


def test_battle_factory_builds_a_consistent_battle(lg):
    battle = BattleFactory(attack__round__campaign=lg.campaign, attack__player=lg.a)
    assert battle.campaign == lg.campaign == battle.round.campaign
    assert battle.tile.campaign == lg.campaign and battle.attacker == lg.a


def test_r_con_6_a_lost_link_settles_the_next_one(lg):
    alpha = lg.planet()
    target = tile(alpha, 0, 0, lg.d)
    tile(alpha, 1, 0, lg.a)
    row(alpha, lg.b, (-1, -2))
    rnd = lg.start()
    first = declare(lg.a, rnd, target)
    second = declare(lg.b, rnd, target)
    advance_to(rnd, "battles")
    battle_result_enter(battle=Battle.objects.get(attack=first), by_admin_user=lg.admin,
                        outcome="defeat", attacker_vp=0, defender_vp=10)
    nxt = Battle.objects.get(attack=second)
    assert (nxt.status, nxt.defender_id) == ("open", lg.d.pk)  # dora held the tile
    assert nxt.point_limits == {str(lg.b.pk): 1500, str(lg.d.pk): 1550}  # R-BON-3 now


# --- R-BAT-3: a moral victory needs the attacker ahead on points ------------------------------

@pytest.mark.parametrize(("attacker_vp", "defender_vp"), [(6, 6), (4, 9), (0, 0)])
def test_r_bat_3_the_admin_may_not_enter_a_moral_victory_without_the_lead(lg, fought,
                                                                          attacker_vp,
                                                                          defender_vp):
    moral = {"outcome": "moral_victory", "attacker_vp": attacker_vp, "defender_vp": defender_vp}
    with pytest.raises(RuleViolation) as refused:
        battle_result_enter(battle=fought, by_admin_user=lg.admin, **moral)
    assert refused.value.code == "R-BAT-3" and refused.value.field == "outcome"
    response = api(lg.admin).post(result_url(lg, fought), moral, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-BAT-3" and "R-BAT-3" in body["detail"]
    assert "outcome" in body["errors"]
    assert Battle.objects.get(pk=fought.pk).result_status == ""
    assert not ResultChange.objects.exists()
    ahead = {**moral, "attacker_vp": defender_vp + 1}
    assert api(lg.admin).post(result_url(lg, fought), ahead, format="json").status_code == 200


def test_r_bat_3_a_correction_may_not_leave_a_moral_victory_behind_on_points(lg, fought):
    moral = {"outcome": "moral_victory", "attacker_vp": 10, "defender_vp": 6}
    battle_result_enter(battle=fought, by_admin_user=lg.admin, **moral)
    for phase in ("battles", "conquest"):  # in battles, and after it (only corrections)
        Round.objects.filter(pk=fought.round_id).update(phase=phase)
        for vp in ({"attacker_vp": 6}, {"defender_vp": 11}):  # points only, outcome kept
            response = api(lg.admin).post(result_url(lg, fought), {**moral, **vp},
                                          format="json")
            assert response.status_code == 400 and response.json()["code"] == "R-BAT-3"
        turned = {"outcome": "moral_victory", "attacker_vp": 2, "defender_vp": 9}
        assert api(lg.admin).post(result_url(lg, fought), turned,
                                  format="json").status_code == 400
    fresh = Battle.objects.get(pk=fought.pk)
    assert (fresh.outcome, fresh.attacker_vp, fresh.defender_vp) == ("moral_victory", 10, 6)
    assert ResultChange.objects.filter(battle=fought).count() == 1
