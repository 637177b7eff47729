"""Account endpoints: rotating the API token, the caller's profile,
the caller's personal data; a token does not survive a password change; the new endpoints take
JSON only."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from campaigns.services.accounts import profile_of
from tests.worlds import ANNA_UNIT, BEN_UNIT, SECRET_SHIP, hand_in, page_duel

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse 42"  # tests/factories.py


def api(key: str | None) -> APIClient:
    client = APIClient()
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_rotate_gives_a_new_token_and_the_old_one_stops_working(outsider):
    old = Token.objects.create(user=outsider).key
    response = api(old).post(reverse("api:token-rotate"), {"current_password": PASSWORD},
                             format="json")
    assert response.status_code == 200
    new = response.json()["token"]
    assert new != old
    assert api(old).get(reverse("api:me")).status_code == 401
    assert api(new).get(reverse("api:me")).json()["username"] == "outsider"


def test_rotate_needs_credentials(db):
    response = api(None).post(reverse("api:token-rotate"), format="json")
    assert response.status_code == 401 and response.json()["code"]


def test_rotate_is_throttled(outsider, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "account": "2/min"})
    client = APIClient()
    client.force_authenticate(outsider)
    statuses = [client.post(reverse("api:token-rotate"), {"current_password": PASSWORD},
                            format="json").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_a_token_does_not_survive_a_password_change(outsider):
    key = Token.objects.create(user=outsider).key
    assert api(key).get(reverse("api:me")).status_code == 200
    page = Client()
    page.force_login(outsider)
    page.post(reverse("password_change"), {"old_password": PASSWORD,
                                           "new_password1": "a much longer secret 9",
                                           "new_password2": "a much longer secret 9"})
    assert api(key).get(reverse("api:me")).status_code == 401


def test_profile_get_and_patch(outsider):
    key = Token.objects.create(user=outsider).key
    url = reverse("api:my-profile")
    assert api(key).get(url).json() == {"display_name": "", "language": "", "time_zone": ""}
    response = api(key).patch(url, {"time_zone": "Europe/Berlin", "language": "de"},
                              format="json")
    assert response.status_code == 200 and response.json()["time_zone"] == "Europe/Berlin"
    assert profile_of(outsider).language == "de"


@pytest.mark.parametrize("body", [{"time_zone": "Mars/Olympus"}, {"language": "fr"},
                                  {"display_name": "two\nlines"}, {"is_staff": True}])
def test_profile_patch_refuses_bad_values_naming_the_field(outsider, body):
    key = Token.objects.create(user=outsider).key
    response = api(key).patch(reverse("api:my-profile"), body, format="json")
    assert response.status_code == 400
    assert next(iter(body)) in str(response.json())
    outsider.refresh_from_db()
    assert not outsider.is_staff and profile_of(outsider).time_zone == ""


def test_profile_patch_takes_json_only(outsider):
    key = Token.objects.create(user=outsider).key
    response = api(key).patch(reverse("api:my-profile"), {"language": "de"},
                              format="multipart")
    assert response.status_code == 415 and profile_of(outsider).language == ""


def test_my_data_has_own_entries_and_none_of_another_players_hidden_ones(page_world):
    lg = page_world.lg
    battle = page_duel(page_world)
    hand_in(battle, lg.a, ANNA_UNIT)
    hand_in(battle, lg.b, BEN_UNIT)
    key = Token.objects.create(user=lg.a.user).key
    response = api(key).get(reverse("api:my-data"))
    assert response.status_code == 200
    body = response.content.decode()
    assert ANNA_UNIT in body and "Mechanicus" in body
    assert BEN_UNIT not in body and SECRET_SHIP not in body
