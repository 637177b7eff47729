"""Costly one-click actions ask first (web/views/confirm.py): a post without the confirm field
changes nothing and answers with the question and what is lost (English and German), the
same fields carried into the "Yes" form; a confirmed post acts. The script asks for the same
answer as an htmx request and gets the box alone for its dialog."""

import html
import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from campaigns.models import Attack, Invitation, Player, Round, Webhook, WebhookDelivery
from campaigns.services import invitations as invitation_services
from tests.factories import FleetFactory, TileFactory
from tests.web.rule_text import unlinked
from tests.worlds import advance_to, buy, client_for, declare

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
HTMX = {"HTTP_HX_REQUEST": "true"}
YES = {"confirm": "yes"}
T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def _text(response) -> str:
    """The page's words: rule links and tags taken out, entities read."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                                                    unlinked(response.content.decode()))))


def _asked(response, *phrases: str) -> str:
    """The answer is the question (a page with the box and a Yes form carrying the confirm
    field) and says each of ``phrases``."""
    assert response.status_code == 200
    page = response.content.decode()
    assert "data-confirm-box" in page
    assert '<input type="hidden" name="confirm" value="yes">' in page
    text = _text(response)
    for phrase in phrases:
        assert phrase in text, (phrase, text)
    return page


# --- withdrawing a declaration (R-ATK-5) ---------------------------------------------------------

def test_withdraw_asks_first_what_the_army_costs(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=2)
    client = client_for(page_world.lg.a.user)
    url = page_world.url(f"map/attacks/{attack.pk}/withdraw/")
    page = _asked(client.post(url), "Withdraw your attack on Alpha (2, 0)?",
                  "Its attack army stays spent", "its requisition is not refunded (R-ATK-5)",
                  "You have 1 unused attack army left this round.", "Yes, withdraw the attack",
                  "Cancel")
    assert f'href="{page_world.url("map/")}"' in page  # Cancel: back to the map
    _asked(client.post(url, **DE), "Deinen Angriff auf Alpha (2, 0) zurückziehen?",
           "Seine Angriffsarmee bleibt verbraucht", "wird nicht erstattet (R-ATK-5)",
           "Du hast in dieser Runde noch 1 unbenutzte Angriffsarmee.",
           "Ja, Angriff zurückziehen", "Abbrechen")
    attack.refresh_from_db()
    assert attack.status == Attack.Status.ACTIVE
    assert client.post(url, YES).status_code == 302
    attack.refresh_from_db()
    assert attack.status == Attack.Status.WITHDRAWN


def test_withdraw_names_the_last_army_in_the_plural_forms(page_world):
    buy(page_world.lg.a, page_world.rnd, 3)
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=0)
    url = page_world.url(f"map/attacks/{attack.pk}/withdraw/")
    client = client_for(page_world.lg.a.user)
    _asked(client.post(url), "You have 2 unused attack armies left this round.")
    _asked(client.post(url, **DE), "Du hast in dieser Runde noch 2 unbenutzte Angriffsarmeen.")


def test_withdraw_of_the_only_army_says_none_is_left(page_world):
    attack = declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"])
    url = page_world.url(f"map/attacks/{attack.pk}/withdraw/")
    client = client_for(page_world.lg.a.user)
    _asked(client.post(url), "You have no unused attack army left: another attack this round "
                             "needs a newly bought one.")
    _asked(client.post(url, **DE), "Du hast keine unbenutzte Angriffsarmee mehr")


def test_the_declarations_list_marks_the_withdraw_form_to_ask(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"])
    page = client_for(page_world.lg.a.user).get(page_world.url("map/")).content.decode()
    assert re.search(r'<form method="post" action="[^"]*/withdraw/" class="inline" '
                     r'data-confirm>', page)
    assert "/static/confirm" in page


# --- advancing a phase (R-RND-2, R-SEC-2) --------------------------------------------------------

def test_advance_asks_which_phase_ends_and_what_that_means(page_world):
    client = client_for(page_world.lg.admin)
    url = page_world.url("manage/advance/")
    page = _asked(client.post(url, {"expected_phase": "declare"}),
                  "End the Declare phase of round 1?",
                  "Players can no longer buy attack armies, declare or withdraw attacks",
                  "unused attack armies lapse without refund (R-ECO-1)",
                  "Yes, end the Declare phase")
    assert '<input type="hidden" name="expected_phase" value="declare">' in page
    assert f'href="{page_world.url("manage/")}#round"' in page
    _asked(client.post(url, {"expected_phase": "declare"}, **DE),
           "Die Phase Ansage von Runde 1 beenden?",
           "Die Spieler können keine Angriffsarmeen mehr kaufen", "Ja, Phase Ansage beenden")
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.DECLARE
    assert client.post(url, {"expected_phase": "declare", **YES}).status_code == 302
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase != Round.Phase.DECLARE


def test_advance_in_the_lists_phase_says_the_lists_get_revealed(page_world):
    advance_to(page_world.rnd, Round.Phase.LISTS)
    response = client_for(page_world.lg.admin).post(page_world.url("manage/advance/"),
                                                   {"expected_phase": "lists"})
    _asked(response, "End the Army lists phase of round 1?",
           "Players can no longer submit or replace army lists: every list is revealed")


def test_starting_round_one_asks_too(league):
    url = reverse("campaigns:manage-advance", args=[league.campaign.pk])
    client = client_for(league.admin)
    _asked(client.post(url, {"expected_phase": ""}), "Start round 1?",
           "A player can no longer be removed once the campaign runs")
    _asked(client.post(url, {"expected_phase": ""}, **DE), "Runde 1 starten?")
    assert not league.campaign.rounds.exists()
    client.post(url, {"expected_phase": "", **YES})
    assert league.campaign.rounds.get().number == 1


def test_a_stale_advance_asks_nothing_and_changes_nothing(page_world):
    response = client_for(page_world.lg.admin).post(page_world.url("manage/advance/"),
                                                   {"expected_phase": "lists"})
    assert response.status_code == 302
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.DECLARE


def test_the_advance_form_is_marked_to_ask(page_world):
    page = client_for(page_world.lg.admin).get(page_world.url("manage/")).content.decode()
    assert re.search(r'action="[^"]*/manage/advance/" class="stack" data-confirm>', page)


# --- revoking an invitation ----------------------------------------------------------------------

def test_revoke_asks_first_and_names_who_joined_already(league):
    invitation, _token = invitation_services.invitation_link_create(
        campaign=league.campaign, by=league.admin, max_uses=3)
    Invitation.objects.filter(pk=invitation.pk).update(uses=2)
    url = reverse("campaigns:manage-invitation-revoke", args=[league.campaign.pk, invitation.pk])
    client = client_for(league.admin)
    page = _asked(client.post(url), "Revoke this invitation link?",
                  "Its link stops working at once and for good",
                  "2 people joined with it already and stay players.",
                  "Yes, revoke the invitation")
    assert "#invitations" in page
    _asked(client.post(url, **DE), "Diesen Einladungslink zurückziehen?",
           "2 Personen sind damit schon beigetreten und bleiben Spieler.",
           "Ja, Einladung zurückziehen")
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
    assert client.post(url, YES).status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_revoke_of_an_email_invitation_names_the_address(league):
    [invitation] = invitation_services.invitations_create(
        campaign=league.campaign, by=league.admin, emails=["neu@example.org"])
    url = reverse("campaigns:manage-invitation-revoke", args=[league.campaign.pk, invitation.pk])
    client = client_for(league.admin)
    _asked(client.post(url), "Revoke the invitation for neu@example.org?")
    _asked(client.post(url, **DE), "Die Einladung für neu@example.org zurückziehen?")


# --- removing a player ---------------------------------------------------------------------------

def test_remove_asks_first_with_the_tiles_and_fleets_lost(league):
    planet = league.planet("Alpha")
    for q in range(3):
        TileFactory(planet=planet, q=q, r=0, owner=league.a)
    FleetFactory(owner=league.a)
    url = reverse("campaigns:manage-player-remove", args=[league.campaign.pk, league.a.pk])
    seat = {f"remove{league.a.pk}-seat": league.a.pk}
    client = client_for(league.admin)
    page = _asked(client.post(url, seat), f"Remove {league.a.faction} (anna) from the campaign?",
                  "3 tiles become neutral.", "1 fleet is deleted with its ships.",
                  "Yes, remove the player")
    assert (f'<input type="hidden" name="remove{league.a.pk}-seat" value="{league.a.pk}">'
            in page)
    _asked(client.post(url, seat, **DE), f"{league.a.faction} (anna) aus der Kampagne entfernen?",
           "3 Felder werden neutral.", "1 Flotte wird mit ihren Schiffen gelöscht.",
           "Ja, Spieler entfernen")
    assert Player.objects.filter(pk=league.a.pk).exists()
    assert client.post(url, {**seat, **YES}).status_code == 302
    assert not Player.objects.filter(pk=league.a.pk).exists()


def test_the_remove_form_is_marked_to_ask(league):
    page = client_for(league.admin).get(
        reverse("campaigns:manage-members", args=[league.campaign.pk])).content.decode()
    assert re.search(r'action="[^"]*/players/\d+/remove/" class="inline" data-confirm>', page)
    assert re.search(r'class="danger">Remove the player</button>', page)


# --- deleting a webhook --------------------------------------------------------------------------

def test_webhook_delete_asks_first_with_its_log(league):
    hook = Webhook.objects.create(campaign=league.campaign, secret="s", kind="json",
                                  url="https://hooks.example.org/feldzug")
    WebhookDelivery.objects.create(hook=hook, event_key="k", kind="test", created_at=T0)
    url = reverse("campaigns:webhook-delete", args=[league.campaign.pk, hook.pk])
    client = client_for(league.admin)
    page = _asked(client.post(url), "Delete the webhook to hooks.example.org?",
                  "No more campaign events are sent to it.",
                  "Its delivery log of 1 delivery is deleted with it.",
                  "Yes, delete the webhook")
    assert f'href="{reverse("campaigns:webhook", args=[league.campaign.pk, hook.pk])}"' in page
    _asked(client.post(url, **DE), "Den Webhook an hooks.example.org löschen?",
           "Sein Zustellprotokoll mit 1 Zustellung wird mit ihm gelöscht.",
           "Ja, Webhook löschen")
    assert Webhook.objects.filter(pk=hook.pk).exists()
    assert client.post(url, YES).status_code == 302
    assert not Webhook.objects.filter(pk=hook.pk).exists()


# --- the dialog's request ------------------------------------------------------------------------

def test_an_htmx_request_gets_the_box_alone(page_world):
    response = client_for(page_world.lg.admin).post(page_world.url("manage/advance/"),
                                                   {"expected_phase": "declare"}, **HTMX)
    page = _asked(response, "End the Declare phase of round 1?")
    assert "<html" not in page and "data-confirm-cancel" in page
    assert 'name="csrfmiddlewaretoken"' in page
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.DECLARE


@pytest.mark.parametrize("value", ["", "no", "1"])
def test_only_confirm_yes_acts(page_world, value):
    response = client_for(page_world.lg.admin).post(
        page_world.url("manage/advance/"), {"expected_phase": "declare", "confirm": value})
    assert response.status_code == 200 and b"data-confirm-box" in response.content
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase == Round.Phase.DECLARE
