"""Invitations in the pages: the new link shown once in a readonly input with a Copy button
(a static script; without it the input is there to select), no revoke button on an
invitation that can no longer be used, and sign-up from an e-mail invitation with the address
filled in; English and German."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Invitation
from campaigns.services import invitations as services
from tests.worlds import client_for, unusable_invitation

pytestmark = pytest.mark.django_db


def _members(lg) -> str:
    return reverse("campaigns:manage-members", args=[lg.campaign.pk])


def _row(html: str, invitation: Invitation) -> str:
    start = html.index(f'id="invitation-{invitation.pk}"')
    return html[start:html.index("</tr>", start)]


@pytest.mark.parametrize(("language", "label", "button"), [
    ("en", "The new invitation link, shown only this once:", ">Copy</button>"),
    ("de", "Der neue Einladungslink, nur dieses eine Mal angezeigt:", ">Kopieren</button>"),
])
def test_the_new_link_comes_in_a_readonly_input_with_a_copy_button(
        league, language, label, button):
    client = client_for(league.admin)
    response = client.post(reverse("campaigns:manage-invite-link", args=[league.campaign.pk]),
                           {"max_uses": "3"}, follow=True, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    field = re.search(r'<input id="new-invitation-link"[^>]*>', html)[0]
    assert "readonly" in field and re.search(r'value="https?://[^"]+/invite/[\w-]+/"', field)
    assert label in html and button in html
    assert 'data-copy="new-invitation-link"' in html and "hidden>" in html  # script shows it
    assert re.findall(r"<script[^>]*>", html) == [tag for tag in re.findall(
        r"<script[^>]*>", html) if 'src="' in tag]  # no inline script (CSP)
    assert 'src="/static/copy.js"' in html
    assert "script-src 'self'" in response["Content-Security-Policy"]
    again = client.get(_members(league)).content.decode()
    link = re.search(r'value="([^"]+)"', field)[1]
    assert 'id="new-invitation-link"' not in again and link not in again  # shown once


def test_only_a_usable_invitation_offers_revoke(league):
    active, _ = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    unusable = [unusable_invitation(league, state)[0]
                for state in ("revoked", "expired", "used_up")]
    html = client_for(league.admin).get(_members(league)).content.decode()
    revoke = "/revoke/"
    assert revoke in _row(html, active)
    for invitation in unusable:
        assert revoke not in _row(html, invitation), invitation


def _signup(next_path: str) -> str:
    url = f"{reverse('signup')}?next={next_path}"
    return client_for().get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()


def _email_field(html: str) -> str:
    return re.search(r'<input[^>]*name="email"[^>]*>', html)[0]


def test_sign_up_from_an_e_mail_invitation_fills_in_its_address(
        league, settings, django_capture_on_commit_callbacks):
    settings.OPEN_SIGNUP = False
    with django_capture_on_commit_callbacks(execute=True):
        services.invitations_create(campaign=league.campaign, by=league.admin,
                                    emails="neu@example.org")
    path = re.search(r"/invite/[\w-]+/", mail.outbox[-1].body)[0]
    assert 'value="neu@example.org"' in _email_field(_signup(path))
    invitation = Invitation.objects.get(email="neu@example.org")
    services.invitation_revoke(invitation=invitation)
    assert "value=" not in _email_field(_signup(path))  # a dead invitation gives nothing


def test_sign_up_from_a_link_invitation_leaves_the_address_empty(league):
    _, token = services.invitation_link_create(campaign=league.campaign, by=league.admin)
    assert "value=" not in _email_field(_signup(f"/invite/{token}/"))
