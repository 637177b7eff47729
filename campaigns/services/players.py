"""The campaign admin manages players: edit a seat's faction and colour,
remove a player before the campaign starts, and replace a player by an existing account (the
seat passes at once, ``seats.seat_transfer``) or by a seat invitation
(``invitations.seat_invitation_create``). Pages and the API call these same functions.

The display name is the person's own (``Profile.display_name``, on their profile page); the
admin does not edit it here."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import Conflict, DomainError
from campaigns.locking import lock_campaign
from campaigns.models import Campaign, Player
from campaigns.services import admin_log
from campaigns.services.accounts import FORMER_MEMBER_PREFIX
from campaigns.services.campaigns import _colour, _faction
from campaigns.services.corrections import correction
from campaigns.services.seats import check_open, seat_transfer

_UNSET = object()
ACCOUNT_MAX = 254  # an e-mail address at most


def _locked(player: Player) -> Player:
    lock_campaign(player.campaign_id)  # campaigns.locking: the campaign first
    return Player.objects.select_for_update().select_related("campaign", "user").get(
        pk=player.pk)


@transaction.atomic
def player_update(*, player: Player, actor, faction=_UNSET, colour=_UNSET) -> Player:
    """Change the seat's faction and/or colour (the checks of ``player_add``). In a running
    campaign it is a logged correction, refused while the automatic fleets phase runs."""
    player = _locked(player)
    changes = {}
    if faction is not _UNSET:
        changes["faction"] = _faction(faction)
    if colour is not _UNSET:
        changes["colour"] = _colour(colour)
    changed = {key: value for key, value in changes.items() if getattr(player, key) != value}
    if not changed:
        return player
    correction(campaign=player.campaign, actor=actor, kind="player.update",
               target=player.faction, before={key: getattr(player, key) for key in changed},
               after=changed)
    for key, value in changed.items():
        setattr(player, key, value)
    player.save(update_fields=list(changed))
    return player


@transaction.atomic
def player_remove(*, player: Player, actor) -> None:
    """Remove a player before the campaign starts (their tiles become neutral). Once it runs
    the seat stays: its tiles, battles and history belong to the campaign; replace the player
    instead."""
    player = _locked(player)
    Campaign.objects.select_for_update().filter(pk=player.campaign_id).first()
    player.campaign.refresh_from_db(fields=["status"])
    if player.campaign.status != Campaign.Status.SETUP:
        raise Conflict(_("A player can be removed only before the campaign starts: the seat's "
                         "tiles, battles and history stay with the campaign. Replace the "
                         "player instead (another account takes over the seat)."),
                       code="campaign_started")
    admin_log.record(campaign=player.campaign, actor=actor, kind="player.remove",
                     target=player.faction,
                     before={"faction": player.faction, "colour": player.colour})
    player.delete()


def find_account(account) -> object:
    """An active account by username or e-mail address (``DomainError`` naming ``account``)."""
    if not isinstance(account, str) or not account.strip() or len(account) > ACCOUNT_MAX:
        raise DomainError(_("Give a username or an e-mail address."), field="account")
    account = account.strip()
    users = get_user_model().objects.filter(is_active=True)
    if "@" in account:
        found = list(users.filter(email__iexact=account)[:2])
        found = found if len(found) == 1 else []
    else:
        found = list(users.filter(username=account)[:1]) or \
            list(users.filter(username__iexact=account)[:1])
    if not found or found[0].username.startswith(FORMER_MEMBER_PREFIX):
        raise DomainError(_("No account with this username or e-mail address. To ask "
                            "someone without an account, send a seat invitation by e-mail."),
                          code="no_such_account", field="account")
    return found[0]


@transaction.atomic
def player_replace(*, player: Player, actor, account) -> Player:
    """Another existing account (username or e-mail address, not already playing in the
    campaign) takes over the seat at once: everything of the seat stays with it."""
    user = find_account(account)
    player = _locked(player)
    campaign = player.campaign
    check_open(campaign)
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    if Player.objects.filter(campaign=campaign, user=user).exists():
        raise Conflict(_("This account already plays in the campaign; one seat per person."),
                       code="already_player", field="account")
    return seat_transfer(player=player, user=user, actor=actor)
