"""Pause, resume and extend in the pages (English and German): the pause banner on every
campaign page, the manage page's pause, resume and extend sections, a player's write refused as
a form error naming the pause, the weekly-deadline fields of the ruleset form and the computed
next deadline, and the daylight-saving walk of a weekly deadline (R-RND-1 [reading])."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from campaigns.models import AdminAction, Campaign, Round
from league.services.pause import campaign_pause
from league.services.rounds import campaign_start, round_advance
from tests.worlds import client_for, make_league

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
REASON = "Club closed for Easter"
PAGES = ("", "map/", "battles/", "standings/", "fleets/", "conquest/",
         "manage/", "manage/members/")


def _pause(world, reason=REASON):
    campaign_pause(campaign=world.campaign, by=world.lg.admin, reason=reason)


def _html(response) -> str:
    return response.content.decode()


def test_the_banner_names_the_pause_on_every_campaign_page(page_world):
    _pause(page_world)
    admin, player = client_for(page_world.lg.admin), client_for(page_world.lg.a.user)
    for rest in PAGES:
        response = (admin if rest.startswith("manage/") else player).get(page_world.url(rest))
        assert response.status_code == 200, rest
        html = _html(response)
        assert 'id="paused-banner"' in html and REASON in html, rest
    german = _html(client_for(page_world.lg.a.user).get(page_world.url(), **DE))
    assert "Die Kampagne ist pausiert." in german and REASON in german


def test_no_banner_while_running(page_world):
    html = _html(client_for(page_world.lg.a.user).get(page_world.url()))
    assert 'id="paused-banner"' not in html


def test_a_player_s_write_is_a_form_error_naming_the_pause(page_world):
    _pause(page_world)
    response = client_for(page_world.lg.a.user).post(page_world.url("map/purchase/"),
                                                     {"attack_armies": 1})
    assert response.status_code == 400
    assert REASON in _html(response) and "paused" in _html(response)
    german = client_for(page_world.lg.a.user).post(page_world.url("map/purchase/"),
                                                   {"attack_armies": 1}, **DE)
    assert "pausiert" in _html(german)


def test_the_admin_pauses_and_resumes_on_the_manage_page(page_world):
    admin = client_for(page_world.lg.admin)
    html = _html(admin.get(page_world.url("manage/")))
    assert 'id="pause"' in html and 'name="reason"' in html
    response = admin.post(page_world.url("manage/pause/"), {"reason": REASON})
    assert response.status_code == 302 and response["Location"].endswith("#pause")
    campaign = Campaign.objects.get(pk=page_world.campaign.pk)
    assert campaign.paused_at is not None and campaign.pause_reason == REASON
    html = _html(admin.get(page_world.url("manage/")))
    assert 'id="pause-state"' in html and 'id="paused-deadline"' in html
    assert "manage/resume/" in html
    again = admin.post(page_world.url("manage/pause/"), {"reason": "twice"})
    assert again.status_code == 400 and "paused already" in _html(again)
    refused = admin.post(page_world.url("manage/advance/"),
                         {"expected_phase": "declare", "confirm": "yes"})
    assert refused.status_code == 400 and "resume it first" in _html(refused)
    assert admin.post(page_world.url("manage/resume/")).status_code == 302
    assert Campaign.objects.get(pk=page_world.campaign.pk).paused_at is None
    kinds = set(AdminAction.objects.values_list("kind", flat=True))
    assert {"campaign.pause", "campaign.resume"} <= kinds


def test_the_manage_page_in_german(page_world):
    _pause(page_world)
    html = _html(client_for(page_world.lg.admin).get(page_world.url("manage/"), **DE))
    assert "Kampagne fortsetzen" in html and "Frist verlängern" in html


def test_players_do_not_pause(page_world):
    player = client_for(page_world.lg.a.user)
    assert player.post(page_world.url("manage/pause/"), {"reason": "x"}).status_code == 403
    assert player.post(page_world.url("manage/extend/"), {"hours": 24}).status_code == 403
    assert Campaign.objects.get(pk=page_world.campaign.pk).paused_at is None


@pytest.mark.parametrize("hours", [24, 48, 5])
def test_extend_buttons_and_field(page_world, hours):
    before = Round.objects.get(pk=page_world.rnd.pk).phase_deadline
    admin = client_for(page_world.lg.admin)
    html = _html(admin.get(page_world.url("manage/")))
    assert 'name="hours" value="24"' in html and 'name="hours" value="48"' in html
    response = admin.post(page_world.url("manage/extend/"), {"hours": hours})
    assert response.status_code == 302
    after = Round.objects.get(pk=page_world.rnd.pk).phase_deadline
    assert after - before == timedelta(hours=hours)
    entry = AdminAction.objects.get(kind="round.extend")
    assert entry.after["hours"] == hours and entry.actor == page_world.lg.admin


def test_extend_out_of_range_is_a_form_error(page_world):
    response = client_for(page_world.lg.admin).post(page_world.url("manage/extend/"),
                                                    {"hours": 721})
    assert response.status_code == 400 and 'id="id_hours_error"' in _html(response)


# --- weekly deadlines on the ruleset form ------------------------------------

def _ruleset_post(world, **changes) -> dict:
    data = {k: ("on" if v is True else v) for k, v in world.campaign.ruleset.items()
            if k not in ("phase_hours", "weekly_deadlines") and v is not None and v is not False}
    data.update({f"phase_hours_{p}": h for p, h in world.campaign.ruleset["phase_hours"].items()})
    data.update(changes)
    return data


def test_the_ruleset_form_sets_weekly_deadlines(page_world):
    admin = client_for(page_world.lg.admin)
    html = _html(admin.get(page_world.url("manage/")))
    assert 'name="weekly_declare_weekday"' in html and 'name="weekly_declare_time"' in html
    response = admin.post(page_world.url("manage/ruleset/"), _ruleset_post(
        page_world, weekly_declare_weekday="wednesday", weekly_declare_time="20:00"))
    assert response.status_code == 302
    campaign = Campaign.objects.get(pk=page_world.campaign.pk)
    assert campaign.ruleset["weekly_deadlines"] == {
        "declare": {"weekday": "wednesday", "time": "20:00"}}
    html = _html(admin.get(page_world.url("manage/")))
    assert '<option value="wednesday" selected>' in html and 'value="20:00"' in html
    assert 'id="weekly-preview"' in html  # the next deadline, computed
    cleared = admin.post(page_world.url("manage/ruleset/"),
                         _ruleset_post(page_world, weekly_declare_weekday=""))
    assert cleared.status_code == 302
    assert Campaign.objects.get(pk=page_world.campaign.pk).ruleset["weekly_deadlines"] == {}


def test_a_weekday_without_a_time_is_an_error_on_the_time_field(page_world):
    response = client_for(page_world.lg.admin).post(page_world.url("manage/ruleset/"),
                                                    _ruleset_post(
        page_world, weekly_lists_weekday="friday", weekly_lists_time=""))
    assert response.status_code == 400
    assert 'id="id_weekly_lists_time_error"' in _html(response)


# --- daylight saving --------------------------------------------------------

def _deadline_shown(html: str, instant: datetime) -> str:
    stamp = re.escape(instant.isoformat())
    found = re.search(rf'<time datetime="{stamp}"[^>]*>([^<]*)</time>', html)
    assert found, instant
    return found.group(1)


def test_weekly_deadline_keeps_20_00_berlin_across_the_october_change(db):
    """Declare closes Wednesday 20:00 Europe/Berlin: a round opened before the last Sunday of
    October 2026 (25th) closes at 18:00 UTC (CEST), the next one after it at 19:00 UTC (CET);
    the manage page shows 20:00 both times."""
    lg = make_league(name="Berlin league")
    lg.campaign.time_zone = "Europe/Berlin"
    lg.campaign.save(update_fields=["time_zone"])
    lg.set_rules(weekly_deadlines={"declare": {"weekday": "wednesday", "time": "20:00"}})
    admin = client_for(lg.admin)
    one = campaign_start(campaign=lg.campaign, now=datetime(2026, 10, 19, 12, 0, tzinfo=UTC))
    assert one.phase_deadline == datetime(2026, 10, 21, 18, 0, tzinfo=UTC)
    html = _html(admin.get(f"/campaigns/{lg.campaign.pk}/manage/", **DE))
    assert "20:00" in _deadline_shown(html, one.phase_deadline)
    after_change = datetime(2026, 10, 26, 12, 0, tzinfo=UTC)
    while one.phase != Round.Phase.CLOSED:
        one = round_advance(round_id=one.pk, expected_phase=one.phase, now=after_change)
    two = lg.campaign.rounds.get(number=2)
    assert two.phase_deadline == datetime(2026, 10, 28, 19, 0, tzinfo=UTC)
    html = _html(admin.get(f"/campaigns/{lg.campaign.pk}/manage/", **DE))
    assert "20:00" in _deadline_shown(html, two.phase_deadline)
