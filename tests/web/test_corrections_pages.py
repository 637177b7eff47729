"""The organiser's corrections on the pages (R-SEC-2), in English and German: the player's
corrections page, the battle page's corrections, refusals next to their field, the reason
in the audit log page."""

from campaigns.models import AdminAction
from tests.worlds import client_for, declare, duel, row, tile


def _declaring(lg):
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    rnd = lg.start()
    return rnd, declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))


def _page(lg):
    return f"/campaigns/{lg.campaign.pk}/manage/members/players/{lg.a.pk}/corrections/"


def test_r_sec_2_the_corrections_page_in_english_and_german(lg):
    _declaring(lg)
    client = client_for(lg.admin)
    english = client.get(_page(lg)).content.decode()
    assert "Requisition and attack armies" in english and "Cancel the declaration" in english
    german = client.get(_page(lg), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Korrekturen" in german and "Ansage streichen" in german


def test_r_sec_2_a_player_may_not_open_the_corrections_page(lg):
    _declaring(lg)
    assert client_for(lg.b.user).get(_page(lg)).status_code == 403


def test_r_atk_5_cancel_on_the_page_gives_the_army_back(lg):
    rnd, attack = _declaring(lg)
    client = client_for(lg.admin)
    response = client.post(_page(lg) + f"attacks/{attack.pk}/cancel/",
                           {"cancel-reason": "Wrong tile"})
    assert response.status_code == 302
    attack.refresh_from_db()
    assert attack.status == "cancelled"
    log = client.get(f"/campaigns/{lg.campaign.pk}/log/").content.decode()
    assert "Wrong tile" in log


def test_r_sec_2_missing_reason_shows_the_page_again_with_the_error(lg):
    _declaring(lg)
    response = client_for(lg.admin).post(_page(lg) + "armies/", {"armies-requisition": 3,
                                                                  "armies-reason": ""})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert not AdminAction.objects.filter(kind="player.armies").exists()


def test_r_eco_1_armies_restored_on_the_page(lg):
    _declaring(lg)
    response = client_for(lg.admin).post(_page(lg) + "armies/", {
        "armies-requisition": 5, "armies-armies": 1, "armies-reason": "Mistaken tap"})
    assert response.status_code == 302
    entry = AdminAction.objects.get(kind="player.armies")
    assert entry.after == {"requisition": 5, "armies": 1}


def test_r_bat_4_void_from_the_battle_page(lg):
    battle = duel(lg, "battles")
    lg.set_rules(early_advance=False)
    client = client_for(lg.admin)
    base = f"/campaigns/{lg.campaign.pk}/manage/battles/{battle.pk}/"
    assert client.post(base + "correct/", {"correct-outcome": "victory",
                                           "correct-attacker_vp": 5, "correct-defender_vp": 1,
                                           "correct-reason": "Entered late"}).status_code == 302
    page = client.get(f"/campaigns/{lg.campaign.pk}/battles/{battle.pk}/").content.decode()
    assert 'id="corrections"' in page and "Void the result" in page
    assert client.post(base + "void/", {"void-reason": "Wrong battle"}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == "open" and battle.result_status == ""
    again = client.post(base + "void/", {"void-reason": "again"})
    assert again.status_code == 409


def test_r_sec_2_players_see_no_corrections_on_the_battle_page(lg):
    battle = duel(lg, "battles")
    page = client_for(lg.a.user).get(f"/campaigns/{lg.campaign.pk}/battles/{battle.pk}/")
    assert 'id="corrections"' not in page.content.decode()
