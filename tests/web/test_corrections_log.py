"""The corrections log page: who, when, what, before -> after in readable,
translated form; members read the public entries, the campaign admin all of them."""

import pytest

from campaigns.models import AdminAction
from campaigns.services import map as services
from campaigns.services.admin_log import record
from tests.factories import TileFactory, UserFactory
from tests.worlds import client_for, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged():
    lg = make_league()
    tile = TileFactory(planet=lg.planet("Alpha"), q=2, r=0)
    lg.start()
    services.tile_update(tile=tile, owner=lg.a, features=["mountain", "defence"], name="Peak",
                         actor=lg.admin)
    record(campaign=lg.campaign, actor=lg.admin, kind="ship.update", target="fleet Hidden",
           before={"attack": 3}, after={"attack": 9}, public=False)
    return lg


def _log(lg, user, **headers):
    return client_for(user).get(f"/campaigns/{lg.campaign.pk}/log/", **headers)


def test_members_read_the_public_corrections_in_readable_form(logged):
    response = _log(logged, logged.b.user)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tile changed" in html and "Alpha (2, 0)" in html
    assert "Owner: — → " + logged.a.faction in html
    assert "Features: — → Mountain, Defence line" in html
    assert "Name: — → Peak" in html
    assert "orga" in html  # who
    assert "fleet Hidden" not in html and "Ship changed" not in html  # R-FLT-7


def test_the_admin_reads_every_entry(logged):
    html = _log(logged, logged.admin).content.decode()
    assert "fleet Hidden" in html and "Attack: 3 → 9" in html and "(admins only)" in html


def test_the_log_in_german(logged):
    html = _log(logged, logged.b.user, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Protokoll" in html and "Feld geändert" in html
    assert "Besitzer: — → " in html and "Geländemerkmale: — → Gebirge" in html


def test_outsiders_do_not_read_the_log(logged):
    assert _log(logged, UserFactory()).status_code == 404  # a private campaign stays hidden
    anonymous = client_for().get(f"/campaigns/{logged.campaign.pk}/log/")
    assert anonymous.status_code in (302, 404)


def test_the_log_pages_through_many_entries(logged):
    AdminAction.objects.bulk_create(
        AdminAction(campaign=logged.campaign, actor=logged.admin, kind="tile.update",
                    target=f"T{n}", before={"name": ""}, after={"name": f"N{n}"})
        for n in range(60))
    first = _log(logged, logged.admin).content.decode()
    assert "Page 1 of 2" in first and "?page=2" in first


def test_a_map_corrections_reason_is_shown_with_it(logged):
    """R-SEC-2: the map editor's optional reason is shown with the public entry."""
    tile = TileFactory(planet=logged.planet("Beta"), q=0, r=0)
    services.tile_update(tile=tile, owner=logged.b, actor=logged.admin,
                         reason="Tile owner fixed after the dispute of round 2")
    html = _log(logged, logged.a.user).content.decode()
    assert "Reason: Tile owner fixed after the dispute of round 2" in html
