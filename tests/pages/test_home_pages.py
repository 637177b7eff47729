"""The campaign list and a campaign's home: round, phase, deadline countdown, what the player
owes this phase, recent events."""

from battles.models import Battle
from battles.rosters import parse_text
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_enter
from tests.campaigns.league_map import advance_to, buy, declare
from tests.factories import CampaignFactory
from tests.pages.conftest import build_world, client_for


def test_list_splits_my_campaigns_from_public_ones(world):
    public = CampaignFactory(name="Open Crusade", visibility="public")
    hidden = CampaignFactory(name="Secret Crusade", visibility="private")
    html = client_for(world.lg.a.user).get("/").content.decode()
    mine, others = html.split("Public campaigns", 1)
    assert world.campaign.name in mine and "you play Mechanicus" in mine
    assert public.name in others and hidden.name not in html
    anonymous = client_for().get("/").content.decode()
    assert public.name in anonymous and world.campaign.name not in anonymous
    assert "Log in to see the campaigns you play in." in anonymous


def test_home_shows_round_phase_and_a_live_countdown(world):
    html = client_for(world.lg.a.user).get(world.url()).content.decode()
    assert "Round 1" in html and "Declare" in html
    deadline = world.rnd.phase_deadline.isoformat()
    assert f'data-countdown="{deadline}"' in html
    assert '/static/feldzug.js' in html


def test_what_i_owe_in_declare(world):
    buy(world.lg.a, world.rnd, 3)
    declare(world.lg.a, world.rnd, world.tiles["free"], armies=0)
    html = client_for(world.lg.a.user).get(world.url()).content.decode()
    assert "2 of 3 armies unused, 1 declarations standing" in html
    admin = client_for(world.lg.admin).get(world.url()).content.decode()
    assert "What you still owe" not in admin


def test_what_i_owe_in_lists_battles_and_conquest(world):
    attack = declare(world.lg.a, world.rnd, world.tiles["b-edge"])
    advance_to(world.rnd, "lists")
    battle = Battle.objects.get(attack=attack)
    link = f'/campaigns/{world.campaign.pk}/battles/{battle.pk}/'
    for player in (world.lg.a, world.lg.b):
        html = client_for(player.user).get(world.url()).content.decode()
        assert "Submit your army list:" in html and link in html
    assert "Submit your army list" not in client_for(world.lg.c.user).get(
        world.url()).content.decode()
    army_list_submit(battle=battle, player=world.lg.a, parsed=parse_text("Skitarii: 500"))
    assert link not in client_for(world.lg.a.user).get(world.url()).content.decode()
    advance_to(world.rnd, "battles")
    assert "report its result" in client_for(world.lg.a.user).get(world.url()).content.decode()
    battle_result_enter(battle=battle, by_admin_user=world.lg.admin, outcome="victory",
                        attacker_vp=10, defender_vp=3)
    advance_to(world.rnd, "conquest")
    html = client_for(world.lg.a.user).get(world.url()).content.decode()
    assert "Choose whether to roll for your won attack." in html
    assert "Nothing: you are done" in client_for(world.lg.b.user).get(
        world.url()).content.decode()


def test_recent_events_show_results_to_members_only(db, outsider):
    world = build_world("public")
    attack = declare(world.lg.a, world.rnd, world.tiles["b-edge"])
    advance_to(world.rnd, "battles")
    battle = Battle.objects.get(attack=attack)
    battle_result_enter(battle=battle, by_admin_user=world.lg.admin, outcome="moral_victory",
                        attacker_vp=17, defender_vp=9)
    advance_to(world.rnd, "closed")
    member = client_for(world.lg.c.user).get(world.url()).content.decode()
    assert "Moral victory" in member and "17 : 9 VP" in member
    assert "Round 1 closed" in member and "Round 2 opened" in member
    assert "Conquest roll of Mechanicus" in member
    stranger = client_for(outsider).get(world.url()).content.decode()
    assert "17 : 9 VP" not in stranger
    assert "Conquest roll of Mechanicus" in stranger and "Round 1 closed" in stranger
