"""Managing players on the members page: the players with their seat
history and the admin's forms (edit, remove before the start, replace by account or seat
invitation), English and German, refusals as form errors (never a 500); the invitation page
of a seat invitation; standings naming the current holder; the old holder loses the
campaign; the only admin cannot delete their account."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Invitation, Player
from campaigns.services import invitations as invitation_services
from campaigns.services.accounts import profile_update
from campaigns.services.players import player_replace
from tests.factories import UserFactory
from tests.worlds import client_for

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _members(lg) -> str:
    return reverse("campaigns:manage-members", args=[lg.campaign.pk])


def _action(lg, player, name: str) -> str:
    return reverse(f"campaigns:manage-player-{name}", args=[lg.campaign.pk, player.pk])


def test_the_members_page_lists_seats_with_their_forms(league):
    html = client_for(league.admin).get(_members(league)).content.decode()
    assert f'id="player-{league.a.pk}"' in html
    for name in ("edit", "replace", "invite", "remove"):
        assert _action(league, league.a, name) in html
    assert f'name="edit{league.a.pk}-faction"' in html
    assert f'name="replace{league.a.pk}-account"' in html


def test_the_players_section_is_in_german(league):
    html = client_for(league.admin).get(_members(league), **DE).content.decode()
    assert "Spieler ersetzen" in html and "Fraktion und Farbe ändern" in html
    assert "Spieler entfernen" in html


def test_a_running_campaign_offers_replace_not_remove(page_world):
    lg = page_world.lg
    html = client_for(lg.admin).get(_members(lg)).content.decode()
    assert _action(lg, lg.a, "remove") not in html
    assert "replaced, not removed" in html


def test_edit_from_the_page(league):
    response = client_for(league.admin).post(
        _action(league, league.a, "edit"),
        {f"edit{league.a.pk}-faction": "Tau", f"edit{league.a.pk}-colour": "#00ff00"})
    assert response.status_code == 302 and f"#player-{league.a.pk}" in response["Location"]
    league.a.refresh_from_db()
    assert (league.a.faction, league.a.colour) == ("Tau", "#00ff00")


def test_a_bad_colour_comes_back_next_to_the_field(league):
    response = client_for(league.admin).post(
        _action(league, league.a, "edit"),
        {f"edit{league.a.pk}-faction": "Tau", f"edit{league.a.pk}-colour": "green"})
    assert response.status_code == 400
    assert "#rrggbb" in response.content.decode()
    league.a.refresh_from_db()
    assert league.a.faction != "Tau"


def test_players_and_outsiders_cannot_use_the_forms(league, outsider):
    url = _action(league, league.b, "edit")
    data = {f"edit{league.b.pk}-faction": "Mine", f"edit{league.b.pk}-colour": "#000000"}
    assert client_for(league.a.user).post(url, data).status_code == 403
    assert client_for(outsider).post(url, data).status_code == 404
    assert client_for(league.a.user).post(
        _action(league, league.b, "replace"),
        {f"replace{league.b.pk}-account": "outsider"}).status_code == 403
    league.b.refresh_from_db()
    assert league.b.faction != "Mine" and league.b.user.username == "ben"


def test_remove_before_the_start_and_refused_once_running(league, page_world):
    response = client_for(league.admin).post(_action(league, league.a, "remove"),
                                             {f"remove{league.a.pk}-seat": league.a.pk,
                                              "confirm": "yes"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=league.a.pk).exists()
    lg = page_world.lg
    refused = client_for(lg.admin).post(_action(lg, lg.a, "remove"),
                                        {f"remove{lg.a.pk}-seat": lg.a.pk, "confirm": "yes"})
    assert refused.status_code == 409
    assert "Replace the player instead" in refused.content.decode()
    assert Player.objects.filter(pk=lg.a.pk).exists()


def test_a_remove_form_of_another_seat_removes_nothing(league):
    response = client_for(league.admin).post(_action(league, league.a, "remove"),
                                             {f"remove{league.a.pk}-seat": league.b.pk,
                                              "confirm": "yes"})
    assert response.status_code == 400
    assert Player.objects.filter(pk__in=[league.a.pk, league.b.pk]).count() == 2


def test_replace_from_the_page_shows_the_seat_history(page_world):
    lg = page_world.lg
    nina = UserFactory(username="nina")
    profile_update(user=nina, display_name="Nina die Neue")
    client = client_for(lg.admin)
    response = client.post(_action(lg, lg.a, "replace"), {f"replace{lg.a.pk}-account": "nina"},
                           follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nina die Neue (nina) now holds the seat of Mechanicus." in html
    section = html[html.index(f'id="player-{lg.a.pk}"'):]
    section = section[:section.index("</article>")]
    assert "anna" in section and "Nina die Neue (nina)" in section and "until" in section
    assert "from round 1" in section


def test_an_unknown_account_is_a_form_error_in_german(page_world):
    lg = page_world.lg
    response = client_for(lg.admin).post(_action(lg, lg.a, "replace"),
                                         {f"replace{lg.a.pk}-account": "niemand"}, **DE)
    assert response.status_code == 400
    assert "Kein Konto mit diesem Benutzernamen" in response.content.decode()


def test_someone_already_playing_is_refused_on_the_page(page_world):
    lg = page_world.lg
    response = client_for(lg.admin).post(_action(lg, lg.a, "replace"),
                                         {f"replace{lg.a.pk}-account": "ben"})
    assert response.status_code == 409
    assert "already plays in the campaign" in response.content.decode()


def test_seat_invitation_from_the_page_then_the_invitation_page_takes_over(
        page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(lg.admin).post(_action(lg, lg.a, "invite"),
                                             {f"invite{lg.a.pk}-email": "nina@example.org"})
    assert response.status_code == 302
    assert Invitation.objects.get().seat_id == lg.a.pk
    body = mail.outbox[-1].body
    assert "take over the seat of Mechanicus" in body
    token = re.search(r"/invite/([\w-]+)/", body)[1]
    nina = UserFactory(username="nina", email="nina@example.org")
    client = client_for(nina)
    page = client.get(reverse("campaigns:invitation", args=[token])).content.decode()
    assert "take over a seat" in page and 'name="faction"' not in page
    accepted = client.post(reverse("campaigns:invitation", args=[token]), {})
    assert accepted.status_code == 302
    assert Player.objects.get(pk=lg.a.pk).user == nina


def test_a_bad_invitation_address_is_a_form_error(page_world):
    lg = page_world.lg
    response = client_for(lg.admin).post(_action(lg, lg.a, "invite"),
                                         {f"invite{lg.a.pk}-email": "kaputt"})
    assert response.status_code == 400
    assert not Invitation.objects.exists()


def test_standings_page_names_the_current_holder(page_world):
    lg = page_world.lg
    nina = UserFactory(username="nina")
    profile_update(user=nina, display_name="Nina die Neue")
    player_replace(player=lg.a, actor=lg.admin, account="nina")
    html = client_for(lg.b.user).get(reverse("campaigns:standings",
                                             args=[lg.campaign.pk])).content.decode()
    assert "Nina die Neue" in html and "(anna)" not in html


def test_the_old_holder_loses_the_campaign_and_the_new_one_gets_it(page_world):
    lg = page_world.lg
    anna = lg.a.user
    nina = UserFactory(username="nina")
    player_replace(player=lg.a, actor=lg.admin, account="nina")
    detail = reverse("campaigns:detail", args=[lg.campaign.pk])
    assert client_for(anna).get(detail).status_code == 404
    assert lg.campaign.name not in client_for(anna).get(reverse("campaigns:index")) \
        .content.decode()
    assert client_for(nina).get(detail).status_code == 200


def test_the_only_admin_cannot_delete_their_account_on_the_page(league):
    league.admin.set_password("secret-pass-123")
    league.admin.save()
    client = client_for(league.admin)
    response = client.post(reverse("account-delete"), {"password": "secret-pass-123"})
    assert response.status_code == 409
    assert "only admin" in response.content.decode()
    league.admin.refresh_from_db()
    assert league.admin.is_active


def test_invitation_seat_accepts_only_through_the_service(page_world,
                                                          django_capture_on_commit_callbacks):
    """The seat invitation's page form has no fields: faction and colour stay the seat's."""
    lg = page_world.lg
    with django_capture_on_commit_callbacks(execute=True):
        invitation_services.seat_invitation_create(player=lg.a, by=lg.admin,
                                                   email="nina@example.org")
    token = re.search(r"/invite/([\w-]+)/", mail.outbox[-1].body)[1]
    nina = UserFactory(username="nina", email="nina@example.org")
    client_for(nina).post(reverse("campaigns:invitation", args=[token]),
                          {"faction": "Chaos", "colour": "#000000"})
    seat = Player.objects.get(pk=lg.a.pk)
    assert (seat.user, seat.faction) == (nina, "Mechanicus")
