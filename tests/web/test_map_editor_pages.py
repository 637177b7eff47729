"""The map editor's planets and tiles page: add, rename and delete planets;
add, move, name and delete tiles, set owners, features (R-MAP-2), markers (R-MRK) and links
(R-MAP-1) through plain forms; refusals are form errors, never a 500; German; admin only."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns.models import AdminAction, Marker, Planet, Round, Tile, TileLink
from tests.factories import MarkerTypeFactory, TileFactory
from tests.worlds import advance_to, client_for, make_league

pytestmark = pytest.mark.django_db

DELETE = {"confirm": "delete"}


class Editor:
    def __init__(self):
        self.lg = make_league()
        self.campaign = self.lg.campaign
        self.client = client_for(self.lg.admin)
        self.base = f"/campaigns/{self.campaign.pk}/manage/map/editor/"

    def post(self, rest: str, data=None):
        return self.client.post(self.base + rest, data or {})

    def page(self, query: str = ""):
        return self.client.get(self.base + query)


@pytest.fixture
def editor():
    return Editor()


def test_only_the_campaign_admin_opens_the_editor(editor):
    assert editor.page().status_code == 200
    assert client_for(editor.lg.a.user).get(editor.base).status_code == 403
    assert client_for(editor.lg.a.user).post(editor.base + "planets/",
                                              {"new-name": "X"}).status_code == 403
    assert not Planet.objects.filter(campaign=editor.campaign).exists()


def test_add_rename_and_delete_a_planet(editor):
    response = editor.post("planets/", {"new-name": "Armageddon"})
    assert response.status_code == 302
    planet = Planet.objects.get(campaign=editor.campaign)
    assert f"planet={planet.pk}" in response["Location"]
    html = editor.page(f"?planet={planet.pk}").content.decode()
    assert "Armageddon" in html and 'class="hex slot' in html
    assert editor.post(f"planets/{planet.pk}/rename/", {"planet-name": "Ryza"}).status_code == 302
    planet.refresh_from_db()
    assert planet.name == "Ryza"
    assert editor.post(f"planets/{planet.pk}/delete/", DELETE).status_code == 302
    assert not Planet.objects.filter(pk=planet.pk).exists()


def test_empty_hexes_are_focusable_links_that_add_a_tile(editor):
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=0, r=0)
    html = editor.page(f"?planet={planet.pk}").content.decode()
    # free hexes two rings around the tile, each a link with a label (keyboard: Tab + Enter)
    assert html.count('class="hex slot') == 18
    assert 'aria-label="Empty hex (1, -1): add a tile here"' in html
    response = editor.post(f"planets/{planet.pk}/tiles/", {"slot-q": "1", "slot-r": "-1"})
    assert response.status_code == 302 and response["Location"].endswith("#tile-panel")
    tile = Tile.objects.get(planet=planet, q=1, r=-1)
    assert f"tile={tile.pk}" in response["Location"]


def test_adding_a_tile_on_an_occupied_hex_is_a_form_error(editor):
    """R-MAP-1: one tile per hex; the refusal names the hex next to the field, not a 500."""
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=0, r=0)
    response = editor.post(f"planets/{planet.pk}/tiles/", {"slot-q": "0", "slot-r": "0"})
    assert response.status_code == 400
    assert "The planet has a tile at (0, 0) already." in response.content.decode()
    assert 'id="id_slot-q_error"' in response.content.decode()
    bad = editor.post(f"planets/{planet.pk}/tiles/", {"slot-q": "x", "slot-r": "10**9"})
    assert bad.status_code == 400
    assert Tile.objects.filter(planet=planet).count() == 1


def test_name_owner_and_features_of_a_tile(editor):
    planet = editor.lg.planet("Alpha")
    tile = TileFactory(planet=planet, q=0, r=0)
    response = editor.post(f"tiles/{tile.pk}/edit/", {
        "tile-name": " Hive Gate ", "tile-owner": editor.lg.a.pk,
        "tile-features": ["spaceport", "mountain"]})
    assert response.status_code == 302
    tile.refresh_from_db()
    assert (tile.name, tile.owner, tile.features) == ("Hive Gate", editor.lg.a,
                                                      ["mountain", "spaceport"])
    html = editor.page(f"?tile={tile.pk}").content.decode()
    assert 'aria-current="true"' in html and "Hive Gate" in html
    assert f'fill="{editor.lg.a.colour}"' in html


def test_a_too_long_tile_name_is_a_form_error(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    response = editor.post(f"tiles/{tile.pk}/edit/", {"tile-name": "x" * 41,
                                                      "tile-owner": "neutral"})
    assert response.status_code == 400
    assert 'id="id_tile-name_error"' in response.content.decode()


def test_move_a_tile_and_a_refused_move_onto_another_tile(editor):
    planet = editor.lg.planet("Alpha")
    tile = TileFactory(planet=planet, q=0, r=0)
    TileFactory(planet=planet, q=1, r=0)
    assert editor.post(f"tiles/{tile.pk}/move/", {"move-q": "-1", "move-r": "2"}).status_code \
        == 302
    tile.refresh_from_db()
    assert (tile.q, tile.r) == (-1, 2)
    response = editor.post(f"tiles/{tile.pk}/move/", {"move-q": "1", "move-r": "0"})
    assert response.status_code == 400
    assert "The planet has a tile at (1, 0) already." in response.content.decode()
    tile.refresh_from_db()
    assert (tile.q, tile.r) == (-1, 2)


def test_delete_a_tile(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    assert editor.post(f"tiles/{tile.pk}/delete/", DELETE).status_code == 302
    assert not Tile.objects.filter(pk=tile.pk).exists()


def test_markers_added_and_removed_and_refused_on_a_neutral_tile(editor):
    """R-MRK-4: a marker belongs to its tile's owner, so a neutral tile carries none."""
    MarkerTypeFactory(campaign=editor.campaign, code="relic", name="Relic")
    planet = editor.lg.planet("Alpha")
    neutral = TileFactory(planet=planet, q=0, r=0)
    owned = TileFactory(planet=planet, q=1, r=0, owner=editor.lg.a)
    refused = editor.post(f"tiles/{neutral.pk}/markers/", {"marker-type": "relic"})
    assert refused.status_code == 400
    assert "R-MRK-4" in refused.content.decode()
    assert editor.post(f"tiles/{owned.pk}/markers/", {"marker-type": "relic"}).status_code \
        == 302
    marker = Marker.objects.get(tile=owned)
    assert "Relic" in editor.page(f"?tile={owned.pk}").content.decode()
    assert editor.post(f"markers/{marker.pk}/delete/", DELETE).status_code == 302
    assert not Marker.objects.filter(tile=owned).exists()


def test_links_added_and_removed(editor):
    """R-MAP-1: an explicit adjacency between two tiles, here on two planets."""
    a = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    b = TileFactory(planet=editor.lg.planet("Beta"), q=0, r=0)
    assert editor.post(f"tiles/{a.pk}/links/", {"link-other": b.pk}).status_code == 302
    link = TileLink.objects.get()
    assert "Beta (0, 0)" in editor.page(f"?tile={a.pk}").content.decode()
    twice = editor.post(f"tiles/{b.pk}/links/", {"link-other": a.pk})
    assert twice.status_code == 400 and "linked already" in twice.content.decode()
    assert editor.post(f"tile-links/{link.pk}/delete/", {"from": a.pk, **DELETE}).status_code == 302
    assert not TileLink.objects.exists()


def test_german_editor(editor):
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=0, r=0)
    editor.client.cookies["django_language"] = "de"
    html = editor.client.get(editor.base, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in html
    assert "Karteneditor" in html and "Planet hinzufügen" in html
    assert "Leeres Feld (1, -1)" in html


def test_svg_numbers_have_no_decimal_comma_in_german(editor):
    """The editor's grid: every number in the SVG parses as a number."""
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=1, r=1)
    html = editor.client.get(editor.base, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    svg = html[html.index('<svg class="editor-grid"'):html.index("</svg>")]
    number = r"-?[0-9]+(\.[0-9])?"
    values = re.findall(r' (viewBox|width|height|x|y)="([^"]*)"', svg)
    assert len(values) > 40
    for name, value in values:
        assert all(re.fullmatch(number, part) for part in value.split(" ")), (name, value)
    for points in re.findall(r'points="([^"]*)"', svg):
        for pair in points.split(" "):
            assert re.fullmatch(f"{number},{number}", pair), points


def test_export_and_import_the_map_document(editor):
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=0, r=0, name="Hive Gate", owner=editor.lg.a)
    response = editor.page("export/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document["planets"][0]["tiles"][0]["name"] == "Hive Gate"
    document["planets"][0]["name"] = "Alpha Prime"
    upload = SimpleUploadedFile("map.json", json.dumps(document).encode(), "application/json")
    assert editor.post("import/", {"document": upload}).status_code == 302
    assert Tile.objects.get(campaign=editor.campaign).name == "Hive Gate"
    assert Planet.objects.get(campaign=editor.campaign).name == "Alpha Prime"
    broken = SimpleUploadedFile("map.json", b'{"planets": [{"tiles": []}]}')
    response = editor.post("import/", {"document": broken})
    assert response.status_code == 400 and "planets[0].name" in response.content.decode()


def test_a_correction_during_the_fleets_phase_is_a_409_form_error(editor):
    """R-RND-2: while the automatic fleets phase runs, the editor refuses."""
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    rnd = editor.lg.start()
    advance_to(rnd, "fleets")
    html = editor.page().content.decode()
    assert "corrections are refused" in html
    response = editor.post(f"tiles/{tile.pk}/edit/", {"tile-name": "Late",
                                                      "tile-owner": "neutral"})
    assert response.status_code == 409
    assert "R-RND-2" in response.content.decode()
    tile.refresh_from_db()
    assert tile.name == "" and not AdminAction.objects.exists()


def test_a_correction_in_a_running_campaign_is_logged_and_announced(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    editor.lg.start()
    assert "every change here is a correction" in editor.page().content.decode()
    assert editor.post(f"tiles/{tile.pk}/edit/", {"tile-name": "Gate",
                                                 "tile-owner": editor.lg.b.pk}).status_code == 302
    action = AdminAction.objects.get()
    assert action.actor == editor.lg.admin and action.kind == "tile.update"
    assert action.before == {"name": "", "owner": None}
    assert action.after == {"name": "Gate", "owner": editor.lg.b.faction}


def test_manage_page_links_the_editor_and_the_log(editor):
    html = editor.client.get(f"/campaigns/{editor.campaign.pk}/manage/").content.decode()
    assert editor.base in html and f"/campaigns/{editor.campaign.pk}/log/" in html


def test_without_script_an_empty_hex_link_fills_the_add_form(editor):
    planet = editor.lg.planet("Alpha")
    TileFactory(planet=planet, q=0, r=0)
    html = editor.page(f"?planet={planet.pk}&q=-1&r=2").content.decode()
    assert 'name="slot-q" value="-1"' in html and 'name="slot-r" value="2"' in html
    assert 'class="hex slot selected"' in html


def test_an_import_refused_while_the_fleets_phase_runs_is_a_409_form_error(editor):
    rnd = editor.lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.FLEETS)
    upload = SimpleUploadedFile("map.json", b'{"planets": []}', "application/json")
    response = editor.post("import/", {"document": upload})
    assert response.status_code == 409 and "R-RND-2" in response.content.decode()
    manage = editor.client.post(f"/campaigns/{editor.campaign.pk}/manage/map/", {
        "document": SimpleUploadedFile("map.json", b'{"planets": []}')})
    assert manage.status_code == 409 and "R-RND-2" in manage.content.decode()


def test_a_post_without_the_forms_fields_changes_nothing(editor):
    """A stray post neither clears a tile (the owner is always sent) nor deletes it."""
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0, owner=editor.lg.a,
                       name="Gate", features=["mountain"])
    assert editor.post(f"tiles/{tile.pk}/edit/").status_code == 400
    deleted = editor.post(f"tiles/{tile.pk}/delete/")
    assert deleted.status_code == 400 and 'id="action-errors"' in deleted.content.decode()
    tile.refresh_from_db()
    assert (tile.name, tile.owner, tile.features) == ("Gate", editor.lg.a, ["mountain"])


def test_a_tile_made_neutral_through_the_form(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0, owner=editor.lg.a)
    assert editor.post(f"tiles/{tile.pk}/edit/", {"tile-owner": "neutral"}).status_code == 302
    tile.refresh_from_db()
    assert tile.owner is None


# --- the admin's optional reason for a correction (R-SEC-2) ----------------------------------

REASON = "Tile owner fixed after the dispute of round 2"


def test_the_reason_field_is_shown_only_while_the_campaign_runs(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    assert 'name="tile-reason"' not in editor.page(f"?tile={tile.pk}").content.decode()
    editor.lg.start()
    html = editor.page(f"?tile={tile.pk}").content.decode()
    assert 'name="tile-reason"' in html and "Why? Shown in the audit log." in html
    assert 'name="new-reason"' in html and 'name="reason"' in html  # a delete's reason
    german = editor.client.get(editor.base + f"?tile={tile.pk}",
                               HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Warum? Steht im Protokoll." in german


def test_a_tile_owner_correction_with_a_reason_shows_on_the_audit_page(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    editor.lg.start()
    response = editor.post(f"tiles/{tile.pk}/edit/", {"tile-owner": editor.lg.b.pk,
                                                     "tile-reason": REASON})
    assert response.status_code == 302
    action = AdminAction.objects.get()
    assert (action.kind, action.after["owner"], action.reason) == (
        "tile.update", editor.lg.b.faction, REASON)
    log = editor.client.get(f"/campaigns/{editor.campaign.pk}/log/").content.decode()
    assert REASON in log


def test_a_reason_over_500_characters_is_a_400_next_to_the_field(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    editor.lg.start()
    response = editor.post(f"tiles/{tile.pk}/edit/", {"tile-owner": editor.lg.b.pk,
                                                     "tile-reason": "x" * 501})
    assert response.status_code == 400
    assert re.search(r'class="field invalid">\s*<label for="id_tile-reason"',
                     response.content.decode())
    deleted = editor.post(f"tiles/{tile.pk}/delete/", {**DELETE, "reason": "x" * 501})
    assert deleted.status_code == 400
    tile.refresh_from_db()
    assert tile.owner is None and not AdminAction.objects.exists()


def test_a_delete_and_the_manage_pages_import_take_the_reason(editor):
    tile = TileFactory(planet=editor.lg.planet("Alpha"), q=0, r=0)
    editor.lg.start()
    assert editor.post(f"tiles/{tile.pk}/delete/", {**DELETE, "reason": "Misplaced"}
                       ).status_code == 302
    manage = f"/campaigns/{editor.campaign.pk}/manage/"
    assert 'name="reason"' in editor.client.get(manage).content.decode()
    upload = SimpleUploadedFile("map.json", b'{"planets": []}', "application/json")
    assert editor.client.post(manage + "map/", {"document": upload, "reason": "Fresh map"}
                              ).status_code == 302
    assert list(AdminAction.objects.order_by("id").values_list("kind", "reason")) == [
        ("tile.delete", "Misplaced"), ("map.import", "Fresh map")]
