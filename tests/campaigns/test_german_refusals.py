"""Refusals raised by the campaigns and league services are translated: a German player (and
an API client sending Accept-Language: de) reads them in German, phase names included, while
the codes, fields and rule ids stay as they are."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation

from campaigns.errors import DomainError
from campaigns.models import Campaign, Round
from campaigns.services.absences import check_may_act
from campaigns.services.campaigns import campaign_create, player_add
from campaigns.services.invitations import (
    invitation_accept,
    invitation_link_create,
    invitation_revoke,
    invitations_create,
    join_request_create,
)
from campaigns.services.map import tile_link_create
from league.services.readiness import phase_done_mark
from league.services.rounds import campaign_start, check_deadline_movable
from tests.factories import CampaignFactory, TileFactory, UserFactory
from tests.worlds import api


def _german(call, error=DomainError) -> BaseException:
    with translation.override("de"), pytest.raises(error) as caught:
        call()
    return caught.value


def _text(exc: BaseException) -> str:
    return getattr(exc, "message", None) or str(exc)


@pytest.mark.parametrize("call, german, english", [
    (lambda lg: campaign_create(creator=lg.admin, name=" "), "Ein Name ist nötig",
     "A name is required"),
    (lambda lg: player_add(campaign=lg.campaign, user=UserFactory(username="neu"),
                           faction="Orks", colour="red"),
     "#rrggbb geschrieben", "A colour is written"),
    (lambda lg: invitations_create(campaign=lg.campaign, by=lg.admin, emails="nope"),
     "Keine E-Mail-Adresse: nope", "Not an e-mail address"),
    (lambda lg: invitation_accept(token="no-such-token", user=lg.a.user),
     "Diese Einladung gibt es nicht", "No such invitation"),
    (lambda lg: join_request_create(campaign=lg.campaign, user=UserFactory(username="neu")),
     "nimmt keine Beitrittsanfragen an", "does not take join requests"),
    (lambda lg: campaign_start(campaign=CampaignFactory()), "Füge Spieler hinzu",
     "Add players"),
])
def test_service_refusals_are_german(league, call, german, english):
    message = _text(_german(lambda: call(league)))
    assert german in message and english not in message


def test_a_revoked_invitation_is_refused_in_german(league):
    invitation, token = invitation_link_create(campaign=league.campaign, by=league.admin)
    invitation_revoke(invitation=invitation)
    exc = _german(lambda: invitation_accept(token=token, user=UserFactory(username="neu"),
                                            faction="Orks"))
    assert exc.code == "revoked" and exc.message == "Diese Einladung wurde zurückgezogen."


def test_a_tile_linked_to_itself_is_refused_in_german(league):
    tile = TileFactory(campaign=league.campaign, planet=league.planet())
    exc = _german(lambda: tile_link_create(campaign=league.campaign, a=tile, b=tile))
    assert exc.field == "b" and "nicht mit sich selbst verbunden" in exc.message


def test_phase_names_in_refusals_are_their_german_labels(league):
    rnd = league.start()
    exc = _german(lambda: phase_done_mark(round=rnd, player=league.a, phase="lists"))
    assert exc.code == "phase_over" and exc.field == "phase"
    assert exc.message == ("Die Phase Armeelisten ist vorbei: Die Runde ist jetzt in der "
                           "Phase Ansage (R-RND-2).")
    closed = _german(lambda: check_deadline_movable(Round(phase=Round.Phase.CLOSED),
                                                    timezone.now()))
    assert closed.message == "Die Phase Abgeschlossen hat keine Frist."


def test_phase_refusals_stay_english_by_default(league):
    rnd = league.start()
    with translation.override("en"), pytest.raises(DomainError) as caught:
        phase_done_mark(round=rnd, player=league.a, phase="lists")
    assert caught.value.message == ("The Army lists phase is over: the round is in Declare "
                                    "now (R-RND-2).")


def test_permission_refusals_are_german(league):
    exc = _german(lambda: check_may_act(league.a, AnonymousUser()), PermissionDenied)
    assert str(exc) == "Melde dich an, um Abwesenheiten einzutragen."


def test_the_api_detail_follows_accept_language(league):
    response = api(league.admin).post(league.url("invitations/"), {"emails": "nope"},
                                      format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_email"
    assert body["detail"] == "Keine E-Mail-Adresse: nope."


def test_the_api_names_phases_in_german(league):
    league.start()
    response = api(league.a.user).post(league.url("rounds/current/done/"), {"phase": "lists"},
                                       format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 409 and response.json()["code"] == "phase_over"
    assert "Die Phase Armeelisten ist vorbei" in response.json()["detail"]
    assert Campaign.objects.get(pk=league.campaign.pk).status == Campaign.Status.RUNNING
