"""Generated API clients: the schema is a product (clubs build bots and widgets from
it). ``spectacular --validate --fail-on-warn`` passes, and real answers of every GET route
validate against ``/api/schema/`` with a strict OpenAPI 3.0 validator (openapi-core: no
``nullable`` shortcut for a null that a ``$ref``'d object schema refuses).

The walk: every GET path of the schema, its path ids filled with every object of that kind in
a seeded world (capped per kind), as anonymous, a player and the campaign admin. The world is
the permission matrix's (tests/worlds.py ``build_security_world``: a private campaign in
``lists``, the public demo in ``declare``) and four more campaigns of the same users, so that
each nullable nested object comes back both null and set: a chain of three attacks on one
tile (one link won and rolled at once, one reported, disputed and entered by the admin, one
pending), a duel with a date proposed, a round played to its close, and a campaign without a
round. Every 2xx that does not validate fails, and so does a nullable object of the schema's
answers that was never seen both null and not null."""

from datetime import timedelta
from itertools import product

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_core.deserializing.media_types.util import plain_loads
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from battles.models import Battle
from battles.services.chains import chain_decide
from battles.services.feeds import calendar_token_of
from battles.services.results import (
    battle_result_dispute,
    battle_result_enter,
    battle_result_report,
)
from battles.services.schedule import schedule_propose
from campaigns.models import Campaign, Round
from fleets.models import NavalBattle, SeaHazard
from tests.worlds import (
    ADMIN,
    ANON,
    OTHER,
    PLAYER,
    ROOT,
    USERNAMES,
    advance_to,
    chain,
    duel,
    make_league,
)

pytestmark = pytest.mark.django_db
ROLES = (ANON, PLAYER, ADMIN)
STAFF_PATHS = {"/api/v1/site/settings/"}  # staff users only: asked as the site admin too
CAP = 3  # objects per kind in a path (the demo has dozens of tiles)
WIN = {"outcome": "victory", "attacker_vp": 12, "defender_vp": 4}


def test_spectacular_validates_the_schema_without_warnings(tmp_path):
    """The project's schema command, as a release would run it: any warning is an error."""
    call_command("spectacular", "--validate", "--fail-on-warn", "--file",
                 str(tmp_path / "schema.yaml"))
    assert (tmp_path / "schema.yaml").stat().st_size > 10_000


# --- the world -----------------------------------------------------------------------------------

def _league(name: str):
    players = (USERNAMES[PLAYER], USERNAMES[OTHER], "carla", "doris")
    return make_league(name=name, admin=USERNAMES[ADMIN], players=players)


def build_chain_campaign() -> Campaign:
    """Anna, ben and carla attack doris's tile (R-ATK-5). Link 1: won, confirmed, rolled at once
    (R-CON-6: ``chain_decision``, ``chain_roll``). Link 2: ben reports a win, the defender
    disputes it, the admin enters it again (``history`` with ``old`` null and set); ben's
    decision is open (its odds). Link 3: pending."""
    lg = _league("Chain front")
    links = chain(lg)
    battle_result_enter(battle=links[0], by_admin_user=lg.admin, **WIN)
    chain_decide(battle=Battle.objects.get(pk=links[0].pk), player=lg.a, roll=True)
    second = Battle.objects.select_related("defender").get(pk=links[1].pk)
    battle_result_report(battle=second, player=lg.b, **WIN)
    battle_result_dispute(battle=Battle.objects.get(pk=second.pk), player=second.defender,
                          reason="we played a draw")
    battle_result_enter(battle=Battle.objects.get(pk=second.pk), by_admin_user=lg.admin,
                        **{**WIN, "attacker_vp": 11})
    return lg.campaign


def build_dated_campaign() -> Campaign:
    """A duel in ``lists`` with a date proposed by anna (``schedule_proposal``)."""
    lg = _league("Dated front")
    battle = duel(lg, "lists")
    now = timezone.now()
    schedule_propose(battle=battle, player=lg.a, proposed_at=now + timedelta(days=3),
                     place="Club", now=now)
    return lg.campaign


def build_closed_campaign() -> Campaign:
    """A duel won by anna, the round played through conquest to its close (seed revealed,
    rolls and standings frozen)."""
    lg = _league("Closed front")
    battle = duel(lg, "battles")
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **WIN)
    advance_to(battle.round, Round.Phase.CLOSED)
    return lg.campaign


def build_unrecorded_campaign() -> Campaign:
    """Two closed rounds, round 1's map snapshot gone as if it closed before map history
    existed: round 1 answers ``tiles`` null, round 2 ``changes`` null."""
    from campaigns.models import RoundMap

    lg = _league("Unrecorded front")
    battle = duel(lg, "closed")
    advance_to(lg.campaign.rounds.get(number=2), Round.Phase.CLOSED)
    RoundMap.objects.filter(round=battle.round).delete()
    return lg.campaign


def build_unstarted_campaign() -> Campaign:
    """No round yet (``current_round`` null)."""
    return _league("Unstarted front").campaign


@pytest.fixture(scope="module")
def world(security_world, django_db_blocker):
    """The security world plus the three campaigns above (in the same module transaction,
    rolled back with it); throttles out of the way; each role's token."""
    with django_db_blocker.unblock():
        extra = [build_chain_campaign(), build_dated_campaign(), build_closed_campaign(),
                 build_unstarted_campaign(), build_unrecorded_campaign()]
        calendar_token = calendar_token_of(user=security_world.users[PLAYER],
                                           now=timezone.now()).token
        campaigns = [Campaign.objects.get(pk=security_world.private.campaign),
                     Campaign.objects.get(pk=security_world.public.campaign), *extra]
        schema = APIClient().get("/api/schema/?format=json").json()
        tokens = invitation_tokens(campaigns[0], security_world.users[ADMIN]) \
            if any("{token}" in path for path in schema["paths"]) else {}
    rates = {scope: "1000000/min" for scope in SimpleRateThrottle.THROTTLE_RATES}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        yield security_world, campaigns, calendar_token, schema, tokens


# --- the walk ------------------------------------------------------------------------------------

COLLECTIONS = {"planets": "planets", "tiles": "tiles", "links": "links", "areas": "areas",
               "markers": "markers"}


def ids(queryset) -> list[int]:
    return list(queryset.order_by("pk").values_list("pk", flat=True)[:CAP])


def invitation_tokens(campaign: Campaign, admin) -> dict[int, list[str]]:
    """A link invitation to ``campaign``, by campaign id: its token (shown once) fills
    ``/invitations/{token}/``."""
    from campaigns.services.invitations import invitation_link_create

    return {campaign.pk: [invitation_link_create(campaign=campaign, by=admin)[1]]}


def path_values(campaign: Campaign, path: str, tokens: dict[int, list[str]]) -> list[dict]:
    """Every filling of ``path``'s ids with objects of ``campaign`` (capped per kind)."""
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    choices: dict[str, list] = {"campaign_id": [campaign.pk]}
    for name in names:
        if name == "token":
            choices[name] = tokens.get(campaign.pk, [])
        elif name == "id":
            collection = path.rstrip("/").split("/")[-2]
            choices[name] = ids(getattr(campaign, COLLECTIONS[collection]).all())
        elif name == "battle_id" and "/naval-battles/" in path:
            choices[name] = ids(NavalBattle.objects.filter(round__campaign=campaign))
        elif name == "battle_id":
            choices[name] = list(Battle.objects.filter(campaign=campaign).order_by("pk")
                                 .values_list("pk", flat=True))  # every state, uncapped
        elif name == "fleet_id":
            choices[name] = ids(campaign.fleets.all())
        elif name == "hazard_id":
            choices[name] = ids(SeaHazard.objects.filter(area__campaign=campaign))
        elif name == "player_id":  # a player (seat) and its holders
            choices[name] = ids(campaign.players.all())
        elif name == "user_id":  # the campaign's admins
            choices[name] = ids(campaign.admins.all())
        elif name == "hook_id":  # the campaign's webhooks
            choices[name] = ids(campaign.webhooks.all())
        elif name not in ("campaign_id", "number", "attack_id"):
            raise AssertionError(f"no ids for {{{name}}} in {path}")
    if "attack_id" in names:  # an attack and its round's number
        pairs = [{"number": n, "attack_id": a} for n, a in campaign.rounds.order_by("number")
                 .values_list("number", "attacks__pk") if a is not None]
    elif "number" in names:
        pairs = [{"number": n} for n in campaign.rounds.values_list("number", flat=True)]
    else:
        pairs = [{}]
    rows = []
    for combo in product(*(choices[name] for name in names if name in choices)):
        base = dict(zip([n for n in names if n in choices], combo, strict=True))
        rows += [{**base, **pair} for pair in pairs]
    return rows


def get_paths(schema: dict) -> list[str]:
    return sorted(path for path, item in schema["paths"].items() if "get" in item)


def client_for(world, role: str) -> APIClient:
    client = APIClient()
    token = world.tokens[role]
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def nullable_objects(schema: dict) -> set[str]:
    """The properties of the schema's components that are a nullable object (a ``$ref`` to
    an object schema that may also be null), by name."""
    components = schema["components"]["schemas"]

    def is_object(ref: str) -> bool:
        return components[ref.rsplit("/", 1)[1]].get("type") == "object"

    names = set()
    for component in components.values():
        for name, prop in (component.get("properties") or {}).items():
            refs = [branch["$ref"] for key in ("allOf", "oneOf", "anyOf")
                    for branch in prop.get(key, []) if "$ref" in branch]
            if prop.get("nullable") and any(is_object(ref) for ref in refs) \
                    and not prop.get("writeOnly"):
                names.add(name)
    return names


def seen_values(data, names: set[str], seen: dict[str, set[bool]]) -> None:
    """Record, for each name in ``names``, whether an answer held it null and/or set."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in names:
                seen.setdefault(key, set()).add(value is None)
            seen_values(value, names, seen)
    elif isinstance(data, list):
        for value in data:
            seen_values(value, names, seen)


REQUEST_ONLY = {"captain", "datasheet"}  # the odds request's ships (POST, no answer)


def test_every_get_route_answers_as_its_schema_says(world):
    security, campaigns, calendar_token, schema, tokens = world
    # the calendar feeds as text (openapi-core decodes text/plain and text/html so)
    spec = OpenAPI.from_dict(schema, config=Config(
        extra_media_type_deserializers={"text/calendar": plain_loads}))
    names = nullable_objects(schema) - REQUEST_ONLY
    problems, answered, seen = [], {}, {}
    calls = [(path, {}) for path in get_paths(schema) if "{" not in path]
    calls += [(path, values) for path in get_paths(schema) if "{" in path
              for campaign in campaigns for values in path_values(campaign, path, tokens)]
    asked = [*product(calls, ROLES), *(((p, v), ROOT) for p, v in calls if p in STAFF_PATHS)]
    for (path, values), role in asked:
        url = path.format(**values)
        if path.endswith("/me/calendar.ics"):
            url += f"?token={calendar_token}"
        with transaction.atomic():  # a read changes nothing; make sure of it
            response = client_for(security, role).get(url)
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, role, response.content[:300])
        if response.status_code >= 300:
            continue
        answered[path] = answered.get(path, 0) + 1
        try:
            spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request),
                                   DjangoOpenAPIResponse(response))
        except Exception as exc:  # noqa: BLE001 - every kind of mismatch is reported
            detail = getattr(exc, "__cause__", None) or exc
            problems.append(f"GET {url} as {role}: {type(exc).__name__}: {detail}"[:1500])
            continue
        if response["Content-Type"].startswith("application/json"):
            seen_values(response.json(), names, seen)
    assert not problems, f"{len(problems)} answers do not match the schema:\n" + \
        "\n".join(problems[:20])
    unanswered = [path for path in get_paths(schema) if path not in answered]
    assert not unanswered, f"GET routes never answered 2xx: {unanswered}"
    one_sided = {name: sorted("null" if v else "set" for v in seen.get(name, set()))
                 for name in names if seen.get(name) != {True, False}}
    assert not one_sided, f"nullable objects not seen both null and set: {one_sided}"
