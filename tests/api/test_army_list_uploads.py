"""Army lists through the API with the files and texts players really hand in (
R-ARM-1..3): a Horus Heresy roster priced in ``Point(s)`` is checked against the limit, rosters
without points are a 400 ``R-ARM-2`` naming their cost types, files are recognised by their
content, list settings come with the list (and stay hidden with it), app text exports are read.
The rosters and texts are built in tests/battles/roster_shapes.py and tests/battles/fixtures/."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from battles.models import ArmyList
from tests.battles.roster_shapes import (
    W40K_SETTINGS,
    fixture_text,
    horus_heresy_roster,
    kill_team_roster,
    macos_rezip,
    wh40k_roster,
)
from tests.worlds import api, duel

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(lg):
    return duel(lg)  # both limits 1500


def url(lg, battle):
    return lg.url(f"battles/{battle.pk}/army-list/")


def upload(lg, battle, user, name: str, content: bytes):
    file = SimpleUploadedFile(name, content, content_type="application/octet-stream")
    return api(user).post(url(lg, battle) + "upload/", {"file": file},
                          format="multipart")  # roster files: multipart only


def test_r_arm_1_a_2998_point_horus_heresy_roster_is_refused_over_1500(lg, battle):
    response = upload(lg, battle, lg.a.user, "legion.rosz", horus_heresy_roster())
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "R-ARM-1"
    assert "2998 points" in body["detail"] and "1500" in body["detail"]
    assert "1498 over" in body["detail"]
    assert not ArmyList.objects.exists()


def test_r_arm_2_a_roster_without_points_is_a_400_naming_its_cost_types(lg, battle):
    response = upload(lg, battle, lg.a.user, "kommandos.ros", kill_team_roster())
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "R-ARM-2"
    assert "cost types: EP" in body["errors"]["file"][0]
    assert "counts points" in body["detail"]
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("name, content, source", [
    ("Gladius", wh40k_roster(), "ros"),  # saved without extension
    ("Gladius.rosz", wh40k_roster(), "ros"),  # a .rosz holding plain XML
    ("Gladius.rosz", macos_rezip(wh40k_roster()), "rosz"),  # Finder's re-zip
], ids=["no-extension", "rosz-holding-xml", "macos-rezip"])
def test_r_arm_2_roster_files_are_recognised_by_content(lg, battle, name, content, source):
    response = upload(lg, battle, lg.a.user, name, content)
    assert response.status_code == 201, response.json()
    assert (response.json()["total"], response.json()["source"]) == (250, source)


def test_r_arm_2_list_settings_come_with_the_list_not_as_units(lg, battle):
    response = upload(lg, battle, lg.a.user, "gladius.ros", wh40k_roster())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [e["name"] for e in body["entries"]] == ["Captain", "Intercessor Squad", "Nurglings"]
    assert body["settings"] == [{"name": n, "value": v} for n, v in W40K_SETTINGS]
    mine = api(lg.a.user).get(url(lg, battle)).json()["lists"]
    assert mine[0]["settings"] == body["settings"]


def test_r_arm_3_list_settings_stay_hidden_with_the_list_until_revealed(lg, battle):
    upload(lg, battle, lg.a.user, "gladius.ros", wh40k_roster())
    assert api(lg.b.user).get(url(lg, battle)).json()["lists"] == []
    text = {"name": "Waaagh", "text": "Warboss - 100\nBoyz - 170"}
    assert api(lg.b.user).post(url(lg, battle), text, format="json").status_code == 201
    seen = api(lg.b.user).get(url(lg, battle)).json()["lists"]
    assert [x["settings"] for x in seen] == [
        [{"name": n, "value": v} for n, v in W40K_SETTINGS], []]


@pytest.mark.parametrize("fixture, total", [
    ("aos_app.txt", 1990), ("wh40k_app.txt", 770), ("newrecruit_wtc.txt", 525),
    ("newrecruit_text.txt", 250), ("listbot.txt", 900)])
def test_r_arm_2_app_text_exports_are_read(lg, battle, fixture, total):
    """Each export is read at its total: the Age of Sigmar list (1990) is over the limit."""
    response = api(lg.a.user).post(url(lg, battle), {"text": fixture_text(fixture)},
                                   format="json")
    if total > 1500:
        assert response.status_code == 400 and response.json()["code"] == "R-ARM-1"
        assert f"{total} points" in response.json()["detail"]
        return
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["total"], body["roster_total"], body["warnings"]) == (total, total, [])
    assert body["settings"]


def test_r_arm_2_an_unreadable_export_names_the_line(lg, battle):
    text = fixture_text("listbot.txt").replace("- 10 x Sequitors (250)", "- 10 x Sequitors")
    response = api(lg.a.user).post(url(lg, battle), {"text": text}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["text"][0].startswith('Line 8: cannot read "10 x Sequitors"')
