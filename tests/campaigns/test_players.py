"""Managing players: editing a seat, removing a player before the start,
replacing a player mid-season by an existing account or a seat invitation, the seat's
history, standings naming the current holder, and R-RND-3 defaults for a replaced seat; and
deleting the only admin's account is refused."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from battles.models import Battle, NotificationPreference
from campaigns.errors import Conflict, DomainError, RuleViolation
from campaigns.models import (
    AdminAction,
    Attack,
    Campaign,
    Invitation,
    Player,
    Round,
    SeatHolder,
    Tile,
)
from campaigns.selectors.players import seat_holders
from campaigns.services import invitations as invitation_services
from campaigns.services.accounts import account_delete, profile_update
from campaigns.services.campaigns import player_add
from campaigns.services.invitations import InvitationUnusable
from campaigns.services.players import player_remove, player_replace, player_update
from fleets.models import Fleet
from league.selectors.standings import live_standings
from league.selectors.standings_history import frozen_standings
from league.services.rounds import round_run_due
from tests.factories import UserFactory
from tests.worlds import advance_to, page_duel

pytestmark = pytest.mark.django_db


def _newcomer(name: str = "nina", **fields):
    return UserFactory(username=name, email=f"{name}@example.org", **fields)


def _seat_token(capture, player, admin, email="nina@example.org") -> tuple[Invitation, str]:
    """Mail a seat invitation and read its token from the mail, as the invitee would."""
    with capture(execute=True):
        invitation = invitation_services.seat_invitation_create(player=player, by=admin,
                                                                email=email)
    token = re.search(r"/invite/([\w-]+)/", mail.outbox[-1].body)[1]
    return invitation, token


# --- the seat's history starts with player_add ------------------------------------------------

def test_player_add_records_the_first_holder(league):
    user = _newcomer()
    player = player_add(campaign=league.campaign, user=user, faction="Tau")
    holders = seat_holders(player)
    assert [(h.user_id, h.until, h.round_number) for h in holders] == [(user.pk, None, None)]


# --- editing ----------------------------------------------------------------------------------

def test_edit_before_the_start_is_free_and_unlogged(league):
    player = player_update(player=league.a, actor=league.admin, faction=" Tau ",
                           colour="#AABBCC")
    assert (player.faction, player.colour) == ("Tau", "#aabbcc")
    assert not AdminAction.objects.exists()


def test_edit_checks_faction_and_colour_like_player_add(league):
    with pytest.raises(RuleViolation) as bad:
        player_update(player=league.a, actor=league.admin, colour="red")
    assert bad.value.field == "colour"
    with pytest.raises(RuleViolation) as empty:
        player_update(player=league.a, actor=league.admin, faction="  ")
    assert empty.value.field == "faction"


def test_edit_in_a_running_campaign_is_a_logged_correction(page_world):
    seat = page_world.lg.a
    player_update(player=seat, actor=page_world.lg.admin, colour="#102030")
    action = AdminAction.objects.get()
    assert action.kind == "player.update" and action.target == "Mechanicus"
    assert (action.before, action.after) == ({"colour": "#aa3300"}, {"colour": "#102030"})
    assert action.actor == page_world.lg.admin


def test_edit_is_refused_while_the_fleets_phase_runs(page_world):
    Round.objects.filter(pk=page_world.rnd.pk).update(phase=Round.Phase.FLEETS)
    with pytest.raises(Conflict) as refused:
        player_update(player=page_world.lg.a, actor=page_world.lg.admin, faction="Tau")
    assert refused.value.code == "automatic_phase"
    assert Player.objects.get(pk=page_world.lg.a.pk).faction == "Mechanicus"


# --- removing ---------------------------------------------------------------------------------

def test_remove_before_the_start(league):
    tile = Tile.objects.create(campaign=league.campaign, planet=league.planet("P"), q=0, r=0,
                               owner=league.a)
    player_remove(player=league.a, actor=league.admin)
    assert not Player.objects.filter(pk=league.a.pk).exists()
    tile.refresh_from_db()
    assert tile.owner is None


def test_remove_is_refused_once_the_campaign_runs_and_says_replace(page_world):
    with pytest.raises(Conflict) as refused:
        player_remove(player=page_world.lg.a, actor=page_world.lg.admin)
    assert refused.value.code == "campaign_started"
    assert "Replace the player" in refused.value.message and "history" in refused.value.message
    assert Player.objects.filter(pk=page_world.lg.a.pk).exists()


# --- replacing by an existing account ---------------------------------------------------------

def test_replace_passes_the_seat_with_everything_on_it(page_world):
    """Tiles, fleets, requisition, open battles and notification preferences stay
    with the seat; the seat's history records both holders and from when."""
    lg = page_world.lg
    battle = page_duel(page_world, "lists")  # ben attacks anna's tile: an open battle
    seat, anna = lg.a, lg.a.user
    NotificationPreference.objects.create(player=seat, kind="date_proposed", enabled=False)
    tiles = set(Tile.objects.filter(owner=seat).values_list("pk", flat=True))
    fleets = set(Fleet.objects.filter(owner=seat).values_list("pk", flat=True))
    requisition = Player.objects.get(pk=seat.pk).requisition
    nina = _newcomer()

    player = player_replace(player=seat, actor=lg.admin, account="nina")

    assert player.pk == seat.pk and player.user == nina
    assert set(Tile.objects.filter(owner=seat).values_list("pk", flat=True)) == tiles
    assert set(Fleet.objects.filter(owner=seat).values_list("pk", flat=True)) == fleets
    assert Player.objects.get(pk=seat.pk).requisition == requisition
    assert Battle.objects.get(pk=battle.pk).defender_id == seat.pk
    assert NotificationPreference.objects.get(player=seat).enabled is False
    old, new = seat_holders(seat)
    assert old.user == anna and old.until is not None
    assert new.user == nina and new.until is None and new.since == old.until
    assert new.round_number == 1
    action = AdminAction.objects.get(kind="player.replace")
    assert (action.before, action.after) == ({"holder": "anna"}, {"holder": "nina"})
    assert not Player.objects.filter(campaign=lg.campaign, user=anna).exists()


def test_replace_finds_the_account_by_e_mail_address(page_world):
    nina = _newcomer()
    player = player_replace(player=page_world.lg.a, actor=page_world.lg.admin,
                            account="NINA@example.org")
    assert player.user == nina


@pytest.mark.parametrize("account", ["nobody", "nobody@example.org", "", "x" * 300])
def test_replace_names_an_existing_account(page_world, account):
    with pytest.raises(DomainError) as refused:
        player_replace(player=page_world.lg.a, actor=page_world.lg.admin, account=account)
    assert refused.value.field == "account"
    assert Player.objects.get(pk=page_world.lg.a.pk).user.username == "anna"


def test_replace_refuses_someone_already_playing_and_deleted_accounts(page_world):
    lg = page_world.lg
    with pytest.raises(Conflict) as playing:
        player_replace(player=lg.a, actor=lg.admin, account="ben")
    assert playing.value.code == "already_player"
    gone = _newcomer("gone")
    account_delete(user=gone)
    gone.refresh_from_db()
    with pytest.raises(DomainError):
        player_replace(player=lg.a, actor=lg.admin, account=gone.username)


def test_no_replacing_in_a_finished_campaign(page_world):
    Campaign.objects.filter(pk=page_world.campaign.pk).update(status=Campaign.Status.FINISHED)
    _newcomer()
    with pytest.raises(Conflict) as refused:
        player_replace(player=page_world.lg.a, actor=page_world.lg.admin, account="nina")
    assert refused.value.code == "campaign_finished"


def test_a_seat_made_before_seat_history_gets_its_first_holder_backfilled(page_world):
    """Seats of factories (like seats from before migration 0008 rows) have no row yet."""
    SeatHolder.objects.filter(player=page_world.lg.a).delete()
    _newcomer()
    player_replace(player=page_world.lg.a, actor=page_world.lg.admin, account="nina")
    assert [h.user.username for h in seat_holders(page_world.lg.a)] == ["anna", "nina"]


# --- R-RND-3: a replaced seat's inputs --------------------------------------------------------

def test_a_replaced_seats_undone_declaration_defaults_at_the_deadline(page_world):
    """R-RND-3: no declaration by the deadline = no attack, also for a seat that changed
    hands; the round moves on without waiting for the new holder."""
    lg, rnd = page_world.lg, page_world.rnd
    _newcomer()
    player_replace(player=lg.a, actor=lg.admin, account="nina")
    deadline = timezone.now() - timedelta(minutes=1)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=deadline)
    round_run_due(round_id=rnd.pk, phase=Round.Phase.DECLARE, now=timezone.now())
    rnd.refresh_from_db()
    assert rnd.phase != Round.Phase.DECLARE
    assert not Attack.objects.filter(player=lg.a).exists()


def test_a_replaced_seats_conquest_choice_defaults_at_the_deadline(page_world):
    """R-RND-3: the conquest choice of a seat that changed hands is made by the default
    (``roll_all``) when the new holder makes none."""
    from battles.models import ConquestRoll
    from battles.services.results import battle_result_enter

    lg = page_world.lg
    battle = page_duel(page_world, "battles")  # ben attacks anna
    battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="victory", attacker_vp=3,
                        defender_vp=0)
    _newcomer()
    player_replace(player=lg.b, actor=lg.admin, account="nina")  # the attacker's seat
    rnd = advance_to(page_world.rnd, Round.Phase.CONQUEST)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=timezone.now() - timedelta(1))
    round_run_due(round_id=rnd.pk, phase=Round.Phase.CONQUEST, now=timezone.now())
    assert ConquestRoll.objects.filter(attack=battle.attack).exists()


# --- replacing by a seat invitation -----------------------------------------------------------

def test_a_seat_invitation_mails_the_link_and_accepting_passes_the_seat(
        page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    invitation, token = _seat_token(django_capture_on_commit_callbacks, lg.a, lg.admin)
    assert invitation.seat == lg.a and invitation.max_uses == 1
    assert mail.outbox[-1].to == ["nina@example.org"]
    assert "Mechanicus" in mail.outbox[-1].body
    nina = _newcomer()

    player = invitation_services.invitation_accept(token=token, user=nina)
    again = invitation_services.invitation_accept(token=token, user=nina)  # changes nothing

    assert player.pk == again.pk == lg.a.pk and player.user == nina
    assert Player.objects.filter(campaign=lg.campaign).count() == 4  # no new seat
    assert [h.user.username for h in seat_holders(lg.a)] == ["anna", "nina"]
    invitation.refresh_from_db()
    assert invitation.uses == 1 and invitation.revoked_at is None


def test_a_seat_invitation_never_grants_admin(page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    lg.campaign.admins.add(lg.a.user)  # the departing player was also an admin
    _, token = _seat_token(django_capture_on_commit_callbacks, lg.a, lg.admin)
    nina = _newcomer()
    invitation_services.invitation_accept(token=token, user=nina)
    assert not lg.campaign.admins.filter(pk=nina.pk).exists()
    assert lg.campaign.admins.filter(pk=lg.a.user_id).exists()


def test_a_seat_invitation_is_void_once_the_seat_passed(
        page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    invitation, token = _seat_token(django_capture_on_commit_callbacks, lg.a, lg.admin)
    _newcomer("otto")
    player_replace(player=lg.a, actor=lg.admin, account="otto")
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    with pytest.raises(InvitationUnusable):
        invitation_services.invitation_accept(token=token, user=_newcomer())
    assert Player.objects.get(pk=lg.a.pk).user.username == "otto"


def test_a_used_seat_invitation_is_used_up_for_anyone_else(
        page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    _, token = _seat_token(django_capture_on_commit_callbacks, lg.a, lg.admin)
    invitation_services.invitation_accept(token=token, user=_newcomer())
    with pytest.raises(InvitationUnusable) as refused:
        invitation_services.invitation_accept(token=token, user=_newcomer("otto"))
    assert refused.value.code == "used_up"


def test_a_player_cannot_take_a_second_seat(page_world, django_capture_on_commit_callbacks):
    lg = page_world.lg
    _, token = _seat_token(django_capture_on_commit_callbacks, lg.a, lg.admin)
    with pytest.raises(Conflict) as refused:
        invitation_services.invitation_accept(token=token, user=lg.b.user)
    assert refused.value.code == "already_player"
    assert Player.objects.get(pk=lg.a.pk).user.username == "anna"
    ben = lg.b.user
    ben.email = "ben@example.org"
    ben.save()
    with pytest.raises(Conflict):
        invitation_services.seat_invitation_create(player=lg.a, by=lg.admin,
                                                   email="ben@example.org")


def test_inviting_an_address_to_a_new_seat_does_not_reuse_its_seat_invitation(
        league, django_capture_on_commit_callbacks):
    seat, _ = _seat_token(django_capture_on_commit_callbacks, league.a, league.admin)
    with django_capture_on_commit_callbacks(execute=True):
        created = invitation_services.invitations_create(
            campaign=league.campaign, by=league.admin, emails="nina@example.org")
    assert created[0].pk != seat.pk and created[0].seat is None


# --- standings name the current holder --------------------------------------------------------

def test_standings_show_the_current_holders_display_name_frozen_rounds_keep_theirs(page_world):
    lg = page_world.lg
    rnd = advance_to(page_world.rnd, Round.Phase.CLOSED)
    nina = _newcomer()
    profile_update(user=nina, display_name="Nina die Neue")
    player_replace(player=lg.a, actor=lg.admin, account="nina")
    row = next(r for r in live_standings(lg.campaign) if r["player"] == lg.a.pk)
    assert (row["username"], row["display_name"]) == ("nina", "Nina die Neue")
    frozen = next(r for r in frozen_standings(lg.campaign, rnd.number)
                  if r["player"] == lg.a.pk)
    assert frozen["username"] == "anna"  # the holder at that round's close


# --- deleting the only admin's account -------------------------------------

def test_the_only_admin_cannot_delete_their_account(league):
    with pytest.raises(Conflict) as refused:
        account_delete(user=league.admin)
    assert refused.value.code == "only_admin"
    assert league.campaign.name in refused.value.message
    league.admin.refresh_from_db()
    assert league.admin.is_active and league.campaign.admins.filter(pk=league.admin.pk).exists()


def test_an_admin_with_a_co_admin_or_of_a_finished_campaign_may_delete(league):
    league.campaign.admins.add(league.a.user)
    account_delete(user=league.admin)
    league.admin.refresh_from_db()
    assert not league.admin.is_active
    assert list(league.campaign.admins.all()) == [league.a.user]
    Campaign.objects.filter(pk=league.campaign.pk).update(status=Campaign.Status.FINISHED)
    account_delete(user=league.a.user)  # a finished campaign needs no admin any more
