"""From invitation to declaration: a person with only an e-mail address goes from the invitation
mail to declaring an attack, and nobody touches the Django admin: the admin invites on the
Members tab, the invitee signs up from the mail's link with Europe/Berlin as time zone, joins
with a faction and colour, sees the deadline in Berlin time, and declares on the map."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from campaigns.models import Attack, Player
from campaigns.services.map import tile_update
from league.services.rounds import round_set_deadline
from tests.e2e.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def _winter_deadline() -> datetime:
    """18:00 UTC on a day in winter time (CET, UTC+1) at least two days ahead: 19:00 Berlin."""
    day = timezone.now() + timedelta(days=2)
    while day.month not in (11, 12, 1, 2):
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, 18, 0, tzinfo=UTC)


def test_from_an_invitation_mail_to_a_declared_attack(browsing, page_world, viewport):
    world = page_world
    deadline = _winter_deadline()
    round_set_deadline(rnd=world.rnd, deadline=deadline)

    admin = browsing.login(world.lg.admin.username)
    admin.goto(world.url("manage/members/"))
    admin.fill("#id_emails", "newbie@example.org")
    admin.get_by_role("button", name="Send invitations").click()
    expect(admin.locator(".messages")).to_contain_text("Invitations sent: 1.")
    (message,) = [m for m in mail.outbox if m.to == ["newbie@example.org"]]
    link = re.search(r"https?://\S+/invite/\S+/", message.body).group(0)

    newbie = browsing.page(viewport=viewport)
    newbie.goto("/invite/" + link.split("/invite/", 1)[1])  # SITE_URL is not the test server
    newbie.locator("#invitation-signup").click()
    newbie.fill("#id_username", "newbie")
    newbie.fill("#id_email", "newbie@example.org")
    newbie.fill("#id_password1", PASSWORD)
    newbie.fill("#id_password2", PASSWORD)
    newbie.select_option("#id_time_zone", "Europe/Berlin")
    newbie.get_by_role("button", name="Create account").click()
    expect(newbie.locator("[role=status]")).to_contain_text("Check your inbox")
    (signup,) = [m for m in mail.outbox if m.to == ["newbie@example.org"]
                 and "/signup/confirm/" in m.body]
    confirm = re.search(r"/accounts/signup/confirm/\S+/", signup.body).group(0)
    newbie.goto(confirm)  # in the browser that signed up
    newbie.get_by_role("button", name="Create account").click()
    expect(newbie.locator("#invitation-state")).to_contain_text("You are invited to play")
    newbie.fill("#id_faction", "Necrons")
    newbie.get_by_role("button", name="Join the campaign").click()
    player = Player.objects.get(campaign=world.campaign, user__username="newbie")
    assert player.faction == "Necrons"

    # the deadline 18:00 UTC is shown as 19:00 in Berlin (winter time), with the zone named
    newbie.goto(world.url())
    shown = newbie.locator(".deadline time").first
    expect(shown).to_contain_text(re.compile(r"19:00|7 p\.m\."))
    expect(shown).to_have_attribute("title", "Europe/Berlin")

    # the admin hands the newcomer a tile (the map editor's owner field), then they declare
    tile_update(tile=world.tiles["free"], owner=player, actor=world.lg.admin)
    target = world.tiles["b-edge"]
    newbie.goto(world.url("map/"))
    newbie.fill("#id_attack_armies", "1")
    newbie.get_by_role("button", name="Buy").click()
    expect(newbie.locator(".messages")).to_contain_text("Bought 1 attack army")
    newbie.locator(f'polygon[data-tile-id="{target.pk}"]').click()
    newbie.locator("#tile-panel").get_by_role("button", name="Declare attack").click()
    expect(newbie.locator(".messages")).to_contain_text("Attack declared")
    assert Attack.objects.filter(player=player, tile=target, status="active").exists()
