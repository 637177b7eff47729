"""The conquest page: won attacks with threshold, modifiers and exact chance (R-CON-7), the
live preview as boxes are ticked, committing the choice (R-CON-4) and the rolls with dice."""

import re

import pytest

from battles.models import ConquestChoice, ConquestRoll
from campaigns.models import Tile
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


def _row_cells(html: str, attack: int) -> list[str]:
    """Every table row of the attack on the page, as its text."""
    return re.findall(rf'<tr data-attack-id="{attack}".*?</tr>', html, re.S)


def test_r_con_7_page_shows_rolls_as_made_not_recomputed(conquest):
    """Anna rolled on both tiles: "free" next to her edge tile (needed 3) and "far" (needed
    7), each with -1 for two rolls on Alpha (R-CON-4). Then the map changes: the edge tile is
    lost. The page still shows each roll as it was made, never "needed 7" for "free"."""
    world, first, second = conquest
    client = client_for(world.lg.a.user)
    client.post(world.url("conquest/"), {"round": 1, "roll": [first.pk, second.pk]})
    made = {r.attack_id: r for r in ConquestRoll.objects.filter(attack__in=[first, second])}
    assert made[first.pk].threshold == 3
    Tile.objects.filter(pk=world.tiles["a-edge"].pk).update(owner=world.lg.c)
    html = client.get(world.url("conquest/?round=1")).content.decode()
    (free_row,) = _row_cells(html, first.pk)
    (far_row,) = _row_cells(html, second.pk)
    assert 'data-threshold="3"' in free_row and 'data-threshold="7"' not in free_row
    assert "33/36" in free_row  # 2d6 - 1 >= 3, as when it was rolled
    assert 'data-modifier="multi_conquest"' in free_row and "R-CON-4" in free_row
    assert f"({made[first.pk].dice[0]} + {made[first.pk].dice[1]})" in free_row
    assert 'data-threshold="7"' in far_row and "15/36" in far_row  # 2d6 - 1 >= 7
    assert "not as the map stands today" in html
