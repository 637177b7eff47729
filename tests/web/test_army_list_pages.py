"""The battle page's army list form with the files and texts players really hand in (
R-ARM-1..3): refusals next to the field in English and German, rosters recognised by content,
list settings shown apart from the units and only once the list may be seen."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from battles.models import ArmyList, Battle
from tests.battles.roster_shapes import (
    HH_TOTAL,
    apocalypse_roster,
    fixture_text,
    horus_heresy_roster,
    kill_team_roster,
    wh40k_roster,
)
from tests.web.rule_text import unlinked
from tests.worlds import ANNA_UNIT, battle_url, client_for, hand_in, page_duel

pytestmark = pytest.mark.django_db


def _post_file(world, battle, name: str, content: bytes, **headers):
    return client_for(world.lg.a.user).post(
        battle_url(world, battle, "army-list/"), {"file": SimpleUploadedFile(name, content)},
        **headers)


def _field_error(html: str, field: str) -> str:
    """The text of the invalid field holding input ``field``."""
    for block in unlinked(html).split('<div class="field invalid">')[1:]:
        block = block.split("</div>", 1)[0]
        if f'name="{field}"' in block:
            return re.sub(r"\s+", " ", block)
    raise AssertionError(f"no error on {field}")


def test_r_arm_2_a_roster_without_points_is_refused_next_to_the_file_field(page_world):
    battle = page_duel(page_world)
    response = _post_file(page_world, battle, "kommandos.ros", kill_team_roster())
    assert response.status_code == 400
    error = _field_error(response.content.decode(), "file")
    assert "R-ARM-2: the roster has no points cost (cost types: EP); this campaign counts " \
           "points." in error
    assert not ArmyList.objects.exists()


def test_r_arm_2_the_refusal_is_german_for_german_readers(page_world):
    battle = page_duel(page_world)
    response = _post_file(page_world, battle, "big.ros", apocalypse_roster(),
                          HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    error = _field_error(response.content.decode(), "file")
    assert "R-ARM-2: Die Roster-Datei hat keine Punktekosten (Kostenarten: PL, CP); diese " \
           "Kampagne zählt Punkte." in error


def test_r_arm_1_a_horus_heresy_roster_is_read_at_its_points_and_refused(page_world):
    battle = page_duel(page_world)
    limit = battle.point_limits[str(page_world.lg.a.pk)]
    response = _post_file(page_world, battle, "legion.rosz", horus_heresy_roster())
    assert response.status_code == 400
    html = unlinked(response.content.decode())
    assert f"{HH_TOTAL - limit} over (R-ARM-1)" in html and "errorlist nonfield" in html


def test_r_arm_2_a_roster_without_extension_is_stored_with_its_settings(page_world):
    battle = page_duel(page_world)
    response = _post_file(page_world, battle, "Gladius", wh40k_roster())
    assert response.status_code == 302
    stored = ArmyList.objects.get(battle=battle, player=page_world.lg.a)
    assert [e["name"] for e in stored.entries] == ["Captain", "Intercessor Squad", "Nurglings"]
    assert stored.settings[1] == {"name": "Detachment", "value": "Gladius Task Force"}
    html = client_for(page_world.lg.a.user).get(battle_url(page_world, battle)).content.decode()
    settings = html.split('class="inline-list list-settings"', 1)[1].split("</ul>", 1)[0]
    assert "<strong>Detachment</strong>: Gladius Task Force" in settings
    assert "<strong>Battle Size</strong>: 2. Strike Force (2000 Point limit)" in settings
    units = html.split('<table class="units">', 1)[1].split("</table>", 1)[0]
    assert "Detachment" not in units and "Battle Size" not in units


def test_r_arm_3_the_opponent_sees_the_settings_only_after_the_reveal(page_world):
    battle = page_duel(page_world)
    _post_file(page_world, battle, "gladius.ros", wh40k_roster())
    url = battle_url(page_world, battle)
    ben = client_for(page_world.lg.b.user)
    assert "Gladius Task Force" not in ben.get(url).content.decode()
    hand_in(battle, page_world.lg.b, ANNA_UNIT)
    Battle.objects.filter(pk=battle.pk).update(lists_revealed_at=timezone.now())
    html = ben.get(url).content.decode()
    assert "Settings:" in html and "Gladius Task Force" in html


def test_r_arm_2_a_pasted_app_export_is_read(page_world):
    battle = page_duel(page_world)
    response = client_for(page_world.lg.a.user).post(
        battle_url(page_world, battle, "army-list/"), {"text": fixture_text("wh40k_app.txt")})
    assert response.status_code == 302
    stored = ArmyList.objects.get(battle=battle, player=page_world.lg.a)
    assert (stored.total, stored.roster_total, stored.name) == (770, 770, "Gladius Strike")
    assert {"name": "Battle Size", "value": "Strike Force (2,000 Points)"} in stored.settings
