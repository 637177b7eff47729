"""Generated API clients: one media type per operation. JSON endpoints declare and
accept ``application/json`` only; the roster upload declares and accepts
``multipart/form-data`` only; any other body is a 415 in the API's JSON error shape, documented
on every operation that takes a body. Logging in needs no credentials in the schema (a
generated client logs in with a plain ``Client``)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.worlds import ADMIN, PLAYER, api

pytestmark = pytest.mark.django_db
UPLOADS = {"v1_campaigns_battles_army_list_upload_create"}
PASSWORD = "correct horse 42"  # tests/factories.py UserFactory


@pytest.fixture(scope="module")
def schema():
    return APIClient().get("/api/schema/?format=json").json()


def operations(schema: dict):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_json_endpoints_declare_json_bodies_and_uploads_multipart_only(schema):
    declared = {operation["operationId"]: sorted(operation["requestBody"]["content"])
                for _, _, operation in operations(schema) if "requestBody" in operation}
    assert len(declared) >= 35
    wrong = {name: types for name, types in declared.items()
             if types != (["multipart/form-data"] if name in UPLOADS else ["application/json"])}
    assert not wrong, wrong
    assert declared.keys() >= UPLOADS


def test_every_operation_with_a_body_documents_the_415(schema):
    undocumented = [f"{method.upper()} {path}" for path, method, operation in operations(schema)
                    if "requestBody" in operation and "415" not in operation["responses"]]
    assert not undocumented, undocumented


def test_logging_in_needs_no_credentials_in_the_schema(schema):
    login = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert not login.get("security") and not schema.get("security")


def error_shape(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content
    body = response.json()
    assert set(body) == {"detail", "code", "errors"}, body
    return body


@pytest.mark.parametrize("content", ["form", "multipart"])
def test_a_form_login_is_a_415_in_the_error_shape(content):
    credentials = {"username": UserFactory(username="lena").username, "password": PASSWORD}
    client = APIClient()
    if content == "form":
        response = client.generic("POST", reverse("api:token"),
                                  f"username=lena&password={PASSWORD}",
                                  content_type="application/x-www-form-urlencoded")
    else:
        response = client.post(reverse("api:token"), credentials, format="multipart")
    assert response.status_code == 415, response.content
    assert error_shape(response)["code"] == "unsupported_media_type"
    assert client.post(reverse("api:token"), credentials, format="json").status_code == 200


def test_form_posts_to_json_endpoints_are_415_in_the_error_shape(security_world):
    """The player's purchase (the demo is in ``declare``), the admin's advance and campaign
    edit, the player's army list (the private campaign is in ``lists``): each the 415; the
    same as JSON is read (whatever the rules then say)."""
    world, public, private = security_world, security_world.public, security_world.private
    player, admin = world.users[PLAYER], world.users[ADMIN]
    asks = [
        (player, reverse("api:purchases", kwargs={"campaign_id": public.campaign,
                                                   "number": public.round}),
         "post", {"attack_armies": 1}),
        (admin, reverse("api:campaign-detail", kwargs={"campaign_id": private.campaign}),
         "patch", {"name": "Renamed front"}),
        (player, reverse("api:battle-army-list", kwargs={"campaign_id": private.campaign,
                                                         "battle_id": private.battle}),
         "post", {"name": "Spearhead", "text": "Captain - 85"}),
    ]
    for user, url, method, body in asks:
        for content_type, encoded in (
                ("application/x-www-form-urlencoded", "&".join(
                    f"{k}={v}" for k, v in body.items())),
                ("text/plain", str(body))):
            response = api(user).generic(method.upper(), url, encoded, content_type=content_type)
            assert response.status_code == 415, (url, content_type, response.content)
            assert error_shape(response)["code"] == "unsupported_media_type"
        multipart = getattr(api(user), method)(url, body, format="multipart")
        assert multipart.status_code == 415, (url, multipart.content)
        as_json = getattr(api(user), method)(url, body, format="json")
        assert as_json.status_code not in (415, 500), (url, as_json.content)
