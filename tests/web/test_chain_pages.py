"""The battle page of a chain link (R-CON-6, R-CON-7, R-RND-3): the exact odds and
every modifier before "roll" / "waive", the roll kept with its modifiers afterwards, and what
the battles deadline - not extended for a chain - does to open decisions and later links."""

import pytest

from battles.models import Battle, ConquestRoll
from battles.services.chains import chain_decide
from battles.services.results import battle_result_enter
from campaigns.models import Tile
from tests.web.rule_text import unlinked
from tests.worlds import advance_to, battle_url, client_for, declare

MORAL = {"outcome": "moral_victory", "attacker_vp": 6, "defender_vp": 5}
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def chain_link(page_world):
    """Anna, then ben attack a tile of dora's with a defence line, next to anna's edge tile;
    anna wins link 1 with a moral victory, so her roll has -2 and -1 (R-CON-3)."""
    lg = page_world.lg
    target = page_world.tiles["free"]
    Tile.objects.filter(pk=target.pk).update(owner=lg.d, features=["defence"])
    first = declare(lg.a, page_world.rnd, target)
    declare(lg.b, page_world.rnd, target)
    advance_to(page_world.rnd, "battles")
    battle = Battle.objects.get(attack=first)
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **MORAL)
    return page_world, battle


def _html(client, url: str, **extra) -> str:
    response = client.get(url, **extra)
    assert response.status_code == 200
    return unlinked(response.content.decode())


def test_r_con_7_chain_decision_shows_exact_odds_and_every_modifier(chain_link):
    world, battle = chain_link
    html = _html(client_for(world.lg.a.user), battle_url(world, battle))
    form = html[html.index("Roll for the tile now?"):html.index('value="waive"')]
    assert 'data-threshold="3"' in form and "R-CON-1" in form
    assert 'data-modifier="moral_victory"' in form and "Moral victory -2" in form
    assert 'data-modifier="defence"' in form and "Defence line -1" in form
    assert "26/36" in form  # 2d6 - 3 >= 3 (R-CON-7)
    assert form.index("26/36") < form.index('value="roll"')
    onlooker = _html(client_for(world.lg.c.user), battle_url(world, battle))
    assert "Roll for the tile now?" not in onlooker


def test_r_con_6_battle_page_keeps_the_chain_roll_with_its_modifiers(chain_link):
    world, battle = chain_link
    chain_decide(battle=battle, player=world.lg.a, roll=True)
    roll = ConquestRoll.objects.get(attack=battle.attack)
    for user in (world.lg.a.user, world.lg.c.user):  # the roller and any member
        html = _html(client_for(user), battle_url(world, battle))
        assert "Roll for the tile now?" not in html
        shown = html[html.index("Conquest roll after this attack"):]
        shown = shown[:shown.index("</table>")]
        assert f"({roll.dice[0]} + {roll.dice[1]})" in shown
        assert "Moral victory -2" in shown and "Defence line -1" in shown
        assert f"<td>{roll.total}</td>" in shown and 'data-threshold="3"' in shown
        assert "26/36" in shown and ("taken" if roll.success else "failed") in shown


def test_r_con_6_battle_page_shows_a_waived_chain_roll(chain_link):
    world, battle = chain_link
    chain_decide(battle=battle, player=world.lg.a, roll=False)
    html = _html(client_for(world.lg.c.user), battle_url(world, battle))
    assert "waived the conquest roll after this attack" in html


def test_r_con_6_battle_page_says_the_deadline_is_not_extended(chain_link):
    world, battle = chain_link
    later = Battle.objects.get(round=battle.round, chain_position=2)
    client = client_for(world.lg.c.user)
    for shown in (battle, later):
        html = _html(client, battle_url(world, shown))
        assert ("The battles deadline is not extended for a chain of attacks on one tile. "
                "When it passes, an open roll decision takes the campaign default at once "
                "(the roll is made), and every later attack on this tile not yet played "
                "counts as a defeat of the attacker, one after the other (R-CON-6).") in html
    world.lg.set_rules(conquest_default="waive_all", unplayed_outcome="attacker_wins")
    html = _html(client, battle_url(world, later))
    assert "(the roll is waived)" in html and "counts as a victory of the attacker" in html
    german = _html(client, battle_url(world, later), **GERMAN)
    assert "Die Frist der Schlachtphase wird für eine Kette von Angriffen" in german
    assert "auf den Wurf wird verzichtet" in german and "Sieg des Angreifers" in german
