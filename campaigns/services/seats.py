"""A seat changes hands (replacing a player mid-season). The seat is the
``Player`` row: its tiles, fleets, requisition, battles, army lists and notification
preferences all point at it and stay; only ``Player.user`` (the current holder) changes, and
``SeatHolder`` records each holder and from when. The old holder's pending inputs are the
seat's: until the new holder acts they take their defaults at the deadlines (R-RND-3)."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import Conflict
from campaigns.locking import lock_campaign
from campaigns.models import Campaign, Invitation, Player, SeatHolder
from campaigns.selectors.rounds import current_round
from campaigns.services.corrections import correction

KIND = "player.replace"  # the admin log's code of a seat changing hands


def _round_number(campaign: Campaign) -> int | None:
    current = current_round(campaign)
    return current.number if current is not None else None


def seat_start(player: Player) -> SeatHolder:
    """The first holder's row of a new seat (``player_add``)."""
    return SeatHolder.objects.create(player=player, user=player.user, since=player.joined_at,
                                     round_number=_round_number(player.campaign))


def check_open(campaign: Campaign) -> None:
    if campaign.status == Campaign.Status.FINISHED:
        raise Conflict(_("The campaign has finished; its seats no longer change hands."),
                       code="campaign_finished")


@transaction.atomic
def seat_transfer(*, player: Player, user, actor, accepted: Invitation | None = None,
                  now=None) -> Player:
    """``user`` holds ``player``'s seat from now on. The caller has checked that ``user`` may
    take it; a running campaign logs it as a correction (refused while the automatic fleets
    phase runs). Open seat invitations of the seat (but ``accepted``, the one being used) are
    void from now on: they are revoked."""
    now = now or timezone.now()
    lock_campaign(player.campaign_id)  # campaigns.locking: the campaign first
    player = Player.objects.select_for_update().select_related("campaign", "user").get(
        pk=player.pk)
    campaign = player.campaign
    check_open(campaign)
    old = player.user
    if old.pk == user.pk:
        raise Conflict(_("This account already holds the seat."), code="same_holder",
                       field="account")
    correction(campaign=campaign, actor=actor, kind=KIND, target=player.faction,
               before={"holder": old.username}, after={"holder": user.username})
    current = SeatHolder.objects.select_for_update().filter(player=player, until=None).first()
    if current is None:  # a seat made before seat history existed: its first holder's row
        current = SeatHolder(player=player, user=old, since=player.joined_at)
    current.until = now
    current.save()
    player.user = user
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:  # the unique (campaign, user): a concurrent enrolment won
        raise Conflict(_("This account already plays in the campaign."),
                       code="already_player", field="account") from None
    SeatHolder.objects.create(player=player, user=user, since=now,
                              round_number=_round_number(campaign))
    (Invitation.objects.filter(seat=player, revoked_at=None)
     .exclude(pk=getattr(accepted, "pk", None)).update(revoked_at=now))
    return player
