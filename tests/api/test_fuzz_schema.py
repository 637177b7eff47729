"""Fuzzing gate (API.md General: "the schema ... is checked by fuzzing it against the live
server"): schemathesis loads /api/schema/ from the app in-process (WSGI) and sends generated
requests, valid and invalid, to every operation as three roles - anonymous, a player, the
campaign admin - on the seeded world (tests/worlds.py). A request fails the gate on a 5xx,
on a status the schema does not document for the operation, or on an answer that does not
match the documented schema or content type.

Phases: examples, coverage (boundary values and each kind of bad input, systematically) and
fuzzing (``MAX_EXAMPLES`` per operation and role, derandomized), then stateful scenarios per
role that follow links schemathesis infers from the responses (a listed or created object's
id into the next call). Generated path ids are mapped onto the seeded world (mostly the
private campaign's objects, also the other player's, the public demo's and another
campaign's), so most requests reach real objects; malformed and huge ids stay as generated.
Each request (each scenario) runs in a savepoint that is rolled back: every example meets the
same world and replays alone. Throttle rates are raised for the run so it never turns into
429s."""

import zlib

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NotSet

from config.wsgi import application
from tests.budget import FULL, examples, one_of, picked
from tests.worlds import ADMIN, ANON, PLAYER, Scope, SecurityWorld

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance,
          content_type_conformance]
# Stateful scenarios add: a deleted object is gone, a created one can be fetched.
STATEFUL_CHECKS = ("use_after_free", "ensure_resource_availability")
MAX_EXAMPLES = examples(10, least=2)
CONFIG = SchemathesisConfig.from_dict({
    "seed": 9,
    "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "deterministic": True},
    "phases": {"coverage": {"enabled": True},  # boundary values and each kind of bad input
               "stateful": {"enabled": True, "max-steps": 8}},  # links inferred from bodies
    "checks": {"enabled": False, **{check.__name__: {"enabled": True} for check in CHECKS},
               **{name: {"enabled": True} for name in STATEFUL_CHECKS}},
})
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)
ROLES = (ANON, PLAYER, ADMIN)


KINDS = {"planets": "planet", "tiles": "tile", "links": "link", "areas": "area",
         "markers": "marker"}  # the map builder's ``{id}``, by its collection


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def pick(name: str, choices: list, value):
    """A generated id picks one of ``choices`` by a hash of it: the same value always picks
    the same id, so a failing example replays as it ran. Ids beyond 32 bits stay as generated
    (an overflow must still be a 404), and so does anything that is not an id (negative
    mode: a malformed id)."""
    if not _integer(value) or value >= 2**31:
        return value
    return choices[zlib.crc32(f"{name}={value}".encode()) % len(choices)]


def choices_for(world: SecurityWorld, scope: Scope, path: str, name: str) -> list[int]:
    """Ids for the path parameter ``name``: mostly the campaign's own objects (the player's),
    then the other player's, then the foreign campaign's (404 whoever asks)."""
    other = world.foreign
    if name == "id":
        kind = KINDS[path.rstrip("/").split("/")[-2]]
        return [getattr(scope, kind)] * 3 + [getattr(other, kind)]
    if name == "number":
        return [scope.round] * 3 + [scope.round + 1]
    own, *variants = {"attack_id": ("attack",), "hazard_id": ("hazard",),
                      "battle_id": ("naval",) if "/naval-battles/" in path else ("battle",),
                      "fleet_id": ("fleet", "other_fleet"),
                      "ship_id": ("ship", "other_ship"), "player_id": ("player",),
                      "user_id": ("admin", "player")}[name]
    return ([getattr(scope, own)] * 3 + [getattr(scope, v) for v in variants]
            + [getattr(other, own)])


def map_ids(world: SecurityWorld, path: str, params: dict) -> dict:
    """Generated path ids onto the seeded world: the campaign id picks the private campaign
    (most often), the public demo or the foreign campaign; the other ids then mostly pick
    objects of that campaign."""
    scopes = [world.private] * 4 + [world.public, world.foreign]
    campaign = pick("campaign_id", [s.campaign for s in scopes], params.get("campaign_id"))
    scope = next((s for s in scopes if s.campaign == campaign), world.private)
    return {name: campaign if name == "campaign_id" else
            value if name in AS_GENERATED else
            pick(name, choices_for(world, scope, path, name), value)
            for name, value in params.items()}


# invitation tokens, invitation and join request ids are not in the seeded world;
# generated ones stay (a 404), and the stateful scenarios follow created ones by their links.
# absence and webhook ids likewise (created ones are followed by the
# stateful scenarios).
AS_GENERATED = frozenset({"token", "invitation_id", "request_id", "hook_id", "absence_id"})


@pytest.fixture(scope="module")
def fuzz_world(security_world):
    """The seeded world; the throttles allow the whole run; Django's WSGI handler keeps the
    test's connection (as its test client does)."""
    rates = {scope: "1000000/min" for scope in SimpleRateThrottle.THROTTLE_RATES}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            yield security_world
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)


# the API is gzip-compressed for clients that accept it; schemathesis's WSGI client
# sends requests' default ``Accept-Encoding: gzip, deflate`` and does not decode, so ask for
# the body as is (the checks read it as JSON).
PLAIN = {"Accept-Encoding": "identity"}


def headers_for(world: SecurityWorld, role: str) -> dict[str, str]:
    token = world.tokens[role]
    return {**PLAIN, "Authorization": f"Token {token}"} if token else dict(PLAIN)


ROLE_IDS = ("anonymous", "player", "admin")


_FIRST_SENT: set[tuple[str, str]] = set()  # (role, kind of case) sent in this process


def in_budget(case, role: str) -> bool:
    """The coverage phase's cases (most of the requests) go out as every role in CI. In a
    developer's run each case goes out as one role, picked by a hash of the case
    (tests/budget.py): the first case of each kind (operation and kind of input, such as
    "Missing request body") that falls to a role, and one in eight of the others, so every
    operation still meets every kind of input."""
    phase = case.meta.phase if case.meta else None
    if FULL or phase is None or phase.name != "coverage":
        return True
    kind = f"{case.operation.label} {phase.data.description}"
    body = "" if isinstance(case.body, NotSet) else repr(case.body)  # its repr holds an address
    key = f"{kind} {case.path_parameters} {case.query} {body}"
    if one_of(key, list(ROLES)) != [role]:
        return False
    first = (role, kind) not in _FIRST_SENT
    _FIRST_SENT.add((role, kind))
    return first or picked(key, 8)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES, ids=ROLE_IDS)
@schema.parametrize()
@settings(deadline=None, derandomize=True, max_examples=MAX_EXAMPLES,
          suppress_health_check=list(HealthCheck))
def test_api_answers_as_its_schema_says(case, role, fuzz_world):
    if not in_budget(case, role):
        return
    generated = case.path_parameters  # the coverage cases are shared by the roles' tests
    if generated:
        case.path_parameters = map_ids(fuzz_world, case.path, generated)
    headers = {**(case.headers or {}), **headers_for(fuzz_world, role)}
    try:
        with transaction.atomic():
            case.call_and_validate(headers=headers, checks=CHECKS)
            transaction.set_rollback(True)
    finally:
        case.path_parameters = generated


def operations() -> list:
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.django_db
def test_a_bad_token_is_a_documented_401(fuzz_world):
    """Every operation that takes a token (all but the login itself, which reads only the
    credentials in its body, and the personal calendar feed, whose URL token is the
    credential) answers a bad one with a 401 in the error shape, documented."""
    answered = []
    for operation in operations():
        params = {parameter.name: 1 for parameter in operation.path_parameters}
        case = operation.Case(path_parameters=map_ids(fuzz_world, operation.path, params),
                              headers={**PLAIN, "Authorization": "Token not-a-token"})
        response = case.call()
        case.validate_response(response, checks=CHECKS)
        answered.append(response.status_code)
    assert answered.count(401) == len(answered) - 2 and len(answered) >= 76


def workflow(world: SecurityWorld, role: str):
    """The schema's state machine: links inferred from the responses (ids of listed or created
    objects) chain the calls; a scenario's first call is steered onto the seeded world like
    the single requests; each scenario runs in a savepoint rolled back after it."""

    class Workflow(schema.as_state_machine()):
        def step(self, input):
            if input.transition is None and input.case.path_parameters:
                input.case.path_parameters = map_ids(world, input.case.path,
                                                     input.case.path_parameters)
            return super().step(input)

        def setup(self):
            self.savepoint = transaction.atomic()
            self.savepoint.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self.savepoint.__exit__(None, None, None)
            super().teardown()

        def get_call_kwargs(self, case):
            return {"headers": headers_for(world, role)}

    return Workflow


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES, ids=ROLE_IDS)
def test_stateful_scenarios(role, fuzz_world):
    run_state_machine_as_test(workflow(fuzz_world, role), settings=settings(
        max_examples=examples(15, least=3), stateful_step_count=8, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck)))
