"""Who may open which page: 404 for a campaign a signed-in user may not see, the login page
for an anonymous visitor of a page that needs an account or of a campaign they may not see
(private or missing alike), 403 for a member lacking the right."""

import pytest

from tests.worlds import client_for

VIEW_PAGES = ["", "map/", "fleets/", "standings/", "rounds/1/audit/"]
PLAYER_PAGES = ["conquest/"]
ADMIN_PAGES = ["manage/"]
ALL_PAGES = VIEW_PAGES + PLAYER_PAGES + ADMIN_PAGES


def _user(world, role):
    return {"anonymous": None, "outsider": world.outsider, "player": world.lg.a.user,
            "other_player": world.lg.b.user, "admin": world.lg.admin}[role]


def _expected(visibility: str, role: str, rest: str) -> int:
    if visibility == "private" and role == "outsider":
        return 404
    if visibility == "private" and role == "anonymous":
        return 302  # to the login page, as for a missing campaign
    if rest in VIEW_PAGES:
        return 200
    if role == "anonymous":
        return 302  # to the login page
    if rest in PLAYER_PAGES:
        return 200 if role in ("player", "other_player") else 403
    return 200 if role == "admin" else 403


ROLES = ["anonymous", "outsider", "player", "other_player", "admin"]


def _check_status(world, outsider, role: str, rest: str) -> None:
    world.outsider = outsider
    response = client_for(_user(world, role)).get(world.url(rest))
    assert response.status_code == _expected(world.campaign.visibility, role, rest)
    if response.status_code == 302:
        assert response["Location"].startswith("/accounts/login/?next=")
    if response.status_code == 403:
        assert b"Not allowed" in response.content


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("rest", ALL_PAGES)
def test_status_per_page_and_role_in_a_private_campaign(page_world, outsider, role, rest):
    _check_status(page_world, outsider, role, rest)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("rest", ALL_PAGES)
def test_status_per_page_and_role_in_a_public_campaign(public_page_world, outsider, role, rest):
    _check_status(public_page_world, outsider, role, rest)


def test_missing_campaign_is_404(db, outsider):
    assert client_for(outsider).get("/campaigns/999999/").status_code == 404


def test_tabs_show_only_what_the_viewer_may_open(page_world):
    player_page = client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    admin_page = client_for(page_world.lg.admin).get(page_world.url()).content.decode()
    assert (page_world.url("conquest/") in player_page
            and page_world.url("manage/") not in player_page)
    assert page_world.url("manage/") in admin_page and page_world.url("conquest/") not in admin_page


def test_writes_need_the_right_role(page_world):
    admin = client_for(page_world.lg.admin)
    assert admin.post(page_world.url("map/purchase/"), {"attack_armies": 1}).status_code == 403
    player = client_for(page_world.lg.a.user)
    assert player.post(page_world.url("manage/settings/"),
                       {"name": "Mine now", "visibility": "public"}).status_code == 403
    assert client_for().post(page_world.url("map/purchase/"),
                             {"attack_armies": 1}).status_code == 302  # to the login page
    assert player.get(page_world.url("map/purchase/")).status_code == 405
