"""Webhooks over a round: a campaign with a Discord hook (German, members) and a generic JSON hook
(English, admins) gets every event of a whole round exactly once each, in the hook's language,
valid against the documented schema (``docs/webhooks.schema.json``) and Discord's limits, with
no hidden information (R-FLT-7, R-ARM-3, R-SEA-2, R-DICE-2 sentinels), delivered by the task
after commit to a local HTTP receiver."""

import json
from datetime import timedelta
from pathlib import Path

import jsonschema
import pytest
from django.utils import timezone

from battles.models import Battle
from battles.services.conquest import conquest_choose
from battles.services.results import (
    battle_result_dispute,
    battle_result_enter,
    battle_result_report,
)
from battles.services.schedule import schedule_accept, schedule_propose
from campaigns import webhooks
from campaigns.models import CampaignEvent, Round, Tile, WebhookDelivery
from campaigns.services.webhooks import webhook_create
from fleets.models import Fleet, SeaHazard, Ship
from league.services.pause import campaign_pause, campaign_resume
from league.services.round_events import deadline_soon_emit
from tests import worlds
from tests.campaigns.test_webhooks import check_discord_limits
from tests.factories import ArmyListFactory

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "webhooks.schema.json").read_text())
LIST_SENTINEL = "Zorblax Sentinel Terminators"
PLACE = "Sentinel Street 7"
REASON = "the dice fell off the table"


def _hide_sentinels(sc) -> list[str]:
    """Distinctive words in every hidden thing: fleet names, ships with crew and cargo, the
    hazard (R-FLT-7, R-SEA-2)."""
    words = []
    for i, fleet in enumerate(Fleet.objects.filter(campaign=sc.league.campaign)):
        fleet.name = f"Quillon Fleet {i}"
        fleet.save(update_fields=["name"])
    for ship in Ship.objects.filter(fleet__campaign=sc.league.campaign):
        ship.name = f"Grimfang {ship.name}"
        ship.crew = [{**c, "name": f"Crewsentinel {c['name']}"} for c in ship.crew]
        ship.cargo = [{**c, "name": f"Cargosentinel {c['name']}"} for c in ship.cargo]
        ship.save(update_fields=["name", "crew", "cargo"])
    SeaHazard.objects.filter(pk=sc.kraken.pk).update(name="Xarbeast Kraken")
    words += ["Quillon", "Grimfang", "Crewsentinel", "Cargosentinel", "Xarbeast"]
    return words


@pytest.mark.django_db
def test_whole_round_reaches_both_hooks_once_each_in_language_without_hidden_info(
        receiver, monkeypatch, scripted_fleet_dice, django_capture_on_commit_callbacks):
    hooks = {}
    original = worlds.make_league

    def league_with_hooks(**kwargs):  # hooks exist before round 1 opens
        lg = original(**kwargs)
        now = timezone.now()
        hooks["discord"] = webhook_create(campaign=lg.campaign, by=lg.admin, now=now, values={
            "url": receiver.url("/discord"), "kind": "discord", "language": "de",
            "audience": "members", "include_owing": True, "events": list(webhooks.KINDS)})
        hooks["json"] = webhook_create(campaign=lg.campaign, by=lg.admin, now=now, values={
            "url": receiver.url("/json"), "kind": "json", "language": "en",
            "audience": "admins", "events": list(webhooks.KINDS)})
        return lg

    monkeypatch.setattr(worlds, "make_league", league_with_hooks)
    with django_capture_on_commit_callbacks(execute=True):
        sc = worlds.build_fleet_phase()
        lg, rnd = sc.league, sc.rnd
        hidden = _hide_sentinels(sc) + [bytes(rnd.server_seed).hex(), LIST_SENTINEL, PLACE]
        gaia = lg.campaign.planets.get(name="Gaia")
        target = Tile.objects.get(planet=gaia, q=3, r=0)  # ben's, next to anna's (2, 0)
        attack = worlds.declare(lg.a, rnd, target)
        worlds.advance_to(rnd, "lists")
        battle = Battle.objects.get(attack=attack)
        ArmyListFactory(battle=battle, player=lg.a, entries=[{"name": LIST_SENTINEL,
                                                             "points": 500}])
        rnd.refresh_from_db()
        soon = rnd.phase_deadline - timedelta(hours=1)
        assert deadline_soon_emit(now=soon) == 1  # ben still owes his list
        assert deadline_soon_emit(now=soon + timedelta(minutes=1)) == 0  # once per phase
        worlds.advance_to(rnd, "battles")
        now = timezone.now()
        schedule_propose(battle=battle, player=lg.a, proposed_at=now + timedelta(days=1),
                         place=PLACE, now=now)
        schedule_accept(battle=battle, player=lg.b, now=now)
        battle_result_report(battle=battle, player=lg.a, outcome="victory", attacker_vp=10,
                             defender_vp=5)
        battle_result_dispute(battle=battle, player=lg.b, reason=REASON)
        battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="victory",
                            attacker_vp=10, defender_vp=4)
        worlds.advance_to(rnd, "conquest")
        worlds.sure_conquest(rnd, attack)
        conquest_choose(player=lg.a, rnd=Round.objects.get(pk=rnd.pk), roll=[attack.pk])
        worlds.advance_to(rnd, "closed")
        campaign_pause(campaign=lg.campaign, by=lg.admin, reason="Christmas")
        campaign_resume(campaign=lg.campaign, by=lg.admin)

    events = {e.key: e for e in CampaignEvent.objects.filter(campaign=lg.campaign)}
    kinds = sorted(e.kind for e in events.values())
    for kind in webhooks.KINDS:  # every kind of event happened in this round
        assert kind in kinds, kind
    assert kinds.count("phase_opened") >= 4  # declare, lists, battles, conquest
    # every event exactly once per hook, members' hook without the admins' dispute
    for name, hook in hooks.items():
        deliveries = list(WebhookDelivery.objects.filter(hook=hook))
        wanted = {k for k, e in events.items()
                  if webhooks.reaches(hook.audience, e.audience)}
        assert sorted(d.event_key for d in deliveries) == sorted(wanted), name
        assert {(d.status, d.attempts) for d in deliveries} == {("sent", 1)}, name
        assert len(receiver.at(f"/{name}")) == len(deliveries), name
    assert "dispute_raised" not in {d.kind for d in hooks["discord"].deliveries.all()}
    # generic: schema, signature, language
    for got in receiver.at("/json"):
        body = got.json
        jsonschema.validate(body, SCHEMA)
        assert body["language"] == "en" and body["id"] in events
        assert webhooks.verify(hooks["json"].secret, got.headers["X-Feldzug-Signature"],
                               got.body, now=int(got.headers["X-Feldzug-Signature"]
                                                 .split(",")[0][2:]))
    data = {got.json["event"]: got.json["data"] for got in receiver.at("/json")}
    assert data["round_closed"]["map_changes"] == []  # round 1: no map before it recorded
    assert len(data["round_closed"]["standings"]) == 4
    assert [r["success"] for r in data["conquest_results"]["rolls"]] == [True]
    assert len(data["naval_battles"]["battles"]) == 3
    texts = {got.json["event"]: got.json["text"] for got in receiver.at("/json")}
    assert texts["round_closed"] == "Round 1 closed."
    # Discord: limits and German
    contents = []
    for got in receiver.at("/discord"):
        message = got.json
        check_discord_limits(message)
        contents.append(message["embeds"][0]["description"])
    assert "Runde 1 ist abgeschlossen." in contents
    owing = [got.json for got in receiver.at("/discord")
             if "Noch zu tun" in json.dumps(got.json, ensure_ascii=False)]
    assert len(owing) == 1 and "ben" in json.dumps(owing[0])
    # nothing hidden anywhere: not in any payload, not in the stored events
    everything = [got.body.decode() for got in receiver.received] + \
        [json.dumps(e.facts, ensure_ascii=False) for e in events.values()]
    for word in hidden:
        for text in everything:
            assert word not in text, word
    assert not any(REASON in got.body.decode() for got in receiver.at("/discord"))
    assert any(REASON in got.body.decode() for got in receiver.at("/json"))


@pytest.mark.django_db
def test_round_closed_lists_the_tiles_that_changed_hands_since_the_round_before():
    world = worlds.build_history_world()
    worlds.play_history_rounds(world, 2)
    second = world.campaign.rounds.get(number=2)
    facts = CampaignEvent.objects.get(campaign=world.campaign, key=f"closed:{second.pk}").facts
    assert facts["map_changes"] == [{"tile": "Alpha (2, 0)", "tile_name": "Hill 12 (Alpha)",
                                     "from": "ben", "to": "anna"}]  # R-CON-1, map history
    assert [row["rank"] for row in facts["standings"]] == [1, 2, 3, 4]
