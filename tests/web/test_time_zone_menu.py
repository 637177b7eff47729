"""The time zone menus (home page, manage page, sign-up, profile): canonical zones only, grouped
by region with <optgroup>, the club's common zones first; a stored legacy zone still shows and
stays; where the menu holds only the site's default the browser's zone is suggested
(``data-browser-zone``; the script is tested in tests/e2e/test_phone_pages.py)."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services.accounts import profile_update
from tests.factories import UserFactory
from tests.worlds import client_for

pytestmark = pytest.mark.django_db

COMMON = ["Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/London", "UTC"]
LEGACY = ["US/Pacific", "Etc/GMT+3", "CET", "GB", "Europe/Belfast", "Asia/Calcutta"]


def _menu(html: str) -> str:
    return re.search(r'<select name="time_zone".*?</select>', html, re.S).group(0)


def _values(menu: str) -> list[str]:
    return re.findall(r'<option value="([^"]*)"', menu)


def test_the_menu_lists_canonical_zones_grouped_with_the_common_ones_first(settings):
    staff = UserFactory(username="chef", is_staff=True)
    menu = _menu(client_for(staff).get("/").content.decode())
    values = _values(menu)
    assert values[:5] == COMMON
    assert len(values) == len(set(values)) and 300 < len(values) < 450
    assert not set(LEGACY) & set(values)
    assert {"Europe/Amsterdam", "Europe/Vaduz", "America/New_York", "Asia/Kolkata"} <= set(values)
    groups = re.findall(r'<optgroup label="([^"]+)"', menu)
    assert groups[:2] == ["Common zones", "Europe"] and "Pacific Ocean" in groups
    # a region's zones are named by place: "Isle of Man" under "Europe"
    assert '<option value="Europe/Isle_of_Man">Isle of Man</option>' in menu
    assert len(menu.encode()) < 25_000  # was 35 KB with every alias


def test_the_home_menu_suggests_the_browser_s_zone_only_over_the_site_default(settings):
    staff = UserFactory(username="chef", is_staff=True)
    plain = _menu(client_for(staff).get("/").content.decode())
    assert f'data-browser-zone="{settings.CAMPAIGN_TIME_ZONE}"' in plain
    profile_update(user=staff, time_zone="Europe/Vienna")
    own = _menu(client_for(staff).get("/").content.decode())
    assert "data-browser-zone" not in own and '<option value="Europe/Vienna" selected>' in own


def test_sign_up_suggests_the_browser_s_zone_and_the_profile_keeps_its_default(settings):
    settings.OPEN_SIGNUP = True
    signup = _menu(client_for(None).get(reverse("signup")).content.decode())
    assert "data-browser-zone" in signup and _values(signup)[:6] == ["", *COMMON]
    user = UserFactory(username="ida")
    profile = _menu(client_for(user).get(reverse("profile")).content.decode())
    assert "data-browser-zone" not in profile  # "Default" is a choice there, kept as it is


def test_a_stored_legacy_zone_still_shows_and_stays(page_world):
    Campaign.objects.filter(pk=page_world.campaign.pk).update(time_zone="US/Pacific")
    admin = client_for(page_world.lg.admin)
    menu = _menu(admin.get(page_world.url("manage/")).content.decode())
    assert '<optgroup label="Other">' in menu
    assert '<option value="US/Pacific" selected>US/Pacific</option>' in menu
    response = admin.post(page_world.url("manage/settings/"),
                          {"name": "Renamed", "visibility": "private", "time_zone": "US/Pacific"})
    assert response.status_code == 302
    page_world.campaign.refresh_from_db()
    assert (page_world.campaign.name, page_world.campaign.time_zone) == ("Renamed", "US/Pacific")


def test_the_region_names_are_german_for_a_german_reader():
    """Passes once the catalogue is compiled (the lead's compilemessages)."""
    staff = UserFactory(username="chef", is_staff=True)
    menu = _menu(client_for(staff).get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode())
    groups = re.findall(r'<optgroup label="([^"]+)"', menu)
    assert groups[:2] == ["Häufige Zonen", "Europa"] and "Pazifischer Ozean" in groups
