"""The admin's webhook pages (EN/DE), the API, and the Atom feed."""

from datetime import UTC, datetime
from xml.etree import ElementTree

import pytest

from battles.services.feeds import calendar_token_of
from campaigns.models import AdminAction, Profile, Webhook, WebhookDelivery
from campaigns.services.events import event_emit
from campaigns.site import site_url
from tests.worlds import api, client_for, make_league

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
ATOM = "{http://www.w3.org/2005/Atom}"


def _pages(lg) -> str:
    return f"/campaigns/{lg.campaign.pk}/manage/webhooks/"


@pytest.mark.django_db
def test_admin_adds_a_hook_sees_secret_sends_test_and_reads_the_log(
        receiver, django_capture_on_commit_callbacks):
    lg = make_league()
    client = client_for(lg.admin)
    assert client.get(_pages(lg)).status_code == 200
    answer = client.post(_pages(lg), {"url": receiver.url("/h"), "kind": "json",
                                      "events": ["round_closed", "phase_opened"],
                                      "language": "de", "audience": "members",
                                      "colour": "#112233", "enabled": "on"})
    hook = Webhook.objects.get(campaign=lg.campaign)
    assert answer.status_code == 302 and answer["Location"].endswith(f"/webhooks/{hook.pk}/")
    assert hook.events == ["phase_opened", "round_closed"] and hook.language == "de"
    page = client.get(answer["Location"]).content.decode()
    assert hook.secret in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{_pages(lg)}{hook.pk}/test/")
    assert len(receiver.received) == 1
    page = client.get(f"{_pages(lg)}{hook.pk}/").content.decode()
    assert "test" in page and "sent" in page
    # a refused address is a 400 with the reason next to the field, never a 500
    bad = client.post(f"{_pages(lg)}{hook.pk}/", {"url": "ftp://x", "kind": "json",
                                                   "language": "en", "audience": "members",
                                                   "colour": "#112233"})
    assert bad.status_code == 400
    client.post(f"{_pages(lg)}{hook.pk}/delete/", {"confirm": "yes"})
    assert not Webhook.objects.filter(pk=hook.pk).exists()
    # the audit log (admins only) names the host, never the URL's path or the secret
    logged = AdminAction.objects.filter(campaign=lg.campaign, kind__startswith="webhook.")
    assert sorted(a.kind for a in logged) == ["webhook.create", "webhook.delete"]
    assert not any(a.public for a in logged)
    assert all(hook.secret not in str(a.after) + str(a.before) and "/h" not in str(a.after)
               for a in logged)
    log_page = client.get(f"/campaigns/{lg.campaign.pk}/log/").content.decode()
    assert "Webhook added" in log_page


@pytest.mark.django_db
def test_webhook_pages_are_for_admins_only_and_german(receiver):
    lg = make_league()
    hook = Webhook.objects.create(campaign=lg.campaign, url=receiver.url("/h"), secret="s",
                                  events=["round_closed"])
    player = client_for(lg.a.user)
    assert player.get(_pages(lg)).status_code == 403
    assert player.post(f"{_pages(lg)}{hook.pk}/test/").status_code == 403
    assert not WebhookDelivery.objects.exists()
    german = client_for(lg.admin)
    page = german.get(_pages(lg), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ereignisse" in page and "Runde abgeschlossen" in page


@pytest.mark.django_db
def test_log_page_in_bounded_queries(receiver, django_assert_max_num_queries):
    lg = make_league()
    hook = Webhook.objects.create(campaign=lg.campaign, url=receiver.url("/h"), secret="s",
                                  events=["round_closed"], enabled=False)
    for i in range(30):
        WebhookDelivery.objects.create(hook=hook, event_key=f"k{i}", kind="round_closed",
                                       created_at=T0, status="failed", last_error="HTTP 500")
    client = client_for(lg.admin)
    with django_assert_max_num_queries(20):
        assert client.get(f"{_pages(lg)}{hook.pk}/").status_code == 200
    with django_assert_max_num_queries(20):
        assert api(lg.admin).get(
            f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/{hook.pk}/deliveries/").status_code \
            == 200


@pytest.mark.django_db
def test_api_crud_deliveries_and_test(receiver, django_capture_on_commit_callbacks):
    lg = make_league()
    client = api(lg.admin)
    base = f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/"
    made = client.post(base, {"url": receiver.url("/api"), "kind": "json",
                              "events": ["round_closed"]}, format="json")
    assert made.status_code == 201, made.json()
    hook = made.json()
    assert hook["secret"] and hook["audience"] == "members"
    bad = client.post(base, {"url": receiver.url("/api"), "events": ["nope"]}, format="json")
    assert bad.status_code == 400
    changed = client.patch(f"{base}{hook['id']}/", {"language": "de"}, format="json")
    assert changed.status_code == 200 and changed.json()["language"] == "de"
    assert changed.json()["events"] == ["round_closed"]  # PATCH leaves the rest alone
    with django_capture_on_commit_callbacks(execute=True):
        tested = client.post(f"{base}{hook['id']}/test/")
    assert tested.status_code == 202
    log = client.get(f"{base}{hook['id']}/deliveries/").json()
    assert [row["status"] for row in log] == ["sent"]
    assert api(lg.a.user).get(base).status_code == 403
    assert client.delete(f"{base}{hook['id']}/").status_code == 204


# --- the Atom feed ----------------------------------------------------------

def _entries(body: bytes) -> list[str]:
    root = ElementTree.fromstring(body)
    return [entry.find(f"{ATOM}title").text for entry in root.findall(f"{ATOM}entry")]


def _events(lg):
    event_emit(campaign=lg.campaign, kind="round_closed", key="closed:1", audience="public",
               now=T0, facts={"round": 1, "standings": [], "map_changes": [], "link": ""})
    event_emit(campaign=lg.campaign, kind="result_confirmed", key="result:1",
               audience="members", now=T0,
               facts={"round": 1, "battle": {"tile": "Alpha (1, 0)", "attacker": "anna",
                                             "defender": "ben"},
                      "outcome": "victory", "attacker_vp": 3, "defender_vp": 1})
    event_emit(campaign=lg.campaign, kind="dispute_raised", key="dispute:1", audience="admins",
               now=T0, facts={"round": 1, "battle": {}, "by": "ben", "reason": "Secretreason"})
    event_emit(campaign=lg.campaign, kind="deadline_soon", key="deadline:1", audience="public",
               now=T0, facts={"round": 1, "phase": "lists", "deadline": T0.isoformat(),
                              "owing": ["Owingsentinel"]})


@pytest.mark.django_db
def test_public_feed_shows_public_events_only():
    lg = make_league(visibility="public")
    _events(lg)
    answer = client_for().get(f"/campaigns/{lg.campaign.pk}/feed.atom")
    assert answer.status_code == 200 and "atom" in answer["Content-Type"]
    assert sorted(_entries(answer.content)) == ["Deadline in 24 hours", "Round closed"]
    body = answer.content.decode()
    assert "Owingsentinel" not in body and "Secretreason" not in body and "anna" not in body


@pytest.mark.django_db
def test_members_feed_needs_the_secret_token_and_private_feed_is_404():
    lg = make_league()
    _events(lg)
    url = f"/campaigns/{lg.campaign.pk}/feed.atom"
    assert client_for().get(url).status_code == 404
    assert client_for().get(url + "?token=" + "x" * 30).status_code == 404
    token = calendar_token_of(user=lg.a.user, now=T0).token
    # a feed reader's own language says nothing of its reader: the member's profile decides
    assert "Round closed" in client_for().get(f"{url}?token={token}",
                                              HTTP_ACCEPT_LANGUAGE="de").content.decode()
    Profile.objects.update_or_create(user=lg.a.user, defaults={"language": "de"})
    answer = client_for().get(f"{url}?token={token}")
    assert answer.status_code == 200
    assert sorted(_entries(answer.content)) == ["Frist endet in 24 Stunden",
                                                "Runde abgeschlossen",
                                                "Schlachtergebnis bestätigt"]
    body = answer.content.decode()
    assert "Secretreason" not in body and "Owingsentinel" not in body
    outsider = make_league(name="other", admin="x", players=("zed",))
    other = calendar_token_of(user=outsider.a.user, now=T0).token
    assert client_for().get(f"{url}?token={other}").status_code == 404


@pytest.mark.django_db
def test_calendar_page_shows_the_members_feed_address_that_works():
    lg = make_league()
    _events(lg)
    client = client_for(lg.a.user)
    page = client.post(f"/campaigns/{lg.campaign.pk}/battles/calendar/", {"show": "1"})
    html = page.content.decode()
    start = html.index(f"{site_url()}/campaigns/")  # the site's address, not the request's
    address = html[start:html.index('"', start)].replace("&amp;", "&")
    assert "/feed.atom?token=" in address
    assert client_for().get(address.removeprefix(site_url())).status_code == 200
