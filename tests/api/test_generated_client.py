"""Generated API clients: a client generated with ``openapi-python-client`` from the
live server's ``/api/schema/``, imported as it comes (no hand edits), logs in, reads the
standings and the map, buys an attack army, declares an attack, uploads a roster file
(multipart) and pastes a list (JSON) and reads the battle and the calendar feed against a live
test server. Generated once per module (a couple of seconds)."""

import importlib
import io
import json
import pkgutil
import subprocess
import sys

import httpx
import pytest

from battles.models import Battle
from tests.battles.tabletop import ros
from tests.worlds import advance_to, build_page_world

PACKAGE = "feldzug_client"
PASSWORD = "correct horse 42"  # tests/factories.py UserFactory
CONFIG = {"project_name_override": PACKAGE, "package_name_override": PACKAGE,
          "post_hooks": []}  # no formatter run: the code as generated


@pytest.fixture(scope="module")
def generated(live_server, tmp_path_factory, django_db_blocker):
    """The client package generated from the live server's schema, importable."""
    root = tmp_path_factory.mktemp("client")
    with django_db_blocker.unblock():  # the server's request may read the database
        schema = httpx.get(f"{live_server.url}/api/schema/?format=json", timeout=30)
    assert schema.status_code == 200, schema.text[:300]
    (root / "schema.json").write_bytes(schema.content)
    (root / "config.json").write_text(json.dumps(CONFIG))
    run = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path",
         str(root / "schema.json"), "--config", str(root / "config.json"), "--meta", "none",
         "--output-path", str(root / PACKAGE)],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def operation(package, operation_id: str):
    """The generated module of an operation, whichever tag folder it is in."""
    api = importlib.import_module(f"{package.__name__}.api")
    for info in pkgutil.walk_packages(api.__path__, f"{api.__name__}."):
        if info.name.rsplit(".", 1)[-1] == operation_id:
            return importlib.import_module(info.name)
    raise AssertionError(f"no generated module for {operation_id}")


@pytest.mark.django_db(transaction=True)
def test_generated_client_logs_in_reads_declares_and_uploads(generated, live_server):
    world = build_page_world()  # private; round 1 in declare; ben may attack anna's edge tile
    campaign, ben, target = world.campaign.pk, world.lg.b, world.tiles["a-edge"]
    models = importlib.import_module(f"{PACKAGE}.models")
    call = lambda name, **kwargs: operation(generated, name).sync_detailed(**kwargs)  # noqa: E731

    anonymous = generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    login = call("v1_auth_token_create", client=anonymous,
                 body=models.CredentialsRequest(username=ben.user.username, password=PASSWORD))
    assert login.status_code == 200, login.content
    client = generated.AuthenticatedClient(base_url=live_server.url, token=login.parsed.token,
                                           prefix="Token", raise_on_unexpected_status=True)
    me = call("v1_me_retrieve", client=client).parsed
    assert me.username == ben.user.username

    standings = call("v1_campaigns_standings_retrieve", campaign_id=campaign, client=client)
    assert isinstance(standings.parsed, models.Standings), standings.content
    assert {row.username for row in standings.parsed.rows} == {"anna", "ben", "carl", "dora"}
    board = call("v1_campaigns_map_retrieve", campaign_id=campaign, client=client).parsed
    tiles = {tile.id: tile for planet in board.planets for tile in planet.tiles}
    assert tiles[target.pk].owner == world.lg.a.pk

    bought = call("v1_campaigns_rounds_purchases_create", campaign_id=campaign, number=1,
                  client=client, body=models.PurchaseInputRequest(attack_armies=1))
    assert bought.status_code == 201, bought.content
    declared = call("v1_campaigns_rounds_attacks_create", campaign_id=campaign, number=1,
                    client=client, body=models.AttackInputRequest(tile=target.pk))
    assert declared.status_code == 201, declared.content
    assert (declared.parsed.tile, declared.parsed.attacker) == (target.pk, ben.pk)

    advance_to(world.rnd, "lists")  # the admin's job; the battle exists now
    battle = Battle.objects.get(attack_id=declared.parsed.id).pk
    shown = call("v1_campaigns_battles_retrieve", campaign_id=campaign, battle_id=battle,
                 client=client).parsed
    assert shown.result is None and shown.schedule_proposal is None  # nullable objects

    roster = models.ArmyListUploadRequest(file=generated.types.File(
        payload=io.BytesIO(ros([("Gretchin", 300), ("Warboss", 700)], name="Waaagh")),
        file_name="waaagh.ros", mime_type="application/xml"))
    uploaded = call("v1_campaigns_battles_army_list_upload_create", campaign_id=campaign,
                    battle_id=battle, client=client, body=roster)
    assert uploaded.status_code == 201, uploaded.content
    assert (uploaded.parsed.total, uploaded.parsed.source) == (1000, "ros")
    assert [e.name for e in uploaded.parsed.entries] == ["Gretchin", "Warboss"]

    pasted = call("v1_campaigns_battles_army_list_create", campaign_id=campaign,
                  battle_id=battle, client=client, body=models.ArmyListInputRequest(
                      name="Spearhead", text="Boyz - 600\nWarboss - 400"))
    assert pasted.status_code == 201, pasted.content
    assert (pasted.parsed.total, pasted.parsed.source) == (1000, "text")

    feed = call("v1_campaigns_calendar_retrieve", campaign_id=campaign, client=client)
    assert feed.status_code == 200 and feed.parsed.startswith("BEGIN:VCALENDAR")
