"""The conquest page: won attacks with threshold, modifiers and exact chance (R-CON-7), the
live preview as boxes are ticked, committing the choice (R-CON-4) and the rolls with dice."""

import re

import pytest

from battles.models import ConquestChoice, ConquestRoll
from tests.worlds import advance_to, client_for, declare

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def conquest(page_world):
    """Anna won two attacks on neutral tiles of Alpha (no battle needed, R-ATK-4)."""
    first = declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=2)
    second = declare(page_world.lg.a, page_world.rnd, page_world.tiles["far"], armies=0)
    advance_to(page_world.rnd, "conquest")
    return page_world, first, second


def _chances(html: str) -> dict[int, str]:
    rows = re.findall(r'<tr data-attack-id="(\d+)".*?<strong>([^<]+)</strong>', html, re.S)
    return {int(attack): chance for attack, chance in rows}


def test_items_show_threshold_modifiers_and_exact_chance(conquest):
    world, first, second = conquest
    html = client_for(world.lg.a.user).get(world.url("conquest/")).content.decode()
    chances = _chances(html)
    assert set(chances) == {first.pk, second.pk}
    assert all(re.fullmatch(r"\d+/36|0|1", c) for c in chances.values())
    assert "Several conquests on one planet" in html  # the multi-conquest modifier (R-CON-3)
    assert html.count('type="checkbox" name="roll"') == 2
    assert "Commit my choice" in html


def test_ticking_fewer_rolls_updates_the_chance_live(conquest):
    world, first, second = conquest
    client = client_for(world.lg.a.user)
    both = _chances(client.get(world.url("conquest/preview/"),
                               {"preview": 1, "roll": [first.pk, second.pk]}, **HTMX)
                    .content.decode())
    one = client.get(world.url("conquest/preview/"), {"preview": 1, "roll": [first.pk]}, **HTMX)
    html = one.content.decode()
    assert one.status_code == 200 and "<html" not in html
    assert _chances(html)[first.pk] != both[first.pk]
    assert re.search(rf'id="roll-{first.pk}" checked', html)
    assert not re.search(rf'id="roll-{second.pk}" checked', html)


def test_committing_seals_the_choice_and_shows_the_rolls(conquest):
    world, first, second = conquest
    client = client_for(world.lg.a.user)
    response = client.post(world.url("conquest/"), {"round": 1, "roll": [first.pk]})
    assert response.status_code == 302
    assert ConquestChoice.objects.get(player=world.lg.a).rolls == [first.pk]
    roll = ConquestRoll.objects.get(attack=first)  # anna was the only one to choose
    html = client.get(response["Location"]).content.decode()
    assert "Your choice is sealed." in html and "Your rolls" in html
    assert f"({roll.dice[0]} + {roll.dice[1]})" in html
    assert "Commit my choice" not in html
    assert not ConquestRoll.objects.filter(attack=second).exists()


def test_a_second_choice_is_refused(conquest):
    world, first, _second = conquest
    client = client_for(world.lg.a.user)
    client.post(world.url("conquest/"), {"round": 1, "roll": [first.pk]})
    again = client.post(world.url("conquest/"), {"round": 1, "roll": []})
    html = again.content.decode()
    assert again.status_code == 400
    assert 'id="choice-errors"' in html and "made in the conquest phase" in html
    assert ConquestChoice.objects.get(player=world.lg.a).rolls == [first.pk]


def test_a_foreign_attack_id_is_an_error_next_to_the_choice(conquest):
    world, first, _second = conquest
    response = client_for(world.lg.a.user).post(world.url("conquest/"),
                                                {"round": 1, "roll": [first.pk, 999999]})
    assert response.status_code == 400 and 'class="errorlist' in response.content.decode()
    assert not ConquestChoice.objects.exists()


def test_other_players_see_no_items_of_anna(conquest):
    world, first, _second = conquest
    html = client_for(world.lg.b.user).get(world.url("conquest/")).content.decode()
    assert f'data-attack-id="{first.pk}"' not in html
    assert "no won attack" in html
