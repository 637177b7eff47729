"""Hidden information in the audit log (R-FLT-7, R-SEA-2, R-ARM-3,
R-DICE-2): every recording path this log has, run on the permission matrix's private campaign
with the sentinel words in the hidden facts; no public entry holds a sentinel, and neither the
page nor the API shows a member an admin-only entry or a word their role may not see."""

import json

import pytest

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns.models import AdminAction, Campaign, Round
from campaigns.services import campaigns as campaign_services
from campaigns.services.admin_log import record
from fleets.models import Area, Fleet, SeaHazard, Ship
from fleets.services.fleets import fleet_update, hazard_create, hazard_delete
from fleets.services.hazards import hazard_update
from fleets.services.ships import ship_update
from tests.factories import UserFactory
from tests.worlds import ADMIN, OTHER, OUTSIDER, PLAYER, ROOT, advance_to, api, client_for

pytestmark = pytest.mark.django_db
ADMIN_ONLY_KINDS = {"hazard.create", "hazard.update", "hazard.delete", "ship.update", "nudge"}


def _record_everything(world) -> Campaign:
    """Every recording path of the audit log, plus the corrections that split
    hidden facts off, with sentinel words in the hidden values."""
    s = world.private
    campaign = Campaign.objects.get(pk=s.campaign)
    admin = world.users[ADMIN]
    fleet, ship = Fleet.objects.get(pk=s.fleet), Ship.objects.get(pk=s.ship)
    sea = Area.objects.get(campaign=campaign, name="Hidden sea")
    fleet_update(fleet=fleet, name="Hidden Quillon Renamed", area=sea, actor=admin)
    ship_update(ship=ship, name="Hidden Quillon Dauntless", actor=admin)
    hazard = hazard_create(campaign=campaign, area=sea, name="Xarbeast Spawn", actor=admin)
    hazard_update(hazard=SeaHazard.objects.get(pk=s.hazard), name="Xarbeast Maw Grown",
                  actor=admin)
    hazard_delete(hazard=hazard, actor=admin)
    record(campaign=campaign, actor=admin, kind="nudge", target="anna", public=False,
           after={"owes": ["Hidden Zorblax list"]})  # as the dashboard's nudge would
    campaign_services.campaign_update(campaign=campaign, actor=admin, name="Hidden front II",
                                      ruleset={"confirm_hours": 12})
    campaign_services.player_add(campaign=campaign, user=UserFactory(username="late"),
                                 faction="Tau", actor=admin)
    rnd = advance_to(Round.objects.get(campaign=campaign, number=s.round), Round.Phase.BATTLES)
    battle = Battle.objects.get(pk=s.battle)
    battle_result_enter(battle=battle, by_admin_user=admin, outcome="victory", attacker_vp=9,
                        defender_vp=2)
    battle_result_enter(battle=battle, by_admin_user=admin, outcome="victory",
                        attacker_vp=10, defender_vp=2)
    assert rnd.campaign_id == campaign.pk
    return campaign


def _leaks(world, role: str, body: str) -> list[str]:
    return [word for word, seen_by in world.sentinels.items()
            if role not in seen_by and word in body]


def test_no_public_entry_holds_a_hidden_fact(security_world):
    campaign = _record_everything(security_world)
    entries = AdminAction.objects.filter(campaign=campaign)
    kinds = set(entries.values_list("kind", flat=True))
    assert {"campaign.update", "ruleset.update", "player.add", "result.enter",
            "result.correct", "fleet.update", "nudge", "hazard.create"} <= kinds
    for entry in entries.filter(public=True):
        text = json.dumps([entry.target, entry.before, entry.after])
        found = [word for word in security_world.sentinels if word in text]
        assert not found, f"public {entry.kind} entry shows {found}: {text}"
        assert entry.kind not in ADMIN_ONLY_KINDS


@pytest.mark.parametrize("role", [PLAYER, OTHER])
def test_members_never_get_admin_only_entries(security_world, role):
    campaign = _record_everything(security_world)
    user = security_world.users[role]
    response = api(user).get(f"/api/v1/campaigns/{campaign.pk}/audit-log/?page_size=500")
    body = response.content.decode()
    assert response.status_code == 200
    assert not {e["kind"] for e in response.json()["results"]} & ADMIN_ONLY_KINDS
    assert "public" not in body and not _leaks(security_world, role, body)
    html = client_for(user).get(f"/campaigns/{campaign.pk}/log/").content.decode()
    assert "Hazard placed" not in html and "Players nudged" not in html
    assert "Result corrected" in html  # the public entries are there
    assert not _leaks(security_world, role, html)


def test_admins_read_the_hidden_entries(security_world):
    campaign = _record_everything(security_world)
    results = api(security_world.users[ADMIN]).get(
        f"/api/v1/campaigns/{campaign.pk}/audit-log/?kind=map").json()["results"]
    assert any(e["kind"] == "hazard.create" and not e["public"] for e in results)
    for role in (OUTSIDER, ROOT):
        status = api(security_world.users[role]).get(
            f"/api/v1/campaigns/{campaign.pk}/audit-log/").status_code
        assert status == (404 if role == OUTSIDER else 200)
