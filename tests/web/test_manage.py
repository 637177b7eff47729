"""The league admin's page: every ruleset key explained, settings, ruleset, map import with
errors by document path, players, deadline, advancing, and entering results."""

import json
import re
from datetime import UTC, datetime

from django.core.files.uploadedfile import SimpleUploadedFile

from battles.models import Battle
from campaigns.models import Campaign, Planet, Round, Tile
from rules.ruleset import KEYS, PHASE_HOURS_DEFAULTS
from tests.factories import CampaignFactory, UserFactory
from tests.worlds import advance_to, client_for, declare


def _admin(world):
    return client_for(world.lg.admin)


def _ruleset_post(world, **changes) -> dict:
    data = {k: ("on" if v is True else v) for k, v in world.campaign.ruleset.items()
            if k != "phase_hours" and v is not None and v is not False}
    data.update({f"phase_hours_{p}": h for p, h in world.campaign.ruleset["phase_hours"].items()})
    data.update(changes)
    return data


def test_every_ruleset_key_is_explained_with_its_default(page_world):
    html = _admin(page_world).get(page_world.url("manage/")).content.decode()
    for key in KEYS:
        assert f'name="{key}"' in html, key
        assert f'id="id_{key}_helptext"' in html, key
    for phase in PHASE_HOURS_DEFAULTS:
        assert f'name="phase_hours_{phase}"' in html
    assert 'Default: 1500. Allowed: 0 to 100000. (<a class="rule-link" href="/rules/#r-bon-1">' \
        'R-BON-1</a>)' in html  # the rule id links to its section
    assert "Default: no limit." in html  # max_fleet_moves


def test_ruleset_save_and_errors_next_to_the_field(page_world):
    client = _admin(page_world)
    response = client.post(page_world.url("manage/ruleset/"),
                           _ruleset_post(page_world, attack_army_cost=3, phase_hours_declare=12))
    assert response.status_code == 302
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.ruleset["attack_army_cost"] == 3
    assert page_world.campaign.ruleset["phase_hours"]["declare"] == 12
    bad = client.post(page_world.url("manage/ruleset/"),
                      _ruleset_post(page_world, bonus_per_tile=10**6))
    assert bad.status_code == 400
    assert re.search(r'id="id_bonus_per_tile_error"', bad.content.decode())
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.ruleset["bonus_per_tile"] == 50


def test_settings_save(page_world):
    response = _admin(page_world).post(page_world.url("manage/settings/"),
                                       {"name": "Ryza renamed", "visibility": "public"})
    assert response.status_code == 302
    page_world.campaign.refresh_from_db()
    assert (page_world.campaign.name, page_world.campaign.visibility) == ("Ryza renamed", "public")
    blank = _admin(page_world).post(page_world.url("manage/settings/"),
                                    {"name": "", "visibility": "x"})
    assert blank.status_code == 400 and 'id="id_name_error"' in blank.content.decode()


def _upload(document) -> SimpleUploadedFile:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile("map.json", body, content_type="application/json")


def test_map_import_replaces_the_map(db):
    admin = UserFactory(username="boss")
    campaign = CampaignFactory()
    campaign.admins.add(admin)
    document = {"planets": [{"id": "p", "name": "Vigilus", "tiles": [
        {"id": "t1", "q": 0, "r": 0}, {"id": "t2", "q": 1, "r": 0, "features": ["mountain"]}]}]}
    response = client_for(admin).post(f"/campaigns/{campaign.pk}/manage/map/",
                                      {"document": _upload(document)})
    assert response.status_code == 302
    assert Planet.objects.get(campaign=campaign).name == "Vigilus"
    assert Tile.objects.filter(campaign=campaign).count() == 2


def test_map_import_lists_errors_by_document_path(page_world):
    document = {"planets": [{"id": "p", "name": "X", "tiles": [
        {"id": "t1", "q": 0, "r": 0, "features": ["lava"]}]}]}
    response = _admin(page_world).post(page_world.url("manage/map/"),
                                       {"document": _upload(document)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "<code>planets[0].tiles[0].features[0]</code>: unknown feature" in html
    assert 'id="id_document_error"' in html
    assert Planet.objects.filter(campaign=page_world.campaign, name="Alpha").exists()
    broken = _admin(page_world).post(page_world.url("manage/map/"), {"document": _upload(b"{nope")})
    assert broken.status_code == 400 and "Not valid JSON" in broken.content.decode()


def test_add_player(page_world):
    UserFactory(username="erik")
    client = _admin(page_world)
    response = client.post(page_world.url("manage/players/"),
                           {"username": "erik", "faction": "Necrons", "colour": "#00aa00"})
    assert response.status_code == 302
    assert page_world.campaign.players.filter(user__username="erik", faction="Necrons").exists()
    again = client.post(page_world.url("manage/players/"),
                        {"username": "erik", "faction": "Necrons", "colour": "#00aa00"})
    assert again.status_code == 400
    assert re.search(r'id="id_username_error"><li>This user already plays',
                     again.content.decode())
    nobody = client.post(page_world.url("manage/players/"),
                         {"username": "ghost", "faction": "X", "colour": "#000000"})
    assert 'id="id_username_error"><li>No such user' in nobody.content.decode()


def test_set_the_deadline(page_world):
    response = _admin(page_world).post(page_world.url("manage/deadline/"),
                                       {"phase_deadline": "2031-05-04T18:30"})
    assert response.status_code == 302
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase_deadline == datetime(2031, 5, 4, 18, 30, tzinfo=UTC)
    bad = _admin(page_world).post(page_world.url("manage/deadline/"), {"phase_deadline": "soon"})
    assert bad.status_code == 400 and 'id="id_phase_deadline_error"' in bad.content.decode()


def test_advance_moves_once_per_click(page_world, django_capture_on_commit_callbacks):
    client = _admin(page_world)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_world.url("manage/advance/"),
                               {"expected_phase": "declare", "confirm": "yes"})
    assert response.status_code == 302
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.LISTS  # fleets ran its job and moved on
    client.post(page_world.url("manage/advance/"),
                {"expected_phase": "declare", "confirm": "yes"})  # a stale click
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.LISTS


def test_start_a_campaign(db):
    from tests.factories import PlayerFactory

    player = PlayerFactory()
    admin = UserFactory(username="starter")
    player.campaign.admins.add(admin)
    client_for(admin).post(f"/campaigns/{player.campaign.pk}/manage/advance/",
                           {"expected_phase": "", "confirm": "yes"})
    assert player.campaign.rounds.get().number == 1


def test_enter_and_correct_a_result(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "battles")
    battle = Battle.objects.get(attack=attack)
    client = _admin(page_world)
    page = client.get(page_world.url("manage/")).content.decode()
    assert f'id="battle-{battle.pk}"' in page
    response = client.post(page_world.url(f"manage/battles/{battle.pk}/result/"),
                           {f"b{battle.pk}-outcome": "victory", f"b{battle.pk}-attacker_vp": 12,
                            f"b{battle.pk}-defender_vp": 4})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert (battle.outcome, battle.attacker_vp, battle.result_status) == ("victory", 12,
                                                                         "confirmed")
    bad = client.post(page_world.url(f"manage/battles/{battle.pk}/result/"),
                      {f"b{battle.pk}-outcome": "victory", f"b{battle.pk}-attacker_vp": -1,
                       f"b{battle.pk}-defender_vp": 4})
    assert bad.status_code == 400
    assert f'id="id_b{battle.pk}-attacker_vp_error"' in bad.content.decode()


def test_results_before_the_battles_phase_are_refused_on_the_form(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "lists")
    battle = Battle.objects.get(attack=attack)
    response = _admin(page_world).post(page_world.url(f"manage/battles/{battle.pk}/result/"),
                                       {f"b{battle.pk}-outcome": "draw",
                                        f"b{battle.pk}-attacker_vp": 0,
                                        f"b{battle.pk}-defender_vp": 0})
    assert response.status_code == 400 and "from the battles phase on" in \
        response.content.decode()
    battle.refresh_from_db()
    assert battle.result_status == ""


def test_staff_create_a_campaign_from_the_list(db):
    staff = UserFactory(username="staffer", is_staff=True)
    client = client_for(staff)
    assert "New campaign" in client.get("/").content.decode()
    response = client.post("/campaigns/new/", {"name": "Octarius", "visibility": "private"})
    campaign = Campaign.objects.get(name="Octarius")
    assert response["Location"] == f"/campaigns/{campaign.pk}/manage/"
    assert campaign.admins.filter(pk=staff.pk).exists()
    invalid = client.post("/campaigns/new/", {"name": "", "visibility": "private"})
    assert invalid.status_code == 400 and 'id="id_name_error"' in invalid.content.decode()


def test_players_may_not_create_campaigns(page_world):
    client = client_for(page_world.lg.a.user)
    assert "New campaign" not in client.get("/").content.decode()
    assert client.post("/campaigns/new/", {"name": "Mine", "visibility": "public"}
                       ).status_code == 403
    assert not Campaign.objects.filter(name="Mine").exists()


def test_r_bat_3_the_admin_form_refuses_a_moral_victory_behind_on_points(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["b-edge"])
    advance_to(page_world.rnd, "battles")
    battle = Battle.objects.get(attack=attack)
    url = page_world.url(f"manage/battles/{battle.pk}/result/")
    moral = {f"b{battle.pk}-outcome": "moral_victory", f"b{battle.pk}-attacker_vp": 12,
             f"b{battle.pk}-defender_vp": 4}
    assert _admin(page_world).post(url, moral).status_code == 302
    response = _admin(page_world).post(url, {**moral, f"b{battle.pk}-attacker_vp": 4})
    assert response.status_code == 400
    html = response.content.decode()
    error = html.split(f'id="id_b{battle.pk}-outcome_error"', 1)[1].split("</", 1)[0]
    assert "R-BAT-3" in error and "attacker ahead on points" in error
    battle.refresh_from_db()
    assert (battle.outcome, battle.attacker_vp, battle.defender_vp) == ("moral_victory", 12, 4)
