"""Webhook addresses that reach this machine or its network through a parser trick (a
backslash, a user name, an IPv6 form that embeds IPv4, an octal or decimal IPv4, a name that
resolves to loopback) are refused when a hook is made, by the API and by the page form alike:
a 400 naming the field ``url``, in the reader's language."""

import socket

import pytest

from campaigns.models import Webhook
from tests.worlds import api, client_for, make_league

REFUSED = [
    "http://127.0.0.1:8115\\@1.1.1.1/x",  # the client ends the authority at the backslash
    "http://a@127.0.0.1/",
    "http://127.0.0.1:80@evil.example/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://0177.0.0.1/",
    "http://2130706433/",
    "http://loopback.example/",  # resolves to 127.0.0.1 (below)
]


@pytest.fixture
def strict(settings, monkeypatch):
    """Private addresses not allowed; ``*.example`` names resolve to loopback, others to a
    public address, without asking a name server."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False

    def getaddrinfo(host, port, *args, **kwargs):
        address = "127.0.0.1" if str(host).endswith(".example") else "1.1.1.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 80))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.mark.django_db
@pytest.mark.parametrize("url", REFUSED)
def test_api_refuses_webhook_addresses_that_reach_this_machine(strict, url):
    lg = make_league()
    answer = api(lg.admin).post(f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/",
                                {"url": url, "kind": "json", "events": ["round_closed"]},
                                format="json")
    assert answer.status_code == 400, answer.json()
    assert list(answer.json()["errors"]) == ["url"]
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("url", REFUSED)
def test_page_form_refuses_webhook_addresses_that_reach_this_machine(strict, url):
    lg = make_league()
    answer = client_for(lg.admin).post(
        f"/campaigns/{lg.campaign.pk}/manage/webhooks/",
        {"url": url, "kind": "json", "events": ["round_closed"], "language": "en",
         "audience": "members", "colour": "#112233", "enabled": "on"})
    assert answer.status_code == 400
    assert answer.context["form"].errors.get("url")
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_refused_webhook_address_is_explained_in_german(strict):
    lg = make_league()
    base = f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/"
    answer = api(lg.admin).post(base, {"url": "http://a@127.0.0.1/", "kind": "json",
                                       "events": ["round_closed"]},
                                format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    text = answer.json()["errors"]["url"][0]
    assert "Benutzernamen" in text  # the German sentence for userinfo in an address


@pytest.mark.django_db
def test_update_refuses_a_backslash_address(strict):
    lg = make_league()
    hook = Webhook.objects.create(campaign=lg.campaign, url="https://hooks.test/h", secret="s",
                                  events=["round_closed"])
    answer = api(lg.admin).patch(f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/{hook.pk}/",
                                 {"url": "http://127.0.0.1:8115\\@1.1.1.1/x"}, format="json")
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["url"]
    hook.refresh_from_db()
    assert hook.url == "https://hooks.test/h"


@pytest.mark.django_db
def test_a_public_address_is_still_accepted(strict):
    lg = make_league()
    answer = api(lg.admin).post(f"/api/v1/campaigns/{lg.campaign.pk}/webhooks/",
                                {"url": "https://hooks.test:8443/in?thread=1", "kind": "json",
                                 "events": ["round_closed"]}, format="json")
    assert answer.status_code == 201, answer.json()
