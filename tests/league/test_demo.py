"""`manage.py demo`: a living public campaign for newcomers, created once."""

import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Marker, Round, Tile
from fleets.models import Area, Fleet
from league.demo import DEMO_NAME

pytestmark = pytest.mark.django_db


def test_demo_builds_a_living_campaign_once(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    assert "player anna: password" in first
    call_command("demo")
    assert "password" not in capsys.readouterr().out
    campaign = Campaign.objects.get(name=DEMO_NAME)
    assert Campaign.objects.filter(name=DEMO_NAME).count() == 1
    assert campaign.visibility == "public"
    assert [p.tiles.count() for p in campaign.planets.all()] == [19, 19]
    features = {f for fs in Tile.objects.filter(campaign=campaign).values_list("features",
                                                                               flat=True)
                for f in fs}
    assert features == {"mountain", "spaceport", "macropole", "defence"}
    assert set(Marker.objects.filter(campaign=campaign).values_list("type__code", flat=True)) \
        == {"manufactorum", "shield_generator"}
    assert campaign.players.count() == 4
    kinds = list(Area.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert kinds.count("orbit") == 2 and "ocean" in kinds and "coastal" in kinds
    for player in campaign.players.all():
        assert Fleet.objects.filter(owner=player).exists()
        assert player.tiles.exists()
    assert Round.objects.get(campaign=campaign).phase == "declare"
    assert campaign.admins.filter(username="admin").exists()


def test_demo_map_is_readable_anonymously(client):
    call_command("demo")
    campaign = Campaign.objects.get(name=DEMO_NAME)
    body = client.get(f"/api/v1/campaigns/{campaign.pk}/map/").json()
    assert len(body["planets"]) == 2 and body["fleets"]
    assert "Magos Vettius" not in str(body)  # crews are hidden (R-FLT-7)
