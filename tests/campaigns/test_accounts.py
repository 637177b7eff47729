"""Account services: the lazy profile, sign-up, e-mail change only
after confirmation, credentials revoked after a password change, token rotation, deleting an
account without losing a seat or any history, and the personal data export."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse
from rest_framework.authtoken.models import Token

from battles.models import ArmyList, Battle, NotificationPreference
from campaigns.errors import Conflict, DomainError
from campaigns.models import Attack, Player, Profile, Tile
from campaigns.services.accounts import (
    EMAIL_CHANGE_SALT,
    account_delete,
    account_signup,
    credentials_revoke,
    email_change_confirm,
    email_change_token,
    is_former_member,
    profile_of,
    profile_update,
    token_rotate,
)
from league.selectors.accounts import personal_data
from tests.worlds import (
    ANNA_UNIT,
    BEN_UNIT,
    SECRET_CARGO,
    SECRET_CREW,
    SECRET_ORDER,
    SECRET_SHIP,
    client_for,
    hand_in,
    page_duel,
)

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_profile_is_created_on_first_use(outsider):
    assert not Profile.objects.filter(user=outsider).exists()
    profile = profile_of(outsider)
    assert profile.language == "" and profile.time_zone == "" and profile.display_name == ""
    assert profile_of(outsider).pk == profile.pk


def test_profile_update_checks_time_zone_language_and_single_line_name(outsider):
    profile = profile_update(user=outsider, time_zone="Europe/Berlin", language="de",
                             display_name="  Anna S.  ")
    assert (profile.time_zone, profile.language, profile.display_name) == (
        "Europe/Berlin", "de", "Anna S.")
    for bad in ({"time_zone": "Mars/Olympus"}, {"time_zone": "../etc/passwd"},
                {"language": "fr"}, {"display_name": "two\nlines"},
                {"display_name": "x" * (Profile.DISPLAY_NAME_MAX + 1)}):
        with pytest.raises(DomainError) as refused:
            profile_update(user=outsider, **bad)
        assert refused.value.field == next(iter(bad))
    assert profile_of(outsider).time_zone == "Europe/Berlin"


def test_signup_makes_an_account_with_its_profile():
    user = account_signup(username="nina", email="nina@example.org", password="long secret 77",
                          language="de", time_zone="Europe/Berlin")
    assert user.check_password("long secret 77") and user.email == "nina@example.org"
    assert (user.profile.language, user.profile.time_zone) == ("de", "Europe/Berlin")


def test_signup_refuses_a_taken_name_or_address_and_the_former_member_names(outsider):
    outsider.email = "out@example.org"
    outsider.save()
    with pytest.raises(Conflict):
        account_signup(username="OUTSIDER", email="new@example.org", password="x" * 12)
    with pytest.raises(Conflict):
        account_signup(username="new", email="OUT@example.org", password="x" * 12)
    with pytest.raises(DomainError):
        account_signup(username="former-member-1", email="f@example.org", password="x" * 12)
    assert not User.objects.filter(username__in=["new", "former-member-1"]).exists()


def test_email_changes_only_when_the_confirmation_is_applied(outsider):
    outsider.email = "old@example.org"
    outsider.save()
    token = email_change_token(user=outsider, new_email="new@example.org")
    outsider.refresh_from_db()
    assert outsider.email == "old@example.org"  # asking changes nothing
    assert email_change_confirm(token=token).email == "new@example.org"
    outsider.refresh_from_db()
    assert outsider.email == "new@example.org"
    with pytest.raises(DomainError) as again:  # the link is used up
        email_change_confirm(token=token)
    assert again.value.code == "stale"


def test_a_forged_or_expired_email_change_link_changes_nothing(outsider, settings):
    forged = signing.dumps({"user": outsider.pk, "new": "evil@example.org", "old": ""},
                           salt="another salt")
    with pytest.raises(DomainError):
        email_change_confirm(token=forged)
    settings.EMAIL_CHANGE_MAX_AGE = -1
    token = signing.dumps({"user": outsider.pk, "new": "late@example.org", "old": ""},
                          salt=EMAIL_CHANGE_SALT, compress=True)
    with pytest.raises(DomainError) as expired:
        email_change_confirm(token=token)
    assert expired.value.code == "expired"
    outsider.refresh_from_db()
    assert outsider.email == ""


def test_email_change_to_an_address_in_use_is_refused(outsider, lg):
    lg.a.user.email = "anna@example.org"
    lg.a.user.save()
    with pytest.raises(Conflict):
        email_change_token(user=outsider, new_email="ANNA@example.org")


def test_credentials_revoke_ends_the_token_and_the_sessions_of_the_old_password(outsider, lg):
    Token.objects.create(user=outsider)
    mine, foreign = client_for(outsider), client_for(lg.a.user)
    outsider.set_password("another long secret 8")
    outsider.save()
    credentials_revoke(user=outsider)
    assert not Token.objects.filter(user=outsider).exists()
    assert mine.get(reverse("profile")).status_code == 302  # logged out at its next request
    assert foreign.get(reverse("profile")).status_code == 200


def test_token_rotate_replaces_the_token(outsider):
    old = Token.objects.create(user=outsider).key
    new = token_rotate(user=outsider).key
    assert new != old and list(Token.objects.filter(user=outsider)
                               .values_list("key", flat=True)) == [new]


def test_account_delete_keeps_the_seat_and_the_history(page_world):
    lg = page_world.lg
    battle = page_duel(page_world)
    hand_in(battle, lg.a, ANNA_UNIT)
    anna = lg.a.user
    Battle.objects.filter(pk=battle.pk).update(reported_by=anna)
    lg.campaign.admins.add(anna)
    Token.objects.create(user=anna)
    browser = client_for(anna)
    tiles_before = Tile.objects.filter(owner=lg.a).count()

    account_delete(user=anna)

    anna.refresh_from_db()
    assert is_former_member(anna) and not anna.is_active and not anna.has_usable_password()
    assert anna.email == "" and anna.username == f"former-member-{anna.pk}"
    seat = Player.objects.get(pk=lg.a.pk)  # the seat, its tiles, attacks, lists stay
    assert seat.user_id == anna.pk and seat.faction == "Mechanicus"
    assert Tile.objects.filter(owner=seat).count() == tiles_before
    assert Battle.objects.get(pk=battle.pk).reported_by_id == anna.pk
    assert ArmyList.objects.filter(player=seat).exists()
    assert Attack.objects.filter(round=battle.round).count() == 1
    assert not Token.objects.filter(user=anna).exists()
    assert browser.get(reverse("profile")).status_code == 302  # its session ended
    assert not lg.campaign.admins.filter(pk=anna.pk).exists()
    assert not Profile.objects.filter(user=anna).exists()
    with pytest.raises(Conflict):
        account_delete(user=anna)


def test_personal_data_has_own_entries_and_no_other_players_hidden_ones(page_world):
    lg = page_world.lg
    battle = page_duel(page_world)  # ben attacks anna; both hand in lists
    hand_in(battle, lg.a, ANNA_UNIT)
    hand_in(battle, lg.b, BEN_UNIT)
    profile_update(user=lg.a.user, time_zone="Europe/Berlin", display_name="Anna")
    NotificationPreference.objects.create(player=lg.a, kind="phase_opened", enabled=False)

    data = personal_data(lg.a.user)
    text = json.dumps(data)

    assert data["account"]["username"] == "anna"
    assert data["profile"]["time_zone"] == "Europe/Berlin"
    (seat,) = data["seats"]
    assert seat["faction"] == "Mechanicus" and seat["notifications"]["phase_opened"] is False
    assert [e["name"] for e in seat["army_lists"][0]["entries"]] == [ANNA_UNIT]
    for hidden in (BEN_UNIT, SECRET_SHIP, SECRET_CARGO, SECRET_CREW, SECRET_ORDER):
        assert hidden not in text
    ben = personal_data(lg.b.user)
    assert len(ben["seats"][0]["declarations"]) == 1 and ANNA_UNIT not in json.dumps(ben)
