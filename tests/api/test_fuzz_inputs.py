"""Bad input never gives a 5xx. Every write endpoint of the API (POST, PUT,
PATCH, read from the URL conf, its body built from the OpenAPI schema with every field
filled) and every page under ``/`` that takes a POST get NUL characters, lone surrogates,
5,000-digit numbers, JSON nested 100,000 deep and bodies over the size limit, as the campaign
admin and as a player (so permissions do not stop the request early), in the private campaign
(``lists``) and the public demo (``declare``) of tests/worlds.py. Each answer is a 4xx (an API
answer in the JSON error shape; a page a form error or a 400 page) and no row of any table
changed. Every API read and page also gets the numbers and NUL in its query, and a dropped
database connection is a 503 (JSON under /api/). Runs on PostgreSQL in CI, where NUL in text
is refused by the database itself."""

import importlib
import json
import pkgutil
import re
from collections.abc import Iterator

import pytest
from django import forms
from django.apps import apps
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

import web.forms
from tests.api.test_permission_matrix import ROWS
from tests.budget import picked
from tests.worlds import ADMIN, PLAYER, Scope, SecurityWorld

pytestmark = pytest.mark.django_db

NUL = "Bad\x00name"
SURROGATE = "Bad\ud800name"
HUGE = "9" * 5000
HUGE_MARK = "__huge_number__"
DEPTH = 100_000
WRITES = ("post", "put", "patch")
NOT_COUNTED = ("axes", "sessions")  # failed logins are logged on purpose; page sessions


# --- the world ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def world(security_world):
    rates = {scope: "1000000/min" for scope in SimpleRateThrottle.THROTTLE_RATES}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        yield security_world


def row_counts() -> tuple[int, ...]:
    """The number of rows of every table, in one query."""
    tables = [model._meta.db_table for model in apps.get_models()
              if model._meta.app_label not in NOT_COUNTED and model._meta.managed]
    quote = connection.ops.quote_name
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def asked(send):
    """``send()`` in a savepoint rolled back afterwards, with the row counts before and
    after it."""
    with transaction.atomic():
        before = row_counts()
        response = send()
        after = row_counts()
        transaction.set_rollback(True)
    return response, before == after


# --- the API's write endpoints and their bodies -----------------------------------------------

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict) -> dict:
    while "$ref" in schema:
        schema = SCHEMA["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    for combined in ("allOf", "oneOf", "anyOf"):
        if combined in schema:
            return _resolve(schema[combined][0])
    return schema


def filled(schema: dict, text: str, number, depth: int = 0):
    """A value of ``schema`` with every string ``text`` and every number ``number``."""
    schema = _resolve(schema)
    kind = schema.get("type")
    if depth > 6:
        return text
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {"name": {"type": "string"}}
        return {key: filled(sub, text, number, depth + 1) for key, sub in properties.items()}
    if kind == "array":
        return [filled(schema.get("items", {}), text, number, depth + 1)]
    if kind in ("integer", "number"):
        return number
    if kind == "boolean":
        return True
    return text


def request_body(path: str, method: str) -> dict | None:
    """The JSON schema of an operation's request body; None when it documents none."""
    body = SCHEMA["paths"][path][method].get("requestBody")
    if body is None:
        return None
    content = body.get("content", {})
    chosen = content.get("application/json") or next(iter(content.values()), {})
    return chosen.get("schema", {"type": "object"})


def _walk(patterns, prefix: str = "",
          namespace: str = "") -> Iterator[tuple[str, str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, (namespace, pattern.namespace)))
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace, pattern


def _schema_path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{%s}" % (
        "id" if m[1] == "pk" else m[1]), route)


def api_writes() -> list[tuple[str, str, str]]:
    """(url name, method, schema path) of every write under /api/v1/."""
    found = []
    for route, _, pattern in _walk(get_resolver().url_patterns):
        if not route.startswith("api/v1/"):
            continue
        view = getattr(pattern.callback, "view_class", None) or pattern.callback.cls
        found += [(pattern.name, method, _schema_path(route)) for method in WRITES
                  if method in view.http_method_names and hasattr(view, method)]
    return sorted(found)


def with_bad(value, bad):
    """``value`` with one more field ``bad`` (a body of only numbers and booleans is valid
    otherwise; an unknown field is still read by the parser)."""
    return {**value, "fuzz": bad} if isinstance(value, dict) else {"fuzz": bad, "value": value}


def bodies(schema: dict) -> dict[str, str]:
    """The bad bodies, as raw JSON text."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    huge = json.dumps(with_bad(filled(schema, "ok", HUGE_MARK), HUGE_MARK))
    return {
        "nul": json.dumps(with_bad(filled(schema, NUL, 1), NUL)),
        "nul key": json.dumps({NUL: 1, "value": filled(schema, "ok", 1)}),
        # sent escaped ("\ud800"), as JSON carries a lone surrogate
        "surrogate": json.dumps(with_bad(filled(schema, SURROGATE, 1), SURROGATE)),
        "huge number": huge.replace(f'"{HUGE_MARK}"', HUGE),
        "deep": "[" * DEPTH + "]" * DEPTH,
        "deep object": '{"a":' * DEPTH + "1" + "}" * DEPTH,
        "oversized": json.dumps({"name": "a" * (limit + 1)}),
    }


def api_client(world: SecurityWorld, role: str) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens[role]}")
    return client


def check_api(response, label: str, unchanged: bool, reads_body: bool) -> list[str]:
    """A 4xx in the error shape that changed nothing; an endpoint that documents no request
    body does not read it, so its action may succeed (never with a 5xx)."""
    status, body = response.status_code, response.content[:300]
    if not reads_body and status < 400:
        return []
    problems = []
    if not 400 <= status < 500:
        problems.append(f"{label}: {status} {body!r}")
    if not response.get("Content-Type", "").startswith("application/json"):
        problems.append(f"{label}: not JSON: {response.get('Content-Type')} {body!r}")
    elif not {"detail", "code", "errors"} <= set(response.json()):
        problems.append(f"{label}: not the error shape: {body!r}")
    if not unchanged:
        problems.append(f"{label}: rows changed ({status})")
    return problems


WRITE_ENDPOINTS = api_writes()
ROLES = {"admin": ADMIN, "player": PLAYER}
# The private campaign is in ``lists``, the demo in ``declare`` (where players declare/buy).
CALLERS = (("private", "admin"), ("private", "player"), ("public", "player"))


def test_every_write_endpoint_is_fuzzed():
    assert len(WRITE_ENDPOINTS) >= 35
    missing = [(n, m) for n, m, _ in WRITE_ENDPOINTS if (n, m.upper()) not in ROWS]
    assert not missing, f"write endpoints without permission matrix kwargs: {missing}"


@pytest.mark.parametrize(("name", "method", "path"), WRITE_ENDPOINTS,
                         ids=[f"{m.upper()} {n}" for n, m, _ in WRITE_ENDPOINTS])
def test_bad_input_to_every_api_write_is_a_json_4xx_and_stores_nothing(world, name, method,
                                                                       path):
    problems = []
    schema = request_body(path, method)
    payloads = bodies(schema or {"type": "object"})
    for scope_name, role_name in CALLERS:
        scope: Scope = getattr(world, scope_name)
        url = reverse(f"api:{name}", kwargs=ROWS[name, method.upper()].kwargs(scope))
        send = getattr(api_client(world, ROLES[role_name]), method)
        for kind, body in payloads.items():
            if not picked(f"{name} {method} {scope_name} {role_name} {kind}", 3):
                continue  # a developer's run sends a third of the bodies (tests/budget.py)
            response, unchanged = asked(lambda send=send, url=url, body=body: send(
                url, body, content_type="application/json"))
            problems += check_api(response, f"{kind} as {role_name} to {method} {url}",
                                  unchanged, schema is not None)
        response, unchanged = asked(lambda send=send, url=url: send(
            url, {"name": NUL, "text": NUL}, format="multipart"))
        problems += check_api(response, f"multipart NUL as {role_name} to {url}", unchanged,
                              schema is not None)
    assert not problems, "\n".join(problems)


READS = sorted(key for key in ROWS if key[1] == "GET")
QUERY_PARAMS = ("round", "roll", "token", "player", "status", "page", "page_size")


@pytest.mark.parametrize("query", [HUGE, NUL * 4], ids=["huge number", "nul"])
def test_bad_query_parameters_to_every_api_read_are_never_a_5xx(world, query):
    """The same numbers and characters in the query of every GET (filters, ``?round=``,
    ``?roll=``, the calendar token); a URL cannot carry a lone surrogate."""
    client = api_client(world, ADMIN)
    problems = []
    for name, method in READS:
        url = reverse(f"api:{name}", kwargs=ROWS[name, method].kwargs(world.private))
        response = client.get(url, dict.fromkeys(QUERY_PARAMS, query))
        if response.status_code >= 500:
            problems.append(f"GET {url}: {response.status_code}")
        elif response.status_code >= 400 and not {"detail", "code"} <= set(response.json()):
            problems.append(f"GET {url}: not the error shape {response.content[:200]!r}")
    assert not problems, "\n".join(problems)


# --- single causes, named ---------------------------------------------------------------------

def test_nul_in_an_army_list_is_refused_naming_the_field(world):
    url = reverse("api:battle-army-list", kwargs={"campaign_id": world.private.campaign,
                                                  "battle_id": world.private.battle})
    response = api_client(world, PLAYER).post(
        url, {"name": "Spearhead", "entries": [{"name": NUL, "points": 85}]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "forbidden_character"
    assert "U+0000" in response.json()["errors"]["entries[0].name"][0]


@pytest.mark.parametrize("content", [
    b'{"roster": {"name": "List", "forces": [{"catalogueName": "Orks", "selections": '
    b'[{"name": "Boss\\u0000", "costs": [{"name": "pts", "value": 80}]}]}]}}',
    b'{"roster": {"name": "List\\ud800", "forces": []}}',
], ids=["nul unit", "surrogate name"])
def test_a_roster_file_with_forbidden_characters_is_the_rosters_400(world, content):
    url = reverse("api:battle-army-list-upload", kwargs={"campaign_id": world.private.campaign,
                                                         "battle_id": world.private.battle})
    upload = SimpleUploadedFile("list.json", content, content_type="application/json")
    response = api_client(world, PLAYER).post(url, {"file": upload}, format="multipart")
    assert response.status_code == 400, response.content
    assert "U+" in response.json()["errors"]["file"][0]


@pytest.mark.parametrize("username", ["a" * 300, "orga\x00"], ids=["300 chars", "nul"])
def test_token_endpoint_refuses_bad_usernames_with_a_json_400(world, username):
    client = APIClient(raise_request_exception=False)
    response = client.post(reverse("api:token"), {"username": username, "password": "x"},
                           format="json")
    assert response.status_code == 400, response.content
    assert "username" in response.json()["errors"]


def test_token_endpoint_refuses_deep_json_with_a_json_400(world):
    client = APIClient(raise_request_exception=False)
    response = client.post(reverse("api:token"), "[" * DEPTH + "]" * DEPTH,
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_login_page_refuses_a_username_longer_than_axes_column(world):
    response = Client(raise_request_exception=False).post(
        reverse("login"), {"username": "a" * 300, "password": "x"})
    assert response.status_code == 200
    assert response.context["form"].errors["username"]


def test_admin_login_refuses_a_username_longer_than_axes_column(world):
    response = Client(raise_request_exception=False).post(
        reverse("admin:login"), {"username": "a" * 300, "password": "x"})
    assert response.status_code == 200
    assert response.context["form"].errors["username"]


def test_an_oversized_api_body_is_a_json_413(world):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    url = reverse("api:campaign-detail", kwargs={"campaign_id": world.private.campaign})
    response = api_client(world, ADMIN).patch(url, {"name": "a" * (limit + 1)},
                                              format="json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


# --- the pages' forms ---------------------------------------------------------------------------

def form_fields(world: SecurityWorld) -> set[str]:
    """Every field name of the pages' forms, with the prefixes the pages give them."""
    names = {"roll", "ship", "regenerate", "round", "username", "password", "language",
             "next", "name", "text"}
    for module in pkgutil.iter_modules(web.forms.__path__):
        for value in vars(importlib.import_module(f"web.forms.{module.name}")).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm) and \
                    value.__module__.startswith("web.forms"):
                names |= set(value.base_fields)
    scope = world.private
    names |= {f"line_{ship}" for ship in (scope.ship, scope.other_ship)}
    prefixes = [f"f{scope.fleet}", f"s{scope.fleet}", f"b{scope.battle}",
                *(f"{kind}{scope.player}" for kind in ("edit", "replace", "invite", "remove")),
                f"admin{scope.admin}"]
    return names | {f"{prefix}-{name}" for prefix in prefixes for name in names}


PAGE_KWARGS = {"campaign_id": "campaign", "battle_id": "battle", "fleet_id": "fleet",
               "tile_id": "tile", "attack_id": "attack", "naval_id": "naval",
               "number": "round", "player_id": "player", "user_id": "admin",
               "area_id": "area", "ship_id": "ship", "hazard_id": "hazard"}  # the map editor


def page_posts(scope: Scope) -> list[tuple[str, str]]:
    """Every page address that may take a POST: web/urls.py (pages that take none answer
    405), the login and password pages, the language switch and the admin's login."""
    urls = {("admin:login", reverse("admin:login"))}
    for route, namespace, pattern in _walk(get_resolver().url_patterns):
        if route.startswith(("api/", "admin/")) or pattern.name == "logout" or \
                not pattern.name:
            continue  # logging out would end the test's session
        keys = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if not set(keys) <= PAGE_KWARGS.keys():
            continue  # password reset links
        name = f"{namespace}:{pattern.name}" if namespace else pattern.name
        urls.add((name, reverse(name, kwargs={k: getattr(scope, PAGE_KWARGS[k])
                                              for k in keys})))
    return sorted(urls)


# A POST whose action takes no text: it may succeed whatever else is posted (the calendar
# page makes the user's feed address on first use; an invitation link's limits are all
# optional, so a post without them makes an unlimited link).
ACTIONS_WITHOUT_INPUT = {"campaigns:calendar-feed", "campaigns:manage-invite-link",
                         "campaigns:manage-sandbox",  # a private copy
                         "campaigns:manage-pause",  # the reason is optional
                         # the map editor: removing an area, fleet, ship or hazard;
                         # coastal borders are checkboxes, none ticked clears them
                         "campaigns:map-editor-borders",
                         *(f"campaigns:map-editor-{what}-delete"
                           for what in ("area", "fleet", "ship", "hazard"))}
QUERY = {"round": HUGE, "tile": HUGE, "roll": HUGE, "preview": "1", "page": HUGE}


def page_payloads(fields: set[str]) -> dict[str, dict]:
    document = b'{"planets": [{"name": "P", "value": ' + HUGE.encode() + b"}]}"
    return {
        "nul": dict.fromkeys(fields, NUL),
        "huge number": {**dict.fromkeys(fields, HUGE),
                        "document": SimpleUploadedFile("map.json", document),
                        "file": SimpleUploadedFile("list.json", b'{"roster": {"x": %s}}'
                                                   % HUGE.encode())},
        "surrogate files": {
            "document": SimpleUploadedFile("map.json", b'{"planets": [{"name": "\\ud800"}]}'),
            "file": SimpleUploadedFile("list.ros", b"<roster name='\xed\xa0\x80'/>"),
            "text": "Boss - 80"},
        "nul files": {
            "document": SimpleUploadedFile("map.json", b'{"planets": [{"name": "\\u0000"}]}'),
            "file": SimpleUploadedFile("list.json", b'{"roster": {"name": "\\u0000"}}')},
        "oversized": {"text": "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)},
    }


@pytest.mark.parametrize(("scope_name", "role"), [("private", "admin"), ("public", "player")])
def test_bad_input_to_every_page_post_is_a_4xx_and_stores_nothing(world, scope_name, role):
    client = Client(raise_request_exception=False)
    client.force_login(world.users[ROLES[role]])
    fields = form_fields(world)
    problems = []
    for name, url in page_posts(getattr(world, scope_name)):
        may_change = name in ACTIONS_WITHOUT_INPUT
        for kind, data in page_payloads(fields).items():
            if not picked(f"{name} {kind}", 3):
                continue  # a developer's run sends a third of the payloads (tests/budget.py)
            response, unchanged = asked(lambda url=url, data=data: client.post(url, data))
            if response.status_code >= 500 or not (unchanged or may_change) or (
                    kind == "nul" and response.status_code not in (400, 405)):
                problems.append(f"{kind} as {role} to {url}: {response.status_code} "
                                f"unchanged={unchanged} {response.content[:200]!r}")
        response = client.get(url, QUERY)  # the same numbers in a page's query
        if response.status_code >= 500:
            problems.append(f"GET {url} with huge numbers as {role}: {response.status_code}")
    assert not problems, "\n".join(problems)


def test_nul_in_a_page_form_is_a_400_naming_the_field(world):
    client = Client(raise_request_exception=False)
    client.force_login(world.users[ADMIN])
    url = reverse("campaigns:manage-players", kwargs={"campaign_id": world.private.campaign})
    response = client.post(url, {"username": "nina", "faction": "Orks\x00", "colour": "#888888"})
    assert response.status_code == 400
    assert "faction" in response.content.decode() and "U+0000" in response.content.decode()


def test_a_5000_digit_number_in_a_map_upload_is_a_form_error(world):
    client = Client(raise_request_exception=False)
    client.force_login(world.users[ADMIN])
    url = reverse("campaigns:manage-map", kwargs={"campaign_id": world.private.campaign})
    upload = SimpleUploadedFile("map.json", b'{"planets": ' + HUGE.encode() + b"}")
    response, unchanged = asked(lambda: client.post(url, {"document": upload}))
    assert response.status_code < 500 and unchanged
    assert "too long" in response.content.decode()


# --- a dropped database connection --------------------------------------------------------------

@pytest.fixture
def database_down(monkeypatch):
    """Every query fails as it does when PostgreSQL closed the connection."""
    from django.db import OperationalError
    from django.db.backends import utils

    def closed(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(utils.CursorWrapper, "execute", closed)
    monkeypatch.setattr(utils.CursorDebugWrapper, "execute", closed)


def test_a_dropped_database_connection_is_a_json_503_under_api(world, database_down):
    url = reverse("api:campaign-detail", kwargs={"campaign_id": world.private.campaign})
    response = api_client(world, ADMIN).get(url)
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert response.json()["code"] == "service_unavailable"
    assert set(response.json()) == {"detail", "code", "errors"}


def test_a_dropped_database_connection_is_a_plain_503_page(world, database_down):
    response = Client(raise_request_exception=False).get(reverse("campaigns:index"))
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert response["Content-Type"].startswith("text/html")
