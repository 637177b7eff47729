"""Every date and time a person sees or enters on the pages is in their time
zone (their own, else the campaign's, else the site's), with the zone named; stored times stay
UTC. The last Sunday of October 2026 is 25 October: Europe/Berlin goes from CEST (UTC+2) to
CET (UTC+1) at 03:00 local time, so 02:00-03:00 happens twice that night."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, ScheduleProposal
from campaigns.models import Campaign, Invitation, Round
from campaigns.services.accounts import profile_update
from campaigns.services.invitations import invitation_link_create
from tests.factories import ScheduleProposalFactory, UserFactory
from tests.web.queries import assert_constant_queries, grow
from tests.worlds import battle_url, client_for, hand_in, page_duel

BERLIN = "Europe/Berlin"
BEFORE_CHANGE = datetime(2026, 10, 24, 18, 0, tzinfo=UTC)  # 20:00 CEST
AFTER_CHANGE = datetime(2026, 10, 26, 19, 0, tzinfo=UTC)  # 20:00 CET
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def set_deadline(world, at: datetime) -> None:
    Round.objects.filter(pk=world.rnd.pk).update(phase_deadline=at)


def set_zone(campaign: Campaign, name: str) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(time_zone=name)


def page(user, url: str, **headers) -> str:
    response = client_for(user).get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def deadline_element(html: str) -> str:
    """The ``<time>`` of the page's deadline."""
    start = html.index('<span class="deadline">')
    return html[html.index("<time", start):html.index("</time>", start) + len("</time>")]


def next_october_change(now: datetime) -> datetime:
    """The next last Sunday of October (Europe/Berlin's change back to CET) after ``now``, as a
    naive date: always less than a year ahead, as battle dates must be (R-BAT-2)."""
    year = now.year
    while True:
        day = datetime(year, 10, 31)
        day -= timedelta(days=(day.weekday() + 1) % 7)  # back to a Sunday
        if day > now.replace(tzinfo=None) + timedelta(days=2):
            return day
        year += 1


# --- what a person sees ----------------------------------------------------------------------

def test_berlin_member_sees_the_deadline_in_cest_before_and_cet_after_the_change(
        page_world):
    anna = page_world.lg.a.user
    profile_update(user=anna, time_zone=BERLIN)
    set_deadline(page_world, BEFORE_CHANGE)
    german = deadline_element(page(anna, page_world.url(), **GERMAN))
    assert german == ('<time datetime="2026-10-24T18:00:00+00:00" title="Europe/Berlin">'
                      "Sa. 24. Okt. 2026, 20:00 MESZ</time>")
    english = deadline_element(page(anna, page_world.url()))
    assert "Sat 24 Oct 2026, 20:00 CEST</time>" in english
    set_deadline(page_world, AFTER_CHANGE)
    html = page(anna, page_world.url(), **GERMAN)
    assert deadline_element(html) == (
        '<time datetime="2026-10-26T19:00:00+00:00" title="Europe/Berlin">'
        "Mo. 26. Okt. 2026, 20:00 MEZ</time>")
    assert 'data-countdown="2026-10-26T19:00:00+00:00"' in html  # scripts get the UTC instant
    assert " UTC" not in html


def test_a_member_without_a_zone_sees_the_campaign_s(page_world):
    set_zone(page_world.campaign, "America/New_York")
    set_deadline(page_world, BEFORE_CHANGE)
    shown = deadline_element(page(page_world.lg.b.user, page_world.url()))
    assert 'title="America/New_York"' in shown and "14:00 EDT" in shown


def test_the_member_s_own_zone_wins_over_the_campaign_s(page_world):
    set_zone(page_world.campaign, "America/New_York")
    profile_update(user=page_world.lg.b.user, time_zone="Asia/Tokyo")
    set_deadline(page_world, BEFORE_CHANGE)
    shown = deadline_element(page(page_world.lg.b.user, page_world.url()))
    assert 'title="Asia/Tokyo"' in shown and "Sun 25 Oct 2026, 03:00 JST" in shown


def test_an_anonymous_visitor_of_a_public_campaign_sees_the_campaign_s_zone(
        public_page_world):
    set_zone(public_page_world.campaign, BERLIN)
    set_deadline(public_page_world, AFTER_CHANGE)
    shown = deadline_element(page(None, public_page_world.url(), **GERMAN))
    assert "Mo. 26. Okt. 2026, 20:00 MEZ" in shown


def test_pages_outside_a_campaign_use_the_person_s_zone_else_the_site_s(
        public_page_world, settings):
    set_zone(public_page_world.campaign, BERLIN)
    set_deadline(public_page_world, BEFORE_CHANGE)
    assert "Sat 24 Oct 2026, 18:00 UTC" in deadline_element(page(None, "/"))
    anna = public_page_world.lg.a.user
    profile_update(user=anna, time_zone="Asia/Tokyo")
    assert "03:00 JST" in deadline_element(page(anna, "/"))


def test_battle_dates_proposals_lists_and_history_are_local(page_world):
    battle = page_duel(page_world, "lists")
    profile_update(user=page_world.lg.a.user, time_zone=BERLIN)
    Battle.objects.filter(pk=battle.pk).update(scheduled_at=BEFORE_CHANGE, place="Keller")
    ScheduleProposalFactory(battle=battle, proposed_by=page_world.lg.b,
                            proposed_at=AFTER_CHANGE, place="Halle")
    listed = hand_in(battle, page_world.lg.a, "Skitarii")
    type(listed).objects.filter(pk=listed.pk).update(submitted_at=AFTER_CHANGE)
    html = page(page_world.lg.a.user, battle_url(page_world, battle), **GERMAN)
    assert "Vereinbart: <time datetime=\"2026-10-24T18:00:00+00:00\" title=\"Europe/Berlin\">" \
           "Sa. 24. Okt. 2026, 20:00 MESZ</time>, Ort: Keller" in html
    assert "Mo. 26. Okt. 2026, 20:00 MEZ</time>, Ort: Halle" in html
    assert re.search(r'eingereicht <time datetime="2026-10-26T19:00:00\+00:00" '
                     r'title="Europe/Berlin">26\. Okt\.( 2026)?, 20:00 MEZ</time>', html)
    assert " UTC" not in html
    cards = page(page_world.lg.a.user, page_world.url("battles/"), **GERMAN)
    assert "Sa. 24. Okt. 2026, 20:00 MESZ</time>, Keller" in cards


def test_the_invitation_list_shows_expiry_in_local_time(page_world):
    admin = page_world.lg.admin
    profile_update(user=admin, time_zone=BERLIN)
    invitation_link_create(campaign=page_world.campaign, by=admin)
    Invitation.objects.filter(campaign=page_world.campaign).update(expires_at=AFTER_CHANGE)
    html = page(admin, page_world.url("manage/members/"), **GERMAN)
    assert re.search(r'title="Europe/Berlin">26\. Okt\.( 2026)?, 20:00 MEZ</time>', html)


# --- what a person enters --------------------------------------------------------------------

def _post_deadline(world, value: str, **headers):
    return client_for(world.lg.admin).post(world.url("manage/deadline/"),
                                           {"phase_deadline": value}, **headers)


@pytest.mark.parametrize(("entered", "stored"), [
    ("2026-10-26T20:00", datetime(2026, 10, 26, 19, 0, tzinfo=UTC)),
    ("2026-10-24T20:00", datetime(2026, 10, 24, 18, 0, tzinfo=UTC)),
])
def test_an_entered_deadline_is_read_in_the_admin_s_zone(page_world, entered, stored):
    profile_update(user=page_world.lg.admin, time_zone=BERLIN)
    response = _post_deadline(page_world, entered)
    assert response.status_code == 302, response.content.decode()[:2000]
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase_deadline == stored


def test_an_ambiguous_local_time_is_a_form_error_not_a_500(page_world):
    profile_update(user=page_world.lg.admin, time_zone=BERLIN)
    before = Round.objects.get(pk=page_world.rnd.pk).phase_deadline
    response = _post_deadline(page_world, "2026-10-25T02:30")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_phase_deadline_error"' in html and "happens twice in Europe/Berlin" in html
    assert Round.objects.get(pk=page_world.rnd.pk).phase_deadline == before
    german = _post_deadline(page_world, "2026-10-25T02:30", **GERMAN).content.decode()
    assert "gibt es in Europe/Berlin nicht oder zweimal" in german
    skipped = _post_deadline(page_world, "2027-03-28T02:30")  # the spring change skips it
    assert skipped.status_code == 400


def test_the_form_labels_name_the_zone(page_world):
    profile_update(user=page_world.lg.admin, time_zone=BERLIN)
    html = page(page_world.lg.admin, page_world.url("manage/"), **GERMAN)
    assert "Frist (Europe/Berlin)" in html and "(UTC)" not in html
    html = page(page_world.lg.admin, page_world.url("manage/"))
    assert "Deadline (Europe/Berlin)" in html
    set_deadline(page_world, BEFORE_CHANGE)  # the field shows the stored time in local time
    html = page(page_world.lg.admin, page_world.url("manage/"))
    assert 'value="2026-10-24T20:00"' in html


def test_a_proposed_battle_date_is_read_in_the_player_s_zone(page_world):
    battle = page_duel(page_world, "lists")
    ben = page_world.lg.b.user
    profile_update(user=ben, time_zone=BERLIN)
    change = next_october_change(timezone.now())
    url = battle_url(page_world, battle, "schedule/")
    ambiguous = client_for(ben).post(url, {"proposed_at": f"{change:%Y-%m-%d}T02:30",
                                           "place": "Keller"})
    assert ambiguous.status_code == 400 and "happens twice" in ambiguous.content.decode()
    day_after = change + timedelta(days=1)
    done = client_for(ben).post(url, {"proposed_at": f"{day_after:%Y-%m-%d}T20:00",
                                      "place": "Keller"})
    assert done.status_code == 302
    proposal = ScheduleProposal.objects.get(battle=battle)
    assert proposal.proposed_at == datetime(day_after.year, day_after.month, day_after.day,
                                            19, 0, tzinfo=UTC)


def test_an_invitation_expiry_is_read_in_the_admin_s_zone(page_world):
    admin = page_world.lg.admin
    profile_update(user=admin, time_zone=BERLIN)
    change = next_october_change(timezone.now())
    day_after = change + timedelta(days=1)
    response = client_for(admin).post(page_world.url("manage/members/links/"),
                                      {"expires_at": f"{day_after:%Y-%m-%d}T20:00"})
    assert response.status_code in (200, 302), response.content.decode()[:1000]
    invitation = Invitation.objects.get(campaign=page_world.campaign)
    assert invitation.expires_at.astimezone(ZoneInfo(BERLIN)).hour == 20
    assert invitation.expires_at.astimezone(UTC).hour == 19


# --- choosing zones --------------------------------------------------------------------------

def test_a_new_campaign_takes_the_creator_s_zone_by_default(db, settings):
    staff = UserFactory(username="chef", is_staff=True)
    profile_update(user=staff, time_zone=BERLIN)
    form = page(staff, "/")
    assert '<option value="Europe/Berlin" selected>' in form
    response = client_for(staff).post(reverse("campaigns:create"),
                                      {"name": "Liga", "visibility": "private",
                                       "time_zone": "Asia/Tokyo"})
    assert response.status_code == 302
    assert Campaign.objects.get(name="Liga").time_zone == "Asia/Tokyo"
    client_for(staff).post(reverse("campaigns:create"), {"name": "Ohne", "visibility": "private"})
    assert Campaign.objects.get(name="Ohne").time_zone == settings.CAMPAIGN_TIME_ZONE
    bad = client_for(staff).post(reverse("campaigns:create"),
                                 {"name": "Mars", "visibility": "private",
                                  "time_zone": "Mars/Olympus"})
    assert bad.status_code == 400 and not Campaign.objects.filter(name="Mars").exists()


def test_the_admin_changes_the_campaign_s_zone_on_the_manage_page(page_world):
    admin = client_for(page_world.lg.admin)
    html = admin.get(page_world.url("manage/")).content.decode()
    assert 'name="time_zone"' in html
    response = admin.post(page_world.url("manage/settings/"),
                          {"name": page_world.campaign.name, "visibility": "private",
                           "time_zone": BERLIN})
    assert response.status_code == 302
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.time_zone == BERLIN
    bad = admin.post(page_world.url("manage/settings/"),
                     {"name": page_world.campaign.name, "visibility": "private",
                      "time_zone": "../etc/passwd"})
    assert bad.status_code == 400 and 'id="id_time_zone_error"' in bad.content.decode()
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.time_zone == BERLIN


def test_sign_up_from_an_invitation_suggests_the_campaign_s_zone(page_world, settings):
    settings.OPEN_SIGNUP = False
    set_zone(page_world.campaign, BERLIN)
    page_world.campaign.refresh_from_db()
    _invitation, token = invitation_link_create(campaign=page_world.campaign,
                                                by=page_world.lg.admin)
    html = page(None, f"{reverse('signup')}?next=/invite/{token}/")
    assert '<option value="Europe/Berlin" selected>' in html
    settings.OPEN_SIGNUP = True
    settings.CAMPAIGN_TIME_ZONE = "Europe/Lisbon"
    plain = page(None, reverse("signup"))
    assert '<option value="Europe/Lisbon" selected>' in plain
    unknown = page(None, f"{reverse('signup')}?next=/invite/nonsense/")
    assert '<option value="Europe/Lisbon" selected>' in unknown


def test_the_profile_says_which_zone_is_in_use(page_world):
    anna = page_world.lg.a.user
    set_zone(page_world.campaign, BERLIN)
    html = page(anna, reverse("profile"))
    assert "You chose no time zone" in html
    assert f"{page_world.campaign.name}: Europe/Berlin" in html
    profile_update(user=anna, time_zone="Asia/Tokyo")
    assert "Times are shown in Asia/Tokyo." in page(anna, reverse("profile"))


# --- queries -----------------------------------------------------------------------------------

@pytest.mark.parametrize("zone", ["", BERLIN])
def test_the_zone_costs_no_queries_per_campaign_size(page_world, zone):
    anna = page_world.lg.a.user
    if zone:
        profile_update(user=anna, time_zone=zone)
    for rest in ("", "battles/"):
        assert_constant_queries(client_for(anna), page_world.url(rest), lambda: grow(page_world))


def _queries(client, url: str) -> int:
    client.get(url)  # the session's first request may set it up
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(("who", "extra"), [("anonymous", 0), ("own zone", 1), ("no zone", 1)])
def test_the_zone_costs_at_most_one_small_query_each(public_page_world, settings,
                                                               who, extra):
    """The person's zone (their profile) and, if they set none, the campaign's: one small
    query for a signed-in person on a page outside any campaign; none on a campaign's pages
    and the campaign list, which read the zones with their campaigns."""
    user = None if who == "anonymous" else public_page_world.lg.a.user
    if who == "own zone":
        profile_update(user=user, time_zone=BERLIN)
    urls = (public_page_world.url(), public_page_world.url("standings/"), "/",
            reverse("campaigns:rules"))
    with_zone = [_queries(client_for(user), url) for url in urls]
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.endswith("ActivateTimeZone")]
    without = [_queries(client_for(user), url) for url in urls]
    assert [a - b for a, b in zip(with_zone, without, strict=True)] == [0, 0, 0, extra]
