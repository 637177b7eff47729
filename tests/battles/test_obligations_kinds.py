""""What a player owes" covers every kind - purchases and declarations,
fleet orders (R-FLT-4), army lists (R-ARM-1), dates to agree (R-BAT-2), results to report or
confirm (R-BAT-3), chain roll decisions (R-CON-6), conquest choices (R-CON-4) - each appears
while owed and disappears once given; disputes are the admin's (R-BAT-4). The bulk answer
needs the same number of queries for 2 players as for 8."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.selectors.obligations import (
    campaign_obligations,
    disputes_to_settle,
    obligations,
    owing_players,
)
from battles.services.chains import chain_decide
from battles.services.conquest import conquest_choose
from battles.services.results import (
    battle_result_confirm,
    battle_result_dispute,
    battle_result_enter,
    battle_result_report,
)
from battles.services.schedule import schedule_accept, schedule_propose
from campaigns.models import PhaseDone, Round
from fleets.models import FleetOrder
from fleets.services.orders import fleet_set_orders
from tests.battles.tabletop import WIN
from tests.factories import AreaFactory, FleetFactory
from tests.worlds import (
    advance_to,
    buy,
    chain,
    declare,
    duel,
    hand_in,
    make_league,
    row,
    tile,
)

pytestmark = pytest.mark.django_db


def kinds(rnd, player) -> list[str]:
    return [entry["kind"] for entry in obligations(rnd, player)]


def fresh(battle) -> Round:
    return Round.objects.get(pk=battle.round_id)


def test_declare_lists_purchases_and_fleet_orders_until_given(lg):
    """R-FLT-4 [reading]: a fleet without an order is pointed out but does not hold the phase."""
    rnd = lg.start()
    sea, coast = AreaFactory(campaign=lg.campaign), AreaFactory(campaign=lg.campaign)
    fleet = FleetFactory(area=sea, owner=lg.a, name="Home Fleet")
    owed = obligations(rnd, lg.a)
    assert [e["kind"] for e in owed] == ["declare", "fleet_orders"]
    assert owed[1]["fleets"] == 1 and owed[1]["names"] == ["Home Fleet"]
    assert kinds(rnd, lg.b) == ["declare"]  # no fleet: nothing about orders
    assert lg.a.pk in owing_players(rnd)  # no declaration yet
    FleetOrder.objects.create(round=rnd, fleet=fleet, path=[coast.pk])
    assert kinds(rnd, lg.a) == ["declare"]
    assert obligations(rnd, lg.a)[0]["orders"] == 1


def test_fleet_order_service_clears_the_entry(fleet_world):
    rnd, fleet = fleet_world.rnd, fleet_world.anna_fleet
    assert kinds(rnd, fleet.owner) == ["declare", "fleet_orders"]
    fleet_set_orders(player=fleet.owner, fleet=fleet, path=[fleet_world.sea.pk])
    assert kinds(rnd, fleet.owner) == ["declare"]
    fleet_set_orders(player=fleet.owner, fleet=fleet, path=[])  # withdrawn: owed again
    assert kinds(rnd, fleet.owner) == ["declare", "fleet_orders"]


def test_declare_entry_waits_until_a_declaration_stands(lg):
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    buy(lg.a, rnd, 2)
    assert obligations(rnd, lg.a)[0] == {"kind": "declare", "bought": 2, "unused": 2,
                                          "standing": 0, "used": 0, "orders": 0}
    assert lg.a.pk in owing_players(rnd)
    declare(lg.a, rnd, tile(alpha, 1, 0, lg.b), armies=0)
    assert obligations(rnd, lg.a)[0]["standing"] == 1
    assert lg.a.pk not in owing_players(rnd)


def test_army_list_until_handed_in(lg):
    battle = duel(lg, "lists")
    rnd = fresh(battle)
    assert kinds(rnd, lg.a) == ["army_list"] and kinds(rnd, lg.b) == ["army_list"]
    hand_in(battle, lg.a, "Captain")
    assert kinds(rnd, lg.a) == [] and kinds(rnd, lg.b) == ["army_list"]
    assert owing_players(rnd) == {lg.b.pk}


def test_dates_to_agree_until_accepted_R_BAT_2(lg):
    battle = duel(lg, "battles")
    rnd = fresh(battle)
    assert kinds(rnd, lg.a) == ["agree_date", "report_result"]
    assert obligations(rnd, lg.b)[0]["answer"] is False
    when = timezone.now() + timedelta(days=3)
    schedule_propose(battle=battle, player=lg.a, proposed_at=when, place="Club")
    assert kinds(rnd, lg.a) == ["report_result"]  # waits for ben's answer
    entry = obligations(rnd, lg.b)[0]
    assert (entry["kind"], entry["battle"].pk, entry["answer"]) == ("agree_date", battle.pk, True)
    schedule_accept(battle=battle, player=lg.b)
    assert kinds(rnd, lg.a) == ["report_result"] and kinds(rnd, lg.b) == ["report_result"]


def test_results_to_report_then_confirm_R_BAT_3(lg):
    battle = duel(lg, "battles")
    rnd = fresh(battle)
    battle_result_report(battle=battle, player=lg.a, **WIN)
    assert kinds(rnd, lg.a) == [] and kinds(rnd, lg.b) == ["confirm_result"]
    battle_result_confirm(battle=battle, player=lg.b)
    assert kinds(rnd, lg.b) == [] and owing_players(rnd) == set()


def test_a_dispute_is_the_admins_R_BAT_4(lg):
    battle = duel(lg, "battles")
    rnd = fresh(battle)
    battle_result_report(battle=battle, player=lg.a, **WIN)
    battle_result_dispute(battle=battle, player=lg.b, reason="wrong")
    assert kinds(rnd, lg.a) == [] and kinds(rnd, lg.b) == []
    assert [b.pk for b in disputes_to_settle(lg.campaign)] == [battle.pk]
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
    assert disputes_to_settle(lg.campaign) == []


def test_chain_roll_decision_until_made_R_CON_6(lg):
    links = chain(lg, "battles")
    battle_result_enter(battle=links[0], by_admin_user=lg.admin, **WIN)
    rnd = fresh(links[0])
    assert kinds(rnd, lg.a) == ["chain_decision"]
    links[0].refresh_from_db()
    chain_decide(battle=links[0], player=lg.a, roll=False)
    assert "chain_decision" not in kinds(rnd, lg.a)


def test_conquest_choice_until_chosen_R_CON_4(lg):
    battle = duel(lg, "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
    rnd = advance_to(fresh(battle), "conquest")
    assert obligations(rnd, lg.a) == [{"kind": "conquest_choice", "won": 1}]
    assert owing_players(rnd) == {lg.a.pk}
    conquest_choose(player=lg.a, rnd=rnd, roll=[battle.attack_id])
    assert obligations(rnd, lg.a) == [] and owing_players(rnd) == set()


def test_a_player_who_said_done_is_not_owing(lg):
    battle = duel(lg, "lists")
    rnd = fresh(battle)
    assert owing_players(rnd) == {lg.a.pk, lg.b.pk}
    PhaseDone.objects.create(round=rnd, player=lg.b, phase="lists")
    assert owing_players(rnd) == {lg.a.pk}
    assert kinds(rnd, lg.b) == ["army_list"]  # the to-do still says what defaults


# --- a constant number of queries for any number of players ---------------------------------

NAMES = tuple(f"p{i}" for i in range(8))


def battles_league(count: int, phase: str):
    """``count`` players; each even one attacks the next one's tile; each has a fleet."""
    lg = make_league(players=NAMES[:count], name=f"q{count}{phase}")
    alpha = lg.planet()
    sea = AreaFactory(campaign=lg.campaign)
    targets = []
    for index in range(0, count, 2):
        row(alpha, lg.players[index], (index * 3,))
        targets.append((lg.players[index], tile(alpha, index * 3 + 1, 0, lg.players[index + 1])))
    for player in lg.players:
        FleetFactory(area=sea, owner=player)
    rnd = lg.start()
    for attacker, target in targets:
        declare(attacker, rnd, target)
    return lg, advance_to(rnd, phase)


def count_queries(rnd) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as bulk:
        owed = campaign_obligations(rnd)
    with CaptureQueriesContext(connection) as owing:
        owing_players(rnd)
    assert any(owed.values())
    return len(bulk), len(owing)


@pytest.mark.parametrize("phase", ["declare", "lists", "battles"])
def test_obligations_queries_do_not_grow_with_players(db, phase):
    small = count_queries(battles_league(2, phase)[1])
    large = count_queries(battles_league(8, phase)[1])
    assert small == large


def test_conquest_queries_do_not_grow_with_players(db):
    counts = []
    for count in (2, 8):
        lg, rnd = battles_league(count, "battles")
        for battle in rnd.battles.all():
            battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
        counts.append(count_queries(advance_to(rnd, "conquest")))
    assert counts[0] == counts[1]
