"""The audit log: each admin action that was not logged before writes exactly
one entry, in the service that makes it, with who, what, before and after (only what changed)."""

import pytest

from battles.models import Battle
from battles.services.results import (
    battle_result_dispute,
    battle_result_enter,
    battle_result_report,
)
from campaigns.models import AdminAction, JoinRequest
from campaigns.services import campaigns as services
from campaigns.services.invitations import join_request_accept
from campaigns.services.players import player_remove
from tests.factories import UserFactory
from tests.worlds import api, client_for, duel, make_league

pytestmark = pytest.mark.django_db
WIN = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}


def entries(lg, kind=None):
    """Entries of ``kind``; without it the admins' actions, the phase changes of getting
    there (``round.*``) left out."""
    found = AdminAction.objects.filter(campaign=lg.campaign)
    return list(found.filter(kind=kind) if kind else found.exclude(kind__startswith="round."))


def test_settings_change_logs_only_the_changed_keys():
    lg = make_league(name="Old front")
    services.campaign_update(campaign=lg.campaign, actor=lg.admin, name="New front",
                             visibility="public", time_zone=lg.campaign.time_zone,
                             join_requests_open=True)
    [entry] = entries(lg)
    assert (entry.kind, entry.actor, entry.target, entry.public) == (
        "campaign.update", lg.admin, "New front", True)
    assert entry.before == {"name": "Old front", "visibility": "private",
                            "join_requests_open": False}
    assert entry.after == {"name": "New front", "visibility": "public",
                           "join_requests_open": True}


def test_ruleset_change_logs_only_the_changed_keys():
    lg = make_league()
    services.campaign_update(campaign=lg.campaign, actor=lg.admin,
                             ruleset={"confirm_hours": 12, "phase_hours": {"declare": 10},
                                      "early_advance": True})  # early_advance: unchanged
    [entry] = entries(lg)
    assert entry.kind == "ruleset.update"
    assert entry.before == {"confirm_hours": 48, "phase_hours": {"declare": 48}}
    assert entry.after == {"confirm_hours": 12, "phase_hours": {"declare": 10}}


def test_saving_without_a_change_logs_nothing():
    lg = make_league()
    services.campaign_update(campaign=lg.campaign, actor=lg.admin, name=lg.campaign.name,
                             ruleset={"confirm_hours": 48})
    assert entries(lg) == []


def test_settings_from_the_api_and_the_page_name_the_admin():
    lg = make_league()
    assert api(lg.admin).patch(lg.url(""), {"ruleset": {"confirm_hours": 6}},
                               format="json").status_code == 200
    page = client_for(lg.admin).post(f"/campaigns/{lg.campaign.pk}/manage/settings/",
                                      {"name": "Renamed", "visibility": "private",
                                       "time_zone": lg.campaign.time_zone})
    assert page.status_code == 302
    assert [(e.kind, e.actor) for e in entries(lg)] == [("campaign.update", lg.admin),
                                                       ("ruleset.update", lg.admin)]


def test_player_added_and_removed():
    lg = make_league(players=("anna",))
    newcomer = UserFactory(username="newcomer")
    player = services.player_add(campaign=lg.campaign, user=newcomer, faction="Tau",
                                 colour="#AA0000", actor=lg.admin)
    player_remove(player=player, actor=lg.admin)
    added, removed = entries(lg, "player.add"), entries(lg, "player.remove")
    assert [(e.actor, e.target, e.before, e.after) for e in added] == [
        (lg.admin, "Tau", None, {"faction": "Tau", "colour": "#aa0000"})]
    assert [(e.actor, e.target, e.before, e.after) for e in removed] == [
        (lg.admin, "Tau", {"faction": "Tau", "colour": "#aa0000"}, None)]
    assert "newcomer" not in str(added[0].after)  # the seat's facts, not the account


def test_join_request_accepted_by_the_admin():
    lg = make_league(visibility="public")
    asker = UserFactory(username="asker")
    request = JoinRequest.objects.create(campaign=lg.campaign, user=asker)
    join_request_accept(join_request=request, by=lg.admin, faction="Necrons")
    [entry] = entries(lg, "player.add")
    assert (entry.actor, entry.target) == (lg.admin, "Necrons")


# --- results (R-BAT-3, R-BAT-4) --------------------------------------------------------------

def test_result_entered_then_corrected():
    lg = make_league()
    battle = duel(lg, "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
    battle_result_enter(battle=battle, by_admin_user=lg.admin,
                        **{**WIN, "attacker_vp": 15})  # points only: allowed after battles
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **{**WIN, "attacker_vp": 15})
    entered, corrected = entries(lg, "result.enter"), entries(lg, "result.correct")
    assert len(entered) == 1 and len(corrected) == 1  # the unchanged third entry: nothing
    assert entered[0].before is None
    assert entered[0].after == {**WIN, "status": "confirmed"}
    assert corrected[0].before == {**WIN, "status": "confirmed"}
    assert corrected[0].after == {**WIN, "attacker_vp": 15, "status": "confirmed"}
    assert entered[0].target.startswith("Alpha (1, 0): ")  # the battle named by its tile
    assert lg.a.faction in entered[0].target and lg.b.faction in entered[0].target
    assert entered[0].round_id == battle.round_id and entered[0].public


def test_dispute_settled_by_the_admin():
    lg = make_league()
    battle = duel(lg, "battles")
    battle_result_report(battle=battle, player=lg.a, **WIN)
    battle_result_dispute(battle=Battle.objects.get(pk=battle.pk), player=lg.b, reason="no")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="draw", attacker_vp=8,
                        defender_vp=8)
    [entry] = entries(lg)  # the players' report and dispute are not admin actions
    assert entry.kind == "dispute.settle" and entry.actor == lg.admin
    assert entry.before == {**WIN, "status": "disputed"}
    assert entry.after == {"outcome": "draw", "attacker_vp": 8, "defender_vp": 8,
                           "status": "confirmed"}
