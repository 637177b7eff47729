"""Edits made in the Django admin land in the campaign's audit log (R-SEC-2): the staff user,
the object, the changed fields before and after; hidden facts (a player's requisition, fleets)
in admin-only entries, map facts public."""

import pytest
from django.contrib.auth.models import User

from campaigns.models import AdminAction, Player
from tests.worlds import client_for, tile


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("root", "root@example.org", "pw")


def test_r_sec_2_a_requisition_edited_in_the_django_admin_is_logged_admin_only(lg, staff):
    player = lg.a
    response = client_for(staff).post(f"/admin/campaigns/player/{player.pk}/change/", {
        "user": player.user_id, "campaign": player.campaign_id, "faction": player.faction,
        "colour": player.colour, "requisition": 42,
        "joined_at_0": "2024-01-01", "joined_at_1": "10:00:00"})
    assert response.status_code == 302, response.content[:2000]
    assert Player.objects.get(pk=player.pk).requisition == 42
    entry = AdminAction.objects.get(campaign=lg.campaign, kind="staff.change")
    assert entry.actor == staff and entry.public is False
    assert entry.before == {"requisition": 10} and entry.after == {"requisition": 42}
    assert str(player.pk) in entry.target


def test_r_sec_2_a_tile_deleted_in_the_django_admin_is_a_public_entry(lg, staff):
    target = tile(lg.planet("Alpha"), 0, 0, lg.a)
    response = client_for(staff).post(f"/admin/campaigns/tile/{target.pk}/delete/",
                                      {"post": "yes"})
    assert response.status_code == 302
    entry = AdminAction.objects.get(campaign=lg.campaign, kind="staff.delete")
    assert entry.public and entry.actor == staff
