"""Map corrections: before the start the map services change the map freely
and log nothing; once the campaign runs each write of a planet, tile, tile link or marker is a
correction: refused (409) while the automatic fleets phase runs (R-RND-2), allowed in every
other phase and between rounds, logged with who, before and after, and never rolling dice."""

import pytest

from campaigns.errors import Conflict, DomainError, RuleViolation
from campaigns.models import AdminAction, DiceRoll, Marker, Round, Tile
from campaigns.services import map as services
from tests.factories import MarkerTypeFactory, TileFactory
from tests.worlds import advance_to, api, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    lg = make_league()
    alpha = lg.planet("Alpha")
    MarkerTypeFactory(campaign=lg.campaign, code="relic", name="Relic")
    tiles = [TileFactory(planet=alpha, q=q, r=0, owner=lg.a) for q in (0, 1)]
    return lg, alpha, tiles


def _every_write(lg, alpha, tiles):
    """One call of every map service, as the admin."""
    actor, campaign = lg.admin, lg.campaign
    planet = services.planet_create(campaign=campaign, name="Beta", actor=actor)
    services.planet_update(planet=planet, name="Beta Prime", actor=actor)
    tile = services.tile_create(campaign=campaign, planet=alpha, q=5, r=5, name="Gate",
                                actor=actor)
    services.tile_update(tile=tile, owner=lg.b, features=["spaceport"], actor=actor)
    link = services.tile_link_create(campaign=campaign, a=tiles[0], b=tile, actor=actor)
    marker = services.marker_create(campaign=campaign, tile=tile, type="relic", actor=actor)
    services.marker_update(marker=marker, tile=tiles[0], actor=actor)
    services.marker_delete(marker=marker, actor=actor)
    services.tile_link_delete(link=link, actor=actor)
    services.tile_delete(tile=tile, actor=actor)
    services.planet_delete(planet=planet, actor=actor)


KINDS = ["planet.create", "planet.update", "tile.create", "tile.update", "link.create",
         "marker.create", "marker.update", "marker.delete", "link.delete", "tile.delete",
         "planet.delete"]


def test_before_the_start_everything_is_editable_and_nothing_is_logged(world):
    _every_write(*world)
    assert not AdminAction.objects.exists()


@pytest.mark.parametrize("phase", ["declare", "lists", "battles", "conquest"])
def test_corrections_are_allowed_in_the_phases_that_wait_for_players(world, phase):
    lg, alpha, tiles = world
    rnd = advance_to(lg.start(), "battles" if phase == "conquest" else phase)
    if phase == "conquest":  # nobody won here: it would be passed over [reading R-RND-1]
        Round.objects.filter(pk=rnd.pk).update(phase=phase)
    rolls, logged = DiceRoll.objects.count(), AdminAction.objects.count()  # phase changes
    _every_write(*world)
    actions = list(AdminAction.objects.order_by("id"))[logged:]
    assert [a.kind for a in actions] == KINDS
    assert all(a.actor == lg.admin and a.public and a.round.phase == phase for a in actions)
    assert DiceRoll.objects.count() == rolls  # never touches the dice log


def test_corrections_are_allowed_between_rounds(world):
    lg, alpha, tiles = world
    rnd = lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.CLOSED)
    services.tile_update(tile=tiles[0], name="Old Gate", actor=lg.admin)
    assert AdminAction.objects.get().round == rnd


def test_r_rnd_2_corrections_are_refused_while_the_fleets_phase_runs(world):
    lg, alpha, tiles = world
    rnd = lg.start()
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.FLEETS)
    calls = [
        lambda: services.planet_create(campaign=lg.campaign, name="Beta", actor=lg.admin),
        lambda: services.planet_update(planet=alpha, name="Alpha II", actor=lg.admin),
        lambda: services.planet_delete(planet=alpha, actor=lg.admin),
        lambda: services.tile_create(campaign=lg.campaign, planet=alpha, q=9, r=9),
        lambda: services.tile_update(tile=tiles[0], owner=None, actor=lg.admin),
        lambda: services.tile_delete(tile=tiles[1], actor=lg.admin),
        lambda: services.tile_link_create(campaign=lg.campaign, a=tiles[0], b=tiles[1]),
        lambda: services.marker_create(campaign=lg.campaign, tile=tiles[0], type="relic"),
    ]
    for call in calls:
        with pytest.raises(Conflict) as refused:
            call()
        assert refused.value.status == 409 and "R-RND-2" in refused.value.message
    assert Tile.objects.filter(campaign=lg.campaign).count() == 2
    assert tiles[0].__class__.objects.get(pk=tiles[0].pk).owner == lg.a
    assert not AdminAction.objects.exists() and not Marker.objects.exists()


def test_a_tile_correction_logs_only_what_changed_in_public_facts(world):
    lg, alpha, tiles = world
    lg.start()
    services.tile_update(tile=tiles[0], owner=lg.b, features=["mountain"], name="Peak",
                         actor=lg.admin)
    action = AdminAction.objects.get()
    assert action.kind == "tile.update" and action.target == "Alpha (0, 0)"
    assert action.before == {"name": "", "owner": lg.a.faction, "features": []}
    assert action.after == {"name": "Peak", "owner": lg.b.faction, "features": ["mountain"]}
    services.tile_update(tile=tiles[0], q=3, r=-1, actor=lg.admin)
    moved = AdminAction.objects.order_by("-id").first()
    assert (moved.before, moved.after) == ({"coordinates": [0, 0]}, {"coordinates": [3, -1]})
    services.tile_update(tile=tiles[0], name="Peak", actor=lg.admin)  # no change, no entry
    assert AdminAction.objects.count() == 2


def test_a_marker_correction_shows_the_tiles_markers_before_and_after(world):
    lg, alpha, tiles = world
    lg.start()
    services.marker_create(campaign=lg.campaign, tile=tiles[1], type="relic", actor=lg.admin)
    action = AdminAction.objects.get()
    assert (action.kind, action.target) == ("marker.create", "Alpha (1, 0)")
    assert (action.before, action.after) == ({"markers": []}, {"markers": ["relic"]})


def test_a_deleted_tile_is_logged_with_all_its_facts(world):
    lg, alpha, tiles = world
    lg.start()
    Tile.objects.filter(pk=tiles[1].pk).update(name="Hive")
    tiles[1].refresh_from_db()
    services.tile_delete(tile=tiles[1], actor=lg.admin)
    action = AdminAction.objects.get()
    assert action.before == {"planet": "Alpha", "coordinates": [1, 0], "name": "Hive",
                             "owner": lg.a.faction, "features": [], "markers": []}
    assert action.after is None and action.target == "Hive (Alpha)"


# --- tile names ---

def test_tile_names_are_stripped_and_checked(world):
    lg, alpha, tiles = world
    tile = services.tile_create(campaign=lg.campaign, planet=alpha, q=4, r=0,
                                name="  Hive Gate ")
    assert tile.name == "Hive Gate"
    for bad, message in (("x" * 41, "at most 40"), ("a\x00b", "U+0000"), (7, "string")):
        with pytest.raises(RuleViolation) as refused:
            services.tile_update(tile=tile, name=bad)
        assert refused.value.field == "name" and message in refused.value.message
    assert services.tile_update(tile=tile, name="").name == ""


# --- through the API ---

def test_api_tile_name_is_written_and_shown(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    created = client.post(lg.url("tiles/"), {"planet": alpha.pk, "q": 7, "r": 0,
                                             "name": "Forge"}, format="json")
    assert created.status_code == 201 and created.json()["name"] == "Forge"
    patched = client.patch(lg.url(f"tiles/{created.json()['id']}/"), {"name": "x" * 41},
                           format="json")
    assert patched.status_code == 400 and "name" in patched.json()["errors"]
    shown = client.get(lg.url("map/")).json()["planets"][0]["tiles"]
    assert {t["name"] for t in shown} == {"", "Forge"}


def test_api_corrections_are_logged_with_the_user_and_refused_in_the_fleets_phase(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    rnd = lg.start()
    response = client.patch(lg.url(f"tiles/{tiles[0].pk}/"), {"name": "Gate"}, format="json")
    assert response.status_code == 200
    action = AdminAction.objects.get()
    assert (action.actor, action.kind, action.after) == (lg.admin, "tile.update",
                                                         {"name": "Gate"})
    assert client.delete(lg.url(f"tiles/{tiles[1].pk}/")).status_code == 204
    assert AdminAction.objects.filter(kind="tile.delete", actor=lg.admin).exists()
    Round.objects.filter(pk=rnd.pk).update(phase=Round.Phase.FLEETS)
    refused = client.post(lg.url("planets/"), {"name": "Beta"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "automatic_phase"
    assert AdminAction.objects.count() == 2


def test_map_import_in_a_running_campaign_is_a_logged_correction(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    lg.start()
    document = {"planets": [{"name": "Gamma", "tiles": [{"q": 0, "r": 0, "name": "Spire"}]}]}
    assert client.post(lg.url("map/import/"), document, format="json").status_code == 201
    assert Tile.objects.get(campaign=lg.campaign).name == "Spire"
    action = AdminAction.objects.get()
    assert (action.kind, action.actor) == ("map.import", lg.admin)
    assert action.before == {"planets": 1, "tiles": 2, "areas": 0}
    assert action.after == {"planets": 1, "tiles": 1, "areas": 0}
    bad = {"planets": [{"name": "G", "tiles": [{"q": 0, "r": 0, "name": "y" * 41}]}]}
    response = client.post(lg.url("map/import/"), bad, format="json")
    assert response.status_code == 400
    assert "planets[0].tiles[0].name" in response.json()["errors"]


# --- the admin's optional reason (R-SEC-2): shown with the correction in the audit log -------

REASON = "Tile owner fixed after the dispute of round 2"


def test_a_correction_carries_the_admins_optional_reason(world):
    lg, alpha, tiles = world
    lg.start()
    services.tile_update(tile=tiles[0], owner=lg.b, actor=lg.admin, reason=f"  {REASON} ")
    services.tile_update(tile=tiles[1], name="Quiet", actor=lg.admin)  # no reason: allowed
    first, second = AdminAction.objects.order_by("id")
    assert (first.kind, first.after, first.reason) == ("tile.update", {"owner": lg.b.faction},
                                                       REASON)
    assert second.reason == ""


def test_a_reason_over_500_characters_is_refused_and_nothing_changes(world):
    lg, alpha, tiles = world
    lg.start()
    with pytest.raises(DomainError) as refused:
        services.tile_update(tile=tiles[0], owner=lg.b, actor=lg.admin, reason="x" * 501)
    assert (refused.value.field, refused.value.status) == ("reason", 400)
    assert Tile.objects.get(pk=tiles[0].pk).owner == lg.a
    assert not AdminAction.objects.exists()


def test_api_tile_owner_correction_with_a_reason_lands_in_the_audit_log(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    lg.start()
    response = client.patch(lg.url(f"tiles/{tiles[0].pk}/"),
                            {"owner": lg.b.pk, "reason": REASON}, format="json")
    assert response.status_code == 200 and "reason" not in response.json()
    action = AdminAction.objects.get()
    assert (action.kind, action.after, action.reason) == ("tile.update", {"owner": lg.b.faction},
                                                          REASON)
    log = client.get(lg.url("audit-log/")).json()["results"]
    assert log[0]["reason"] == REASON


def test_api_a_reason_over_500_characters_is_a_400_naming_the_field(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    lg.start()
    response = client.patch(lg.url(f"tiles/{tiles[0].pk}/"),
                            {"owner": lg.b.pk, "reason": "x" * 501}, format="json")
    assert response.status_code == 400 and "reason" in response.json()["errors"]
    deleted = client.delete(lg.url(f"tiles/{tiles[1].pk}/") + "?reason=" + "x" * 501)
    assert deleted.status_code == 400 and "reason" in deleted.json()["errors"]
    assert Tile.objects.filter(campaign=lg.campaign).count() == 2
    assert not AdminAction.objects.exists()


def test_api_delete_and_map_import_take_the_reason(world):
    lg, alpha, tiles = world
    client = api(lg.admin)
    lg.start()
    assert client.delete(lg.url(f"tiles/{tiles[1].pk}/") + "?reason=Misplaced").status_code == 204
    document = {"planets": [{"name": "Gamma", "tiles": [{"q": 0, "r": 0}]}],
                "reason": "The map of the rulebook"}
    assert client.post(lg.url("map/import/"), document, format="json").status_code == 201
    assert list(AdminAction.objects.order_by("id").values_list("kind", "reason")) == [
        ("tile.delete", "Misplaced"), ("map.import", "The map of the rulebook")]
    too_long = client.post(lg.url("map/import/"), {**document, "reason": "x" * 501},
                           format="json")
    assert too_long.status_code == 400 and "reason" in too_long.json()["errors"]
