"""The campaign archive in pages: the manage page's Archive section (download, clone as sandbox,
the sandboxes), the sandbox banner on every page (EN/DE), the home page's archive import."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from campaigns.models import Campaign, Round
from league.services.archive import archive_export, campaign_clone_sandbox
from tests.factories import UserFactory
from tests.worlds import advance_to, build_fleet_phase, client_for, declare, hand_in, row, tile

pytestmark = pytest.mark.django_db
SENTINEL = "Sentinel Hidden Warlord"


def _world():
    """The fleets world in ``lists``: anna's list is in, ben's not (not revealed, R-ARM-3)."""
    sc = build_fleet_phase()
    lg = sc.league
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, sc.rnd, tile(alpha, 1, 0, lg.b))
    advance_to(sc.rnd, Round.Phase.LISTS)
    hand_in(attack.battle, lg.a, SENTINEL)
    return lg


def test_admin_downloads_the_archive_without_hidden_facts():
    lg = _world()
    response = client_for(lg.admin).get(f"/campaigns/{lg.campaign.pk}/manage/archive/")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    rnd = lg.campaign.rounds.get()
    assert SENTINEL not in text and bytes(rnd.server_seed).hex() not in text
    assert json.loads(text)["format"] == "feldzug-campaign"


def test_a_player_can_not_download_the_archive():
    lg = _world()
    response = client_for(lg.a.user).get(f"/campaigns/{lg.campaign.pk}/manage/archive/")
    assert response.status_code == 403
    assert SENTINEL not in response.content.decode()


def test_clone_as_sandbox_marks_every_page_en_and_de():
    lg = _world()
    client = client_for(lg.admin)
    response = client.post(f"/campaigns/{lg.campaign.pk}/manage/sandbox/")
    sandbox = Campaign.objects.get(sandbox_of=lg.campaign)
    assert response.status_code == 302 and response["Location"].endswith(
        f"/campaigns/{sandbox.pk}/manage/")
    for page in ("", "manage/", "map/", "battles/"):
        text = client.get(f"/campaigns/{sandbox.pk}/{page}").content.decode()
        assert f"Sandbox of {lg.campaign.name}" in text, page
    german = client.get(f"/campaigns/{sandbox.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"Sandkasten von {lg.campaign.name}" in german
    original = client.get(f"/campaigns/{lg.campaign.pk}/manage/").content.decode()
    assert "sandbox-banner" not in original
    assert f"/campaigns/{sandbox.pk}/manage/" in original  # listed in the Archive section
    assert client_for(lg.a.user).get(f"/campaigns/{sandbox.pk}/").status_code == 404


def test_manage_page_lists_sandboxes_in_bounded_queries(django_assert_max_num_queries):
    lg = _world()
    for _ in range(3):
        campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    client = client_for(lg.admin)
    client.get(f"/campaigns/{lg.campaign.pk}/manage/")
    with django_assert_max_num_queries(60):
        text = client.get(f"/campaigns/{lg.campaign.pk}/manage/").content.decode()
    assert text.count('href="/campaigns/') and 'id="sandbox-list"' in text


def _upload(document) -> SimpleUploadedFile:
    return SimpleUploadedFile("archive.json", json.dumps(document).encode(),
                              content_type="application/json")


def test_home_page_imports_an_archive():
    lg = _world()
    staff = UserFactory(username="staffer", is_staff=True)
    client = client_for(staff)
    assert 'id="import-archive-section"' in client.get("/").content.decode()
    document = archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    response = client.post("/campaigns/import/", {"archive": _upload(document)})
    created = Campaign.objects.filter(admins=staff).get()
    assert response.status_code == 302 and str(created.pk) in response["Location"]
    assert created.players.count() == len(lg.players)


def test_a_bad_archive_is_a_form_error_naming_the_path():
    lg = _world()
    staff = UserFactory(username="staffer", is_staff=True)
    document = archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    document["players"][0]["colour"] = "red"
    response = client_for(staff).post("/campaigns/import/", {"archive": _upload(document)})
    assert response.status_code == 400
    assert "players[0].colour" in response.content.decode()
    junk = SimpleUploadedFile("a.json", b"{not json", content_type="application/json")
    response = client_for(staff).post("/campaigns/import/", {"archive": junk},
                                      HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400 and "kein gültiges JSON" in response.content.decode()
    assert not Campaign.objects.filter(admins=staff).exists()


def test_only_who_may_create_campaigns_imports():
    lg = _world()
    document = archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    response = client_for(lg.a.user).post("/campaigns/import/", {"archive": _upload(document)})
    assert response.status_code == 403
    assert client_for(None).post("/campaigns/import/").status_code == 302


def test_an_imported_campaign_is_named_apart_paused_and_renamed_on_its_page():
    """The import in German: the name carries the import date, the campaign waits paused
    with the reason on its pages, and the manage page's settings rename it."""
    lg = _world()
    staff = UserFactory(username="staffer", is_staff=True)
    client = client_for(staff)
    document = archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    response = client.post("/campaigns/import/", {"archive": _upload(document)},
                           HTTP_ACCEPT_LANGUAGE="de", follow=True)
    created = Campaign.objects.filter(admins=staff).get()
    assert created.name.startswith(f"{lg.campaign.name} (importiert am ")
    assert created.paused_at is not None
    page = response.content.decode()
    assert "Importiert: prüf die Kampagne, dann setz sie fort" in page  # the paused banner
    assert f'name="name" value="{created.name}"' in page  # the settings form has it
    renamed = client.post(f"/campaigns/{created.pk}/manage/settings/", {
        "name": "Liga Nord, Kopie", "visibility": created.visibility,
        "time_zone": created.time_zone})
    assert renamed.status_code == 302
    assert Campaign.objects.get(pk=created.pk).name == "Liga Nord, Kopie"


def test_r_dice_3_an_archive_whose_dice_its_seed_does_not_give_is_a_form_error():
    sc = build_fleet_phase()
    advance_to(sc.rnd, Round.Phase.CLOSED)
    document = archive_export(campaign=sc.league.campaign, by=sc.league.admin,
                              now=timezone.now())
    roll = document["rounds"][0]["rolls"][0]
    roll["faces"][0] = roll["faces"][0] % roll["sides"] + 1
    staff = UserFactory(username="staffer", is_staff=True)
    response = client_for(staff).post("/campaigns/import/", {"archive": _upload(document)},
                                      HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    page = response.content.decode()
    assert "rounds[0].rolls[0].faces" in page
    assert f"Runde 1, Wurf {roll['counter']}" in page and "R-DICE-3" in page
    assert not Campaign.objects.filter(admins=staff).exists()
