"""A club runs its season alone (R-RND-1, R-RND-2), in the browser, on the embedded defaults of
``make run`` (tasks in-process) with the in-process clock running (``league.clock``): the
organiser creates a campaign, invites two players by link, builds the map in the editor and
starts round 1; from then on nobody presses Advance and nobody types a command: the organiser
only sets deadlines to "now" on the manage page and the clock moves every phase on. A player
logged out (a phone's mail app) follows the mail's link to his battle and lands there after
logging in. In round 2 a player withdraws by mistake (the army stays spent, R-ATK-5), the
organiser gives the army back with a reason, and the audit log shows it. The test ends when
round 3 opens: two whole rounds played."""

import re
import time
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.core import mail
from playwright.sync_api import expect

from campaigns.models import AdminAction, Attack, Campaign, Player, Round
from league.clock import Clock
from tests.e2e.conftest import PASSWORD, PHONE
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # The test database of SQLite lives in shared memory, where two threads writing at once
    # meet table locks that no busy timeout waits for (a file, as make run uses, waits);
    # CI runs this test on PostgreSQL.
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                       reason="the clock thread and the live server write at once"),
]

WAIT = 30.0  # seconds a phase change may take: the clock ticks twice a second here


@pytest.fixture
def clock():
    """The clock of ``make run``, ticking every half second for the test's duration."""
    running = Clock(0.5)
    running.start()
    yield running
    running.stop()
    running.join(10)


def _round(campaign: Campaign) -> Round:
    return campaign.rounds.order_by("-number").first()


def _wait_for(campaign: Campaign, number: int, phase: str) -> None:
    """Until the clock moved the campaign to round ``number`` in ``phase``."""
    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        rnd = _round(campaign)
        if rnd is not None and (rnd.number, rnd.phase) == (number, phase):
            return
        time.sleep(0.2)
    rnd = _round(campaign)
    raise AssertionError(f"still in round {rnd.number} {rnd.phase}, waited for {number} {phase}")


def _deadline_now(page, campaign: Campaign) -> None:
    """The organiser sets the current phase's deadline to this minute on the manage page: it
    has passed (or passes within the minute) and the clock moves the round on."""
    page.goto(f"/campaigns/{campaign.pk}/manage/")
    now = datetime.now(UTC)  # the campaign's zone (UTC); minutes, as the browser's input
    page.fill("#id_phase_deadline", now.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Set the deadline").click()
    expect(page.locator(".messages")).to_contain_text("Deadline set.")


def _play_out(page, campaign: Campaign, number: int) -> None:
    """The organiser lets each deadline of round ``number`` pass until the next round opens;
    phases everyone is done with end early by themselves (R-RND-2)."""
    until = time.monotonic() + 6 * WAIT
    while (rnd := _round(campaign)).number == number:
        assert time.monotonic() < until, f"round {number} stuck in {rnd.phase}"
        _deadline_now(page, campaign)
        while (_round(campaign).number, _round(campaign).phase) == (number, rnd.phase):
            assert time.monotonic() < until, f"round {number} stuck in {rnd.phase}"
            time.sleep(0.2)


def _slot(page, q: int, r: int):
    return page.locator(f'svg.editor-grid a.slot[data-q="{q}"][data-r="{r}"]')


def _build_tile(page, q: int, r: int, name: str, owner: str | None) -> None:
    _slot(page, q, r).click()
    panel = page.locator("#tile-panel")
    expect(panel.locator("h2")).to_contain_text(f"({q}, {r})")
    panel.get_by_label("Tile name").fill(name)
    if owner:
        panel.get_by_label("Owner").select_option(label=owner)
    panel.get_by_role("button", name="Save tile").click()
    expect(page.locator(".messages")).to_contain_text(f"Tile {name} (")


def _open_signup_link(page, address: str) -> None:
    """Sign-up finishes from the link mailed to the address, in the browser that signed up."""
    expect(page.locator("[role=status]")).to_contain_text("Check your inbox")
    (message,) = [m for m in mail.outbox if m.to == [address] and "/signup/confirm/" in m.body]
    page.goto(re.search(r"/accounts/signup/confirm/\S+/", message.body).group(0))
    page.get_by_role("button", name="Create account").click()


def _join(browsing, link: str, username: str, faction: str):
    """A newcomer follows the invitation link, signs up and joins with a faction."""
    page = browsing.page(viewport=PHONE)
    page.goto(link)  # the site learned its address from the organiser's requests
    page.locator("#invitation-signup").click()
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    _open_signup_link(page, f"{username}@example.org")
    expect(page.locator("#invitation-state")).to_contain_text("You are invited to play")
    page.fill("#id_faction", faction)
    page.get_by_role("button", name="Join the campaign").click()
    expect(page.locator(".messages")).to_contain_text("Welcome: you now play in")
    return page


def _declare(page, campaign: Campaign, tile_id: int) -> None:
    page.goto(f"/campaigns/{campaign.pk}/map/")
    page.locator(f'polygon[data-tile-id="{tile_id}"]').click()
    page.locator("#tile-panel").get_by_role("button", name="Declare attack").click()
    expect(page.locator(".messages")).to_contain_text("Attack declared")


def _buy_and_declare(page, campaign: Campaign, tile_id: int) -> None:
    page.goto(f"/campaigns/{campaign.pk}/map/")
    page.fill("#id_attack_armies", "1")
    page.get_by_role("button", name="Buy").click()
    expect(page.locator(".messages")).to_contain_text("Bought 1 attack army")
    _declare(page, campaign, tile_id)


def test_a_club_plays_two_rounds_with_nobody_pressing_advance(browsing, clock):
    UserFactory(username="orga", email="orga@example.org", is_staff=True)

    # the organiser: a campaign, an invitation link, copied from the members page
    orga = browsing.login("orga")
    orga.fill("#id_name", "Grauer Pass League")
    orga.get_by_role("button", name="Create campaign").click()
    expect(orga.locator(".messages")).to_contain_text("Campaign created.")
    campaign = Campaign.objects.get(name="Grauer Pass League")
    orga.goto(f"/campaigns/{campaign.pk}/manage/members/")
    orga.get_by_label("Uses").fill("5")
    orga.get_by_role("button", name="Create link").click()
    link = orga.locator("#new-invitation-link").input_value()
    assert "/invite/" in link

    # two players sign up from the link and join
    anna = _join(browsing, link, "anna", "Adeptus Mechanicus")
    _join(browsing, link, "ben", "Orks")
    a, b = (Player.objects.get(campaign=campaign, user__username=name)
            for name in ("anna", "ben"))
    assert any(m.to == ["orga@example.org"] and "Orks" in m.body for m in mail.outbox)

    # the organiser builds the map in the editor and starts round 1
    orga.goto(f"/campaigns/{campaign.pk}/manage/")
    orga.get_by_role("link", name="Open the map editor").click()
    orga.get_by_label("Planet name").fill("Nordmark Prime")
    orga.get_by_role("button", name="Add planet").click()
    _build_tile(orga, 0, 0, "Grauer Pass", "Adeptus Mechanicus (anna)")
    _build_tile(orga, 1, 0, "Ash Wastes", "Orks (ben)")
    _build_tile(orga, 0, 1, "Rust Fields", None)
    tiles = {t.name: t for t in campaign.tiles.all()}
    orga.goto(f"/campaigns/{campaign.pk}/manage/")
    orga.get_by_role("button", name="Start round 1").click()
    orga.get_by_role("button", name=re.compile("^Yes")).click()  # the dialog asks first
    _wait_for(campaign, 1, "declare")

    # round 1: anna attacks ben's Ash Wastes; the clock runs declare, fleets and lists out
    _buy_and_declare(anna, campaign, tiles["Ash Wastes"].pk)
    _deadline_now(orga, campaign)
    _wait_for(campaign, 1, "lists")
    _deadline_now(orga, campaign)
    _wait_for(campaign, 1, "battles")

    # anna reports a victory; ben, logged out on his phone, follows the mail's link
    battle = campaign.rounds.get(number=1).battles.get()
    anna.goto(f"/campaigns/{campaign.pk}/battles/{battle.pk}/")
    anna.select_option("#id_outcome", "victory")
    anna.fill("#id_attacker_vp", "12")
    anna.fill("#id_defender_vp", "4")
    anna.get_by_role("button", name="Report", exact=True).click()
    expect(anna.locator("[data-result-status]")).to_contain_text("reported")
    (message,) = [m for m in mail.outbox if m.to == ["ben@example.org"]
                  and f"/battles/{battle.pk}/" in m.body]
    link = re.search(rf"https?://\S+/battles/{battle.pk}/", message.body).group(0)
    assert link.startswith(browsing.base)  # the address the organiser's requests came from
    phone = browsing.page(viewport=PHONE)
    phone.goto(link)
    expect(phone).to_have_url(re.compile(r"/accounts/login/\?next="))
    phone.fill("#id_username", "ben")
    phone.fill("#id_password", PASSWORD)
    phone.click("main button[type=submit]")
    expect(phone).to_have_url(re.compile(rf"/battles/{battle.pk}/$"))
    phone.get_by_role("button", name="Confirm the result").click()
    expect(phone.locator("[data-result-status]")).to_contain_text("confirmed")
    browsing.shot(phone, "ben-confirmed")

    # everyone is done with the battles: the clock (or the early advance) moves on; the
    # organiser lets the conquest deadline pass, and round 2 opens
    _wait_for(campaign, 1, "conquest")
    _deadline_now(orga, campaign)
    _wait_for(campaign, 2, "declare")
    tiles = {t.name: t for t in campaign.tiles.all()}
    assert tiles["Ash Wastes"].owner_id in (a.pk, b.pk)

    # round 2: anna withdraws by mistake (the dialog says the army stays spent)
    target = tiles["Rust Fields"]
    _buy_and_declare(anna, campaign, target.pk)
    anna.goto(f"/campaigns/{campaign.pk}/map/")
    anna.locator("ol.declarations").get_by_role("button", name="Withdraw").click()
    expect(anna.locator("dialog")).to_contain_text("stays spent")
    anna.locator("dialog").get_by_role("button", name=re.compile("^Yes")).click()
    expect(anna.locator(".messages")).to_contain_text("withdrawn")

    # the organiser gives the army back, with a reason, in the app
    orga.goto(f"/campaigns/{campaign.pk}/manage/members/players/{a.pk}/corrections/")
    orga.get_by_label("Attack armies left this round").fill("1")
    orga.locator("#armies").get_by_label("Reason").fill("Withdrew the wrong attack by mistake")
    orga.get_by_role("button", name="Save the correction").click()
    expect(orga.locator(".messages")).to_be_visible()
    orga.locator("main").get_by_role("link", name="Audit log").click()
    expect(orga.locator("main")).to_contain_text("Withdrew the wrong attack by mistake")
    browsing.shot(orga, "audit-log")
    entry = AdminAction.objects.get(campaign=campaign, kind="player.armies")
    assert (entry.before, entry.after) == ({"armies": 0}, {"armies": 1})

    # anna declares again with the army given back; the clock plays the round out
    _declare(anna, campaign, target.pk)
    assert Attack.objects.filter(player=a, round__number=2, status="active").count() == 1
    _play_out(orga, campaign, 2)  # the neutral tile needs no battle: phases end early

    # nobody pressed Advance: every phase change after the start is the clock's or early
    kinds = set(AdminAction.objects.filter(campaign=campaign, kind__startswith="round.")
                .values_list("kind", flat=True))
    assert "round.advance" in kinds  # the start of round 1, the only button pressed
    assert AdminAction.objects.filter(campaign=campaign, kind="round.advance").count() == 1
    assert {"round.deadline_advance", "round.job_advance"} <= kinds
