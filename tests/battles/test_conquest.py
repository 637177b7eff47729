"""The conquest phase and chained attacks (R-CON-1..7, R-ATK-5, R-RND-3)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import Battle, ConquestChoice, ConquestRoll
from battles.services.chains import chain_decide, chain_decisions_default_overdue
from battles.services.results import battle_result_enter
from campaigns.errors import Conflict
from campaigns.models import DiceRoll, Round, Tile
from league.services.rounds import round_advance
from rules.dice import stream_faces
from tests.worlds import advance_to, api, declare, row, tile

pytestmark = pytest.mark.django_db
WIN = {"outcome": "victory", "attacker_vp": 10, "defender_vp": 2}
LOSS = {"outcome": "defeat", "attacker_vp": 2, "defender_vp": 10}


def result(lg, battle, values):
    return battle_result_enter(battle=battle, by_admin_user=lg.admin, **values)


def expected_faces(rnd: Round, counter: int, purpose: str) -> list[int]:
    return stream_faces(bytes(rnd.server_seed), rnd.campaign_id, rnd.number, purpose, counter, 2)


@pytest.fixture
def two_wins(lg):
    """Anna (with a spaceport) won two attacks on planet Alpha, ben one; conquest phase."""
    alpha = lg.planet("Alpha")
    tile(alpha, 0, 0, lg.a, ("spaceport",))
    tile(alpha, 1, 0, lg.a)
    targets = [tile(alpha, 2, 0, lg.c), tile(alpha, 3, 0, lg.c, ("mountain",))]
    row(alpha, lg.b, (5,))
    ben_target = tile(alpha, 4, 0, lg.c, ("defence",))
    rnd = lg.start()
    attacks = [declare(lg.a, rnd, targets[0], armies=2), declare(lg.a, rnd, targets[1], armies=0),
               declare(lg.b, rnd, ben_target)]
    advance_to(rnd, "battles")
    for attack in attacks:
        result(lg, Battle.objects.get(attack=attack), WIN)
    advance_to(rnd, "conquest")
    return rnd, attacks, targets, ben_target


def test_r_con_7_items_show_threshold_modifiers_and_exact_chance(lg, two_wins):
    rnd, attacks, targets, _ = two_wins
    body = api(lg.a.user).get(lg.url("rounds/1/conquest/")).json()
    assert body["choice"] is None and body["resolved"] is False and body["rolls"] == []
    items = {item["attack"]: item for item in body["items"]}
    assert set(items) == {attacks[0].pk, attacks[1].pk}  # only own won attacks
    first, second = items[attacks[0].pk], items[attacks[1].pk]
    assert first["threshold"] == 3  # adjacent to anna's (1,0)
    # R-CON-4: rolling both on one planet gives -1 each
    assert first["modifiers"] == [{"rule": "R-CON-4", "name": "multi_conquest", "value": -1}]
    assert first["chance"] == pytest.approx(33 / 36)  # 2d6 - 1 >= 3 fails only on 2 and 3
    assert second["threshold"] == 7
    assert {m["name"] for m in second["modifiers"]} == {"terrain", "multi_conquest"}
    assert second["chance"] == pytest.approx(6 / 36)  # 2d6 - 3 >= 7: 10, 11, 12
    preview = api(lg.a.user).get(lg.url(f"rounds/1/conquest/?roll={attacks[0].pk}")).json()
    only = {i["attack"]: i for i in preview["items"]}[attacks[0].pk]
    assert only["modifiers"] == [] and only["chance"] == pytest.approx(35 / 36)
    assert api(lg.a.user).get(lg.url("rounds/1/conquest/?roll=x")).status_code == 400


def test_r_con_4_sealed_choices_roll_when_all_have_chosen(lg, two_wins):
    rnd, attacks, targets, ben_target = two_wins
    url = lg.url("rounds/1/conquest/")
    first = api(lg.a.user).post(url, {"roll": [attacks[0].pk]}, format="json")
    assert first.status_code == 200
    assert first.json() == {"choice": [attacks[0].pk], "resolved": False, "rolls": []}
    assert api(lg.a.user).post(url, {"roll": []}, format="json").status_code == 409
    done = api(lg.b.user).post(url, {"roll": [attacks[2].pk]}, format="json").json()
    assert done["resolved"] is True
    (ben_roll,) = done["rolls"]
    rnd.refresh_from_db()
    rolls = list(ConquestRoll.objects.filter(round=rnd).order_by("counter"))
    assert [r.attack_id for r in rolls] == [attacks[0].pk, attacks[2].pk]  # declaration order
    for r in rolls:
        assert r.dice == expected_faces(rnd, r.counter, f"conquest:attack={r.attack_id}")
        assert DiceRoll.objects.get(round=rnd, counter=r.counter).faces == r.dice
    anna_roll = rolls[0]
    assert anna_roll.modifiers == [] and anna_roll.total == sum(anna_roll.dice)
    assert anna_roll.success == (anna_roll.total >= 3)
    assert ben_roll["modifiers"] == [{"rule": "R-CON-3", "name": "defence", "value": -1}]
    assert ben_roll["total"] == sum(ben_roll["dice"]) - 1
    owner = Tile.objects.get(pk=targets[0].pk).owner_id
    assert owner == (lg.a.pk if anna_roll.success else lg.c.pk)
    assert Tile.objects.get(pk=targets[1].pk).owner_id == lg.c.pk  # waived (R-CON-5)


def test_r_con_4_refuses_foreign_attacks_and_wrong_phase(lg, two_wins):
    rnd, attacks, _, _ = two_wins
    url = lg.url("rounds/1/conquest/")
    stray = api(lg.a.user).post(url, {"roll": [attacks[2].pk]}, format="json")
    assert stray.status_code == 400 and stray.json()["code"] == "R-CON-4"
    nobody = api(lg.d.user).post(url, {"roll": []}, format="json")
    assert nobody.status_code == 400 and nobody.json()["code"] == "R-CON-4"
    assert api(lg.a.user).post(url, {"roll": "x"}, format="json").status_code == 400
    assert api(lg.admin).post(url, {"roll": []}, format="json").status_code == 403
    assert api().get(url).status_code in (401, 404)


def test_r_rnd_3_conquest_deadline_takes_the_default(lg, two_wins):
    rnd, attacks, _, _ = two_wins
    api(lg.a.user).post(lg.url("rounds/1/conquest/"), {"roll": []}, format="json")
    round_advance(round_id=rnd.pk, expected_phase="conquest")  # ben never chose: roll_all
    rolled = set(ConquestRoll.objects.filter(round=rnd).values_list("attack_id", flat=True))
    assert rolled == {attacks[2].pk}
    assert ConquestChoice.objects.get(round=rnd, player=lg.b).defaulted


def test_r_rnd_3_waive_all_default(lg, two_wins):
    rnd, _, _, _ = two_wins
    lg.set_rules(conquest_default="waive_all")
    round_advance(round_id=rnd.pk, expected_phase="conquest")
    assert not ConquestRoll.objects.filter(round=rnd).exists()
    rnd.refresh_from_db()
    assert rnd.conquest_resolved_at is not None and rnd.phase == "closed"


@pytest.fixture
def chain(lg):
    """Three attackers on dora's tile (R-ATK-5): anna, ben, carl in that order."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    tile(alpha, 1, 1, lg.c)
    rnd = lg.start()
    attacks = [declare(p, rnd, target) for p in (lg.a, lg.b, lg.c)]
    advance_to(rnd, "battles")
    links = [Battle.objects.get(attack=a) for a in attacks]
    return rnd, target, links


def test_r_atk_5_chain_links_wait_for_the_link_before(lg, chain):
    rnd, target, links = chain
    assert [(b.chain_position, b.status, b.defender_id) for b in links] == [
        (1, "open", lg.d.pk), (2, "pending", None), (3, "pending", None)]
    result(lg, links[0], LOSS)  # anna lost: ben's link is settled at once against dora
    links[1].refresh_from_db()
    assert links[1].status == "open" and links[1].defender_id == lg.d.pk
    assert links[1].point_limits  # limits computed when settled (R-BON-3)


def test_r_con_6_chain_roll_at_once_moves_the_tile_and_settles_the_next_link(lg, chain):
    rnd, target, links = chain
    result(lg, links[0], WIN)
    links[1].refresh_from_db()
    assert links[1].status == "pending"  # anna has to decide first
    url = lg.url(f"battles/{links[0].pk}/conquest/")
    assert api(lg.b.user).post(url, {"roll": True}, format="json").status_code == 400
    response = api(lg.a.user).post(url, {"roll": True}, format="json")
    assert response.status_code == 200
    roll = response.json()
    assert roll["modifiers"] == [] and roll["threshold"] == 3  # no multi-conquest (R-CON-6)
    made = ConquestRoll.objects.get(attack=links[0].attack)
    rnd.refresh_from_db()
    assert made.immediate and made.dice == expected_faces(rnd, made.counter,
                                                          f"conquest:attack={made.attack_id}")
    holder = lg.a.pk if made.success else lg.d.pk
    assert Tile.objects.get(pk=target.pk).owner_id == holder
    links[1].refresh_from_db()
    assert links[1].status == "open" and links[1].defender_id == holder
    assert api(lg.a.user).post(url, {"roll": True}, format="json").status_code == 409


def test_r_con_6_waive_keeps_the_holder_and_last_link_rolls_in_conquest(lg, chain):
    rnd, target, links = chain
    result(lg, links[0], WIN)
    waived = api(lg.a.user).post(lg.url(f"battles/{links[0].pk}/conquest/"), {"roll": False},
                                 format="json")
    assert waived.json() == {"waived": True}
    result(lg, Battle.objects.get(pk=links[1].pk), LOSS)
    last = Battle.objects.get(pk=links[2].pk)
    assert last.defender_id == lg.d.pk
    assert api(lg.c.user).post(lg.url(f"battles/{last.pk}/conquest/"), {"roll": True},
                               format="json").status_code == 409  # last link: conquest phase
    result(lg, last, WIN)
    advance_to(rnd, "conquest")
    items = api(lg.c.user).get(lg.url("rounds/1/conquest/")).json()["items"]
    assert [i["attack"] for i in items] == [last.attack_id]


def test_r_con_6_overdue_decision_takes_the_default(lg, chain):
    rnd, target, links = chain
    result(lg, links[0], WIN)
    later = timezone.now() + timedelta(hours=49)
    assert chain_decisions_default_overdue(now=later) == 1
    links[0].refresh_from_db()
    assert links[0].chain_decision == "roll"  # conquest_default roll_all
    assert ConquestRoll.objects.filter(attack=links[0].attack, immediate=True).exists()
    assert chain_decisions_default_overdue(now=later) == 0


def test_r_rnd_3_battles_deadline_settles_the_whole_chain(lg, chain):
    rnd, target, links = chain
    round_advance(round_id=rnd.pk, expected_phase="battles")  # nothing played
    states = [(b.outcome, b.result_status, b.status, b.defender_id)
              for b in Battle.objects.filter(round=rnd).order_by("chain_position")]
    assert states == [("defeat", "confirmed", "done", lg.d.pk)] * 3  # defender_holds


def test_r_con_6_decision_only_for_a_won_confirmed_link(lg, chain):
    rnd, target, links = chain
    with pytest.raises(Conflict):
        chain_decide(battle=links[0], player=lg.a, roll=True)


# --- the battles deadline and chains (R-CON-6, R-RND-3) ----------------------------

def test_r_con_6_battles_deadline_not_extended_for_a_chain(lg, chain):
    rnd, target, links = chain
    soon = timezone.now() + timedelta(hours=1)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=soon)
    result(lg, links[0], LOSS)  # ben's link is settled now, an hour before the deadline
    links[1].refresh_from_db()
    assert links[1].status == "open" and links[1].defender_id == lg.d.pk
    rnd.refresh_from_db()
    assert rnd.phase_deadline == soon
    result(lg, links[1], WIN)
    chain_decide(battle=Battle.objects.get(pk=links[1].pk), player=lg.b, roll=False)
    rnd.refresh_from_db()
    assert Battle.objects.get(pk=links[2].pk).status == "open"
    assert rnd.phase_deadline == soon


def test_r_con_6_deadline_takes_the_defaults_link_by_link(lg, chain):
    """At the deadline anna's open decision takes conquest_default (roll_all) at once; ben's
    and carl's links, not played, take unplayed_outcome (attacker_wins) one after the other,
    each against the holder the link before left."""
    rnd, target, links = chain
    lg.set_rules(unplayed_outcome="attacker_wins")
    result(lg, links[0], WIN)  # anna won; her decision is open when the deadline passes
    round_advance(round_id=rnd.pk, expected_phase="battles")
    battles = list(Battle.objects.filter(round=rnd).order_by("chain_position"))
    rolls = list(ConquestRoll.objects.filter(round=rnd, immediate=True).order_by("counter"))
    assert [r.attack_id for r in rolls] == [links[0].attack_id, links[1].attack_id]
    holder = lg.d.pk
    for battle, roll in zip(battles[:2], rolls, strict=True):
        assert battle.defender_id == holder and battle.chain_decision == "roll"
        assert roll.k is None and roll.threshold_rule == "R-CON-1"
        holder = battle.attacker_id if roll.success else holder
    assert [(b.outcome, b.result_status) for b in battles] == [("victory", "confirmed")] * 3
    assert "R-RND-3" in battles[1].history.last().new["reason"]
    assert battles[2].defender_id == holder and battles[2].chain_decision == ""
    assert Tile.objects.get(pk=target.pk).owner_id == holder
    rnd.refresh_from_db()
    assert rnd.phase == "conquest"  # carl's last link rolls there


def test_r_atk_4_a_link_the_deadline_settled_neutral_keeps_its_won_attack(lg):
    """Speed (battles_close reads again only links after the first): anna and ben chain on
    a neutral tile. At the deadline anna's open decision is waived (conquest_default), so the
    tile stays neutral and ben's link, settled then, is a won attack without a battle
    (R-ATK-4); the deadline must judge that link as it now stands, not as it was loaded
    (pending, which would give it the unplayed outcome, R-RND-3)."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    lg.set_rules(conquest_default="waive_all", unplayed_outcome="defender_holds")
    rnd = lg.start()
    attacks = [declare(p, rnd, target) for p in (lg.a, lg.b)]
    advance_to(rnd, "battles")
    first, second = (Battle.objects.get(attack=a) for a in attacks)
    assert (first.outcome, second.status) == ("victory", "pending")  # anna decides first
    round_advance(round_id=rnd.pk, expected_phase="battles")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.chain_decision == "waive" and Tile.objects.get(pk=target.pk).owner_id is None
    assert (second.outcome, second.result_status, second.defender_id) == (
        "victory", "confirmed", None)
    reasons = [change.new["reason"] for change in second.history.all()]
    assert len(reasons) == 1 and reasons[0].startswith("R-ATK-4")


def test_r_con_1_a_deadline_roll_sees_the_capture_an_earlier_deadline_roll_made(lg):
    """Speed (battles_close reads each planet once and keeps it up to date): anna wins the
    first link of two chains on Alpha and decides neither. At the deadline both take
    conquest_default (roll_all), in tile order: her roll on T1, adjacent to her territory,
    has threshold 3 (R-CON-1); her roll on T2 (from her spaceport, R-ATK-2 c), adjacent only
    to T1, has threshold 3 if the first roll took T1 and 7 if not (R-CON-2): a roll uses the
    territory at the moment it is made (R-CON-1, R-CON-6)."""
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    first, second = tile(alpha, 1, 0, lg.d), tile(alpha, 2, 0, lg.d)
    tile(alpha, 1, 1, lg.b)  # ben's tile, next to both: the second link of each chain
    tile(alpha, 4, 3, lg.a, ("spaceport",))  # anna reaches T2 from her spaceport only
    rnd = lg.start()
    attacks = [declare(lg.a, rnd, first), declare(lg.a, rnd, second),
               declare(lg.b, rnd, first), declare(lg.b, rnd, second)]
    advance_to(rnd, "battles")
    for attack in attacks[:2]:
        result(lg, Battle.objects.get(attack=attack), WIN)
    round_advance(round_id=rnd.pk, expected_phase="battles")
    on_first, on_second = (ConquestRoll.objects.get(attack=a, immediate=True)
                           for a in attacks[:2])
    assert on_first.counter < on_second.counter and on_first.threshold == 3
    assert on_second.threshold == (3 if on_first.success else 7)


# --- chain captures count toward k at each roll (R-CON-6, R-CON-4) -------------------

def test_r_con_6_chain_capture_counts_toward_k_while_held_at_each_roll(lg):
    """Anna takes dora's tile in link 1 of a chain; ben wins the last link. In the conquest
    phase ben's last-link roll comes first (R-CON-6); anna's other roll on the planet counts the
    capture toward k only if she still holds the tile when it is made."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d)
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    other = tile(alpha, 0, 1, lg.d)
    rnd = lg.start()
    first = declare(lg.a, rnd, target, armies=2)
    last = declare(lg.b, rnd, target)
    plain = declare(lg.a, rnd, other, armies=0)
    advance_to(rnd, "battles")
    result(lg, Battle.objects.get(attack=first), WIN)
    chain_roll = chain_decide(battle=Battle.objects.get(attack=first), player=lg.a, roll=True)
    result(lg, Battle.objects.get(attack=last), WIN)
    result(lg, Battle.objects.get(attack=plain), WIN)
    advance_to(rnd, "conquest")
    round_advance(round_id=rnd.pk, expected_phase="conquest")  # both roll all (R-RND-3)
    ben_roll, anna_roll = ConquestRoll.objects.filter(round=rnd, immediate=False)
    assert (ben_roll.attack_id, anna_roll.attack_id) == (last.pk, plain.pk)
    held = chain_roll.success and not ben_roll.success
    assert anna_roll.k == 1 + held
    multi = [m for m in anna_roll.modifiers if m["name"] == "multi_conquest"]
    assert multi == ([{"rule": "R-CON-4", "name": "multi_conquest", "value": -1}] if held
                     else [])
    assert anna_roll.total == sum(anna_roll.dice) - held


# --- rolls are stored as made (R-CON-1..7) -----------------------------------------

def test_r_con_7_rolls_store_threshold_rule_and_k_as_made(lg, two_wins):
    rnd, attacks, targets, _ = two_wins
    round_advance(round_id=rnd.pk, expected_phase="conquest")  # everybody rolls all
    rolls = {r.attack_id: r for r in ConquestRoll.objects.filter(round=rnd)}
    near, far, ben = (rolls[a.pk] for a in attacks)
    assert (near.threshold, near.threshold_rule, near.k) == (3, "R-CON-1", 2)
    assert (far.threshold, far.threshold_rule, far.k) == (7, "R-CON-1", 2)
    assert (ben.threshold, ben.threshold_rule, ben.k) == (3, "R-CON-1", 1)
