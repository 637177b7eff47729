"""The organiser's corrections of what a player spent and of results (R-SEC-2): requisition
and attack armies (R-ECO-1, R-ATK-1), a declaration cancelled for the player (R-ATK-5
[reading]), a result voided or corrected (R-BAT-4). Each needs a reason, is refused while an
automatic phase runs and is recorded in the audit log."""

import pytest
from django.core.exceptions import PermissionDenied

from battles.models import Battle
from battles.services.attacks import attack_declare, attack_withdraw
from battles.services.corrections import armies_unused, attack_cancel, player_armies_adjust
from battles.services.results import (
    battle_result_correct,
    battle_result_enter,
    battle_result_void,
)
from campaigns.errors import Conflict, DomainError, RuleViolation
from campaigns.models import AdminAction, Attack, Purchase, Round
from tests.worlds import advance_to, chain, declare, duel, row, tile


def _world(lg):
    """Anna owns (0, 0) and bought one army; ben owns (1, 0) and (2, 0)."""
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    targets = [tile(alpha, 1, 0, lg.b), tile(alpha, 0, 1, lg.b)]
    rnd = lg.start()
    return rnd, targets


def _automatic(rnd: Round) -> None:
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.FLEETS)


def test_r_atk_1_restoring_a_withdrawn_army_lets_the_player_declare_again(lg):
    rnd, (first, second) = _world(lg)
    attack = declare(lg.a, rnd, first)
    attack_withdraw(player=lg.a, attack=attack)  # R-ATK-5: the army is spent
    with pytest.raises(RuleViolation):
        attack_declare(player=lg.a, round=rnd, tile=second)
    values = player_armies_adjust(player=lg.a, by=lg.admin, armies=1,
                                  reason="Tapped withdraw by mistake")
    assert values["armies"] == 1 and armies_unused(rnd, lg.a) == 1
    assert Purchase.objects.get(player=lg.a, kind=Purchase.Kind.GRANT).cost == 0
    attack_declare(player=lg.a, round=rnd, tile=second)
    entry = AdminAction.objects.get(kind="player.armies")
    assert entry.actor == lg.admin and entry.reason == "Tapped withdraw by mistake"
    assert entry.before == {"armies": 0} and entry.after == {"armies": 1}
    assert entry.public is False  # R-SEC-2: armies and requisition are the player's own


def test_r_eco_1_requisition_and_armies_taken_back(lg):
    rnd, _targets = _world(lg)
    Purchase.objects.create(round=rnd, player=lg.a, attack_armies=3, cost=3)
    values = player_armies_adjust(player=lg.a, by=lg.admin, requisition=4, armies=1,
                                  reason="Bought three instead of one")
    lg.a.refresh_from_db()
    assert values == {"requisition": 4, "armies": 1} and lg.a.requisition == 4
    assert Purchase.objects.filter(player=lg.a, kind="grant").get().attack_armies == -2


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_r_sec_2_a_correction_without_a_reason_is_refused(lg, reason):
    _world(lg)
    with pytest.raises(DomainError) as refused:
        player_armies_adjust(player=lg.a, by=lg.admin, requisition=3, reason=reason)
    assert refused.value.field == "reason" and refused.value.code == "reason_required"
    assert not AdminAction.objects.filter(kind="player.armies").exists()


def test_r_rnd_2_corrections_wait_while_the_fleets_phase_runs(lg):
    rnd, _targets = _world(lg)
    _automatic(rnd)
    with pytest.raises(Conflict) as refused:
        player_armies_adjust(player=lg.a, by=lg.admin, requisition=3, reason="why")
    assert refused.value.code == "automatic_phase"


def test_r_eco_1_armies_are_corrected_in_declare_only(lg):
    battle = duel(lg, "lists")
    with pytest.raises(Conflict) as refused:
        player_armies_adjust(player=lg.a, by=lg.admin, armies=2, reason="late")
    assert refused.value.field == "armies"
    values = player_armies_adjust(player=lg.a, by=lg.admin, requisition=7, reason="fix")
    assert values["requisition"] == 7 and battle.round.phase == "lists"


def test_r_eco_1_bad_values_name_their_field(lg):
    _world(lg)
    with pytest.raises(DomainError) as refused:
        player_armies_adjust(player=lg.a, by=lg.admin, armies=-1, reason="x")
    assert refused.value.field == "armies"


def test_r_sec_2_only_a_campaign_admin_corrects(lg):
    _world(lg)
    with pytest.raises(PermissionDenied):
        player_armies_adjust(player=lg.a, by=lg.b.user, requisition=50, reason="mine")


def test_r_atk_5_the_organisers_cancel_gives_the_army_back(lg):
    rnd, (first, second) = _world(lg)
    attack = declare(lg.a, rnd, first)
    assert armies_unused(rnd, lg.a) == 0
    cancelled = attack_cancel(attack=attack, by=lg.admin, reason="Wrong tile tapped")
    assert cancelled.status == Attack.Status.CANCELLED
    assert armies_unused(rnd, lg.a) == 1  # [reading R-ATK-5]
    attack_declare(player=lg.a, round=rnd, tile=second)
    entry = AdminAction.objects.get(kind="attack.cancel")
    assert entry.reason == "Wrong tile tapped" and not entry.public
    with pytest.raises(Conflict):  # only a standing declaration
        attack_cancel(attack=attack, by=lg.admin, reason="again")


def test_r_atk_5_cancel_only_in_declare(lg):
    battle = duel(lg, "lists")
    with pytest.raises(Conflict) as refused:
        attack_cancel(attack=battle.attack, by=lg.admin, reason="too late")
    assert refused.value.code == "wrong_phase"


# --- results (R-BAT-4) ----------------------------------------------------------------------

def _confirmed(lg, phase="battles") -> Battle:
    battle = duel(lg, "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="victory",
                        attacker_vp=12, defender_vp=4)
    if phase != "battles":
        advance_to(battle.round, phase)
    return Battle.objects.get(pk=battle.pk)


def test_r_bat_4_void_reopens_the_battle_and_keeps_the_history(lg):
    battle = _confirmed(lg)
    voided = battle_result_void(battle=battle, by_admin_user=lg.admin,
                                reason="Reported for the wrong battle")
    assert voided.status == Battle.Status.OPEN and voided.result_status == ""
    assert voided.outcome == "" and voided.confirmed_at is None
    last = voided.history.order_by("-id").first()
    assert last.old["outcome"] == "victory" and last.new["status"] == "void"
    entry = AdminAction.objects.get(kind="result.void")
    assert entry.public and entry.reason == "Reported for the wrong battle"
    assert entry.before["attacker_vp"] == 12 and entry.after is None


def test_r_bat_4_void_is_refused_once_conquest_depends_on_it(lg):
    battle = _confirmed(lg, "conquest")
    with pytest.raises(Conflict) as refused:
        battle_result_void(battle=battle, by_admin_user=lg.admin, reason="late")
    assert refused.value.code == "wrong_phase"


def test_r_con_6_void_is_refused_once_the_chain_went_on(lg):
    first = chain(lg)[0]
    battle_result_enter(battle=first, by_admin_user=lg.admin, outcome="defeat",
                        attacker_vp=1, defender_vp=9)  # the next link's defender is settled
    with pytest.raises(Conflict) as refused:
        battle_result_void(battle=Battle.objects.get(pk=first.pk), by_admin_user=lg.admin,
                           reason="x")
    assert refused.value.code == "result_locked"


def test_r_bat_4_void_needs_a_result_and_a_reason(lg):
    battle = duel(lg, "battles")
    with pytest.raises(DomainError) as no_reason:
        battle_result_void(battle=battle, by_admin_user=lg.admin, reason=" ")
    assert no_reason.value.field == "reason"
    with pytest.raises(Conflict) as no_result:
        battle_result_void(battle=battle, by_admin_user=lg.admin, reason="x")
    assert no_result.value.code == "no_result"


def test_r_bat_4_a_correction_records_its_reason(lg):
    battle = _confirmed(lg)
    battle_result_correct(battle=battle, by_admin_user=lg.admin, outcome="draw",
                          attacker_vp=8, defender_vp=8, reason="Scores swapped")
    entry = AdminAction.objects.get(kind="result.correct")
    assert entry.reason == "Scores swapped" and entry.after["outcome"] == "draw"
    assert battle.history.order_by("-id").first().new["reason"] == "Scores swapped"
    with pytest.raises(DomainError):
        battle_result_correct(battle=battle, by_admin_user=lg.admin, outcome="draw",
                              attacker_vp=8, defender_vp=8, reason="")
