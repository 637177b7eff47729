"""The campaign list and a campaign's home: round, phase, deadline countdown, what the player
owes this phase, recent events."""

from battles.list_text import parse_text
from battles.models import Battle
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_enter
from tests.factories import CampaignFactory
from tests.worlds import advance_to, buy, client_for, declare


def test_list_splits_my_campaigns_from_public_ones(page_world):
    public = CampaignFactory(name="Open Crusade", visibility="public")
    hidden = CampaignFactory(name="Secret Crusade", visibility="private")
    html = client_for(page_world.lg.a.user).get("/").content.decode()
    mine, others = html.split("Public campaigns", 1)
    assert page_world.campaign.name in mine and "you play Mechanicus" in mine
    assert public.name in others and hidden.name not in html
    anonymous = client_for().get("/").content.decode()
    assert public.name in anonymous and page_world.campaign.name not in anonymous
    assert "Log in to see the campaigns you play in." in anonymous


def test_home_shows_round_phase_and_a_live_countdown(page_world):
    html = client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    assert "Round 1" in html and "Declare" in html
    deadline = page_world.rnd.phase_deadline.isoformat()
    assert f'data-countdown="{deadline}"' in html
    assert '/static/feldzug.js' in html


def test_what_i_owe_in_declare(page_world):
    buy(page_world.lg.a, page_world.rnd, 3)
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=0)
    html = client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    assert "2 of 3 armies unused, 1 declaration standing." in html
    admin = client_for(page_world.lg.admin).get(page_world.url()).content.decode()
    assert "What you still owe" not in admin


def test_what_i_owe_in_lists_battles_and_conquest(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "lists")
    battle = Battle.objects.get(attack=attack)
    link = f'/campaigns/{page_world.campaign.pk}/battles/{battle.pk}/'
    for player in (page_world.lg.a, page_world.lg.b):
        html = client_for(player.user).get(page_world.url()).content.decode()
        assert "Submit your army list:" in html and link in html
    assert "Submit your army list" not in client_for(page_world.lg.c.user).get(
        page_world.url()).content.decode()
    army_list_submit(battle=battle, player=page_world.lg.a, parsed=parse_text("Skitarii: 500"))
    assert link not in client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    advance_to(page_world.rnd, "battles")
    assert "report its result" in client_for(page_world.lg.a.user).get(
        page_world.url()).content.decode()
    battle_result_enter(battle=battle, by_admin_user=page_world.lg.admin, outcome="victory",
                        attacker_vp=10, defender_vp=3)
    advance_to(page_world.rnd, "conquest")
    html = client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    assert "Choose whether to roll for your won attack." in html
    assert "Nothing: you are done" in client_for(page_world.lg.b.user).get(
        page_world.url()).content.decode()


def test_recent_events_show_results_to_members_only(public_page_world, outsider):
    attack = declare(public_page_world.lg.a, public_page_world.rnd,
                     public_page_world.tiles["b-edge"])
    advance_to(public_page_world.rnd, "battles")
    battle = Battle.objects.get(attack=attack)
    battle_result_enter(battle=battle, by_admin_user=public_page_world.lg.admin,
                        outcome="moral_victory", attacker_vp=17, defender_vp=9)
    advance_to(public_page_world.rnd, "closed")
    member = client_for(public_page_world.lg.c.user).get(public_page_world.url()).content.decode()
    assert "Moral victory" in member and "17 : 9 VP" in member
    assert "Round 1 closed" in member and "Round 2 opened" in member
    assert "Conquest roll of Mechanicus" in member
    stranger = client_for(outsider).get(public_page_world.url()).content.decode()
    assert "17 : 9 VP" not in stranger
    assert "Conquest roll of Mechanicus" in stranger and "Round 1 closed" in stranger
