"""Invitations and join requests: how a user becomes a player without the Django
admin. Every write is here; the API and the pages call these same functions.

- An admin invites by e-mail (one use each; pasted addresses split at commas, semicolons and
  line breaks, validated, duplicates merged) or makes a link (optionally limited in uses and
  time). Only a token's SHA-256 is stored (``selectors.invitations.token_hash``).
- Accepting adds the player with ``player_add`` (the one enrolment service); accepting twice,
  or as a user who already plays, changes nothing. An invitation never grants admin rights.
- A join request is asked on a public campaign that allows it; the admin accepts (faction and
  colour) or declines; both sides get mail."""

import re
import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.errors import Conflict, DomainError, RuleViolation
from campaigns.mail import (
    absolute,
    display,
    mail_after_commit,
    mail_users_after_commit,
    name_of,
    profiles_of,
)
from campaigns.models import (
    Campaign,
    Invitation,
    InvitationUse,
    JoinRequest,
    Player,
    SeatHolder,
)
from campaigns.selectors.invitations import (
    ACTIVE,
    can_request_to_join,
    invitation_state,
    token_hash,
)
from campaigns.services.campaigns import _colour, _faction, player_add
from campaigns.services.seats import check_open, seat_transfer

EMAIL_INVITATION_DAYS = 30  # an e-mail invitation without an expiry given lasts this long
MAX_ADDRESSES = 100  # per paste
MAX_USES = 10_000
MESSAGE_MAX = JoinRequest._meta.get_field("message").max_length
EMAIL_MAX = Invitation._meta.get_field("email").max_length
SEPARATORS = re.compile(r"[,;\s]+")


class InvitationUnusable(DomainError):
    """The link is revoked, expired or used up (HTTP 410); ``code`` says which."""

    status = 410


class NotFound(DomainError):
    status = 404
    default_code = "not_found"


MESSAGES = {
    "revoked": gettext_lazy("This invitation was revoked."),
    "expired": gettext_lazy("This invitation has expired."),
    "used_up": gettext_lazy("This invitation has been used up."),
}


def new_token() -> tuple[str, str]:
    """An unguessable token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def invitation_link(token: str) -> str:
    """The absolute address of the invitation page (for mail)."""
    return absolute(reverse("campaigns:invitation", kwargs={"token": token}))


def parse_addresses(text) -> list[str]:
    """Addresses from a paste (or a list): split at commas, semicolons and white space,
    validated, duplicates merged (case-insensitively), in their first order."""
    if isinstance(text, list | tuple):
        if not all(isinstance(item, str) for item in text):
            raise RuleViolation(_("Addresses are text."), field="emails")
        text = ",".join(text)
    if not isinstance(text, str):
        raise RuleViolation(_("Addresses are text."), field="emails")
    found: dict[str, str] = {}
    bad = []
    for part in SEPARATORS.split(text):
        part = part.strip().strip("<>")
        if not part:
            continue
        try:
            if len(part) > EMAIL_MAX:
                raise ValidationError("too long")
            validate_email(part)
        except ValidationError:
            bad.append(part[:60])
            continue
        found.setdefault(part.lower(), part.lower())
    if bad:
        raise RuleViolation(_("Not an e-mail address: %(addresses)s.")
                            % {"addresses": ", ".join(bad[:10])},
                            code="invalid_email", field="emails")
    if not found:
        raise RuleViolation(_("Give at least one e-mail address."), field="emails")
    if len(found) > MAX_ADDRESSES:
        raise RuleViolation(_("At most %(n)s addresses at once.") % {"n": MAX_ADDRESSES},
                            field="emails")
    return list(found)


def _preset(faction, colour) -> tuple[str, str]:
    """The faction and colour the admin sets for the invitee ("" = the invitee chooses)."""
    faction = _faction(faction) if faction not in (None, "") else ""
    colour = _colour(colour) if colour not in (None, "") else ""
    return faction, colour


def _expiry(expires_at, now: datetime):
    if expires_at is None:
        return None
    if not isinstance(expires_at, datetime) or timezone.is_naive(expires_at):
        raise RuleViolation(_("An expiry is a date and time with a zone."),
                            field="expires_at")
    if expires_at <= now:
        raise RuleViolation(_("The expiry must be in the future."), field="expires_at")
    return expires_at


def _open_campaign(campaign: Campaign) -> None:
    if campaign.status == Campaign.Status.FINISHED:
        raise Conflict(_("The campaign has finished; nobody joins any more."),
                       code="campaign_finished")


def _send_invitation(invitation: Invitation, token: str, *, by) -> None:
    """Mail the link; in the language and zone of the account with that address, if there
    is one (else the campaign's language and zone: ``campaigns.mail.recipient_locale``)."""
    known = get_user_model().objects.filter(email__iexact=invitation.email).first()
    profile = profiles_of([known]).get(getattr(known, "pk", None))
    context = {"campaign": invitation.campaign, "link": invitation_link(token),
               "inviter": name_of(by) if by else "",
               "recipient_name": display(known, profile),
               "expires_at": invitation.expires_at, "faction": invitation.faction,
               "seat": invitation.seat_id is not None}
    mail_after_commit(to=[invitation.email], name="invitation", profile=profile,
                      context=context)
    invitation.sent_at = timezone.now()
    invitation.send_count += 1
    invitation.save(update_fields=["sent_at", "send_count", "token_hash", "expires_at"])


@transaction.atomic
def invitations_create(*, campaign: Campaign, by, emails, faction: str = "",
                       colour: str = "", expires_at=None) -> list[Invitation]:
    """Invite each address (one use each) and mail it the link after commit. An address
    with an active invitation already gets that one sent again (a fresh link) instead of a
    second invitation."""
    _open_campaign(campaign)
    addresses = parse_addresses(emails)
    faction, colour = _preset(faction, colour)
    now = timezone.now()
    expires_at = _expiry(expires_at, now) or now + timedelta(days=EMAIL_INVITATION_DAYS)
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    result = []
    for address in addresses:
        existing = [inv for inv in Invitation.objects.filter(
            campaign=campaign, kind=Invitation.Kind.EMAIL, email__iexact=address,
            seat__isnull=True) if invitation_state(inv, now) == ACTIVE]
        token, hashed = new_token()
        if existing:
            invitation = existing[0]
            invitation.token_hash = hashed
            invitation.expires_at = max(expires_at, invitation.expires_at or expires_at)
            if faction or colour:
                invitation.faction, invitation.colour = faction, colour
                invitation.save(update_fields=["faction", "colour"])
        else:
            invitation = Invitation.objects.create(
                campaign=campaign, kind=Invitation.Kind.EMAIL, email=address,
                token_hash=hashed, faction=faction, colour=colour, max_uses=1,
                expires_at=expires_at, created_by=by)
        _send_invitation(invitation, token, by=by)
        result.append(invitation)
    return result


@transaction.atomic
def invitation_link_create(*, campaign: Campaign, by, max_uses: int | None = None,
                           expires_at=None, faction: str = "",
                           colour: str = "") -> tuple[Invitation, str]:
    """A link invitation; returns it with its token (shown once: only the hash is kept)."""
    _open_campaign(campaign)
    if max_uses is not None and (not isinstance(max_uses, int) or isinstance(max_uses, bool)
                                 or not 1 <= max_uses <= MAX_USES):
        raise RuleViolation(_("Uses are a whole number from 1 to %(n)s.") % {"n": MAX_USES},
                            field="max_uses")
    faction, colour = _preset(faction, colour)
    token, hashed = new_token()
    invitation = Invitation.objects.create(
        campaign=campaign, kind=Invitation.Kind.LINK, token_hash=hashed, faction=faction,
        colour=colour, max_uses=max_uses, expires_at=_expiry(expires_at, timezone.now()),
        created_by=by)
    return invitation, token


def _locked(invitation: Invitation) -> Invitation:
    return Invitation.objects.select_for_update().select_related("campaign").get(
        pk=invitation.pk)


@transaction.atomic
def invitation_resend(*, invitation: Invitation, by) -> Invitation:
    """Mail an e-mail invitation again, with a fresh link (the old one stops working); an
    expired one gets a new expiry. Revoked or used ones are not sent."""
    invitation = _locked(invitation)
    if invitation.kind != Invitation.Kind.EMAIL:
        raise Conflict(_("Only e-mail invitations are sent; copy a link invitation yourself."),
                       code="not_an_email_invitation")
    state = invitation_state(invitation)
    if state in ("revoked", "used_up"):
        raise InvitationUnusable(str(MESSAGES[state]), code=state)
    _open_campaign(invitation.campaign)
    token, invitation.token_hash = new_token()
    now = timezone.now()
    if invitation.expires_at is None or invitation.expires_at <= now + timedelta(days=1):
        invitation.expires_at = now + timedelta(days=EMAIL_INVITATION_DAYS)
    _send_invitation(invitation, token, by=by)
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    """The link stops working at once; revoking twice changes nothing."""
    invitation = _locked(invitation)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def check_usable(invitation: Invitation) -> None:
    """Raise ``InvitationUnusable`` (code ``revoked``/``expired``/``used_up``) unless the
    invitation can be accepted."""
    state = invitation_state(invitation)
    if state != ACTIVE:
        raise InvitationUnusable(str(MESSAGES[state]), code=state)


@transaction.atomic
def invitation_accept(*, token: str, user, faction=None, colour=None) -> Player:
    """``user`` accepts the invitation ``token`` opens and is a player (``player_add``),
    with the faction and colour the admin set, else those given. Accepting again, or as a
    user who already plays in the campaign, returns that player and changes nothing."""
    from campaigns.selectors.invitations import invitation_by_token

    found = invitation_by_token(token)
    if found is None:
        raise NotFound(_("No such invitation."))
    invitation = _locked(found)  # one accept at a time per invitation: uses stay exact
    campaign = invitation.campaign
    if invitation.seat_id is not None:
        return _take_seat(invitation, user)
    used = InvitationUse.objects.filter(invitation=invitation, user=user).first()
    current = Player.objects.filter(campaign=campaign, user=user).first()
    if current is not None:
        return current
    if used is not None and used.player_id is not None:
        return used.player
    check_usable(invitation)
    _open_campaign(campaign)
    faction = invitation.faction or faction
    colour = invitation.colour or colour or "#888888"
    player = player_add(campaign=campaign, user=user, faction=faction, colour=colour,
                        actor=user)
    try:
        with transaction.atomic():
            InvitationUse.objects.create(invitation=invitation, user=user, player=player)
    except IntegrityError:  # a concurrent accept by the same user where locks are missing
        raise Conflict(_("This invitation was just accepted."),
                       code="already_accepted") from None
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    _tell_admins(campaign, player, user)
    return player


def _tell_admins(campaign: Campaign, player: Player, user, *, seat: bool = False) -> None:
    """The campaign's admins hear by mail that ``user`` joined with an invitation (or took
    over a seat), each in their own language and zone, with a link to the player on the
    members page; not the one who joined, should an admin accept an invitation."""
    admins = campaign.admins.exclude(email="").exclude(pk=user.pk)
    link = absolute(reverse("campaigns:manage-members", args=[campaign.pk]))
    mail_users_after_commit(users=admins, name="player_joined", context={
        "campaign": campaign, "player_name": name_of(user), "faction": player.faction,
        "seat": seat, "link": f"{link}#player-{player.pk}"})


# --- seat invitations (replacing a player) -------------------------------

@transaction.atomic
def seat_invitation_create(*, player: Player, by, email, expires_at=None) -> Invitation:
    """Invite one address to take over ``player``'s seat (one use) and mail it the link after
    commit. Accepting passes the seat (``seats.seat_transfer``) instead of adding a player."""
    player = Player.objects.select_related("campaign").get(pk=player.pk)
    campaign = player.campaign
    check_open(campaign)
    addresses = parse_addresses(email)
    if len(addresses) != 1:
        raise RuleViolation(_("A seat goes to one address."), field="email")
    address = addresses[0]
    if Player.objects.filter(campaign=campaign, user__email__iexact=address).exists():
        raise Conflict(_("The account with this address already plays in the campaign; one "
                         "seat per person."), code="already_player", field="email")
    now = timezone.now()
    token, hashed = new_token()
    invitation = Invitation.objects.create(
        campaign=campaign, kind=Invitation.Kind.EMAIL, email=address, token_hash=hashed,
        faction=player.faction, colour=player.colour, max_uses=1, seat=player,
        expires_at=_expiry(expires_at, now) or now + timedelta(days=EMAIL_INVITATION_DAYS),
        created_by=by)
    _send_invitation(invitation, token, by=by)
    return invitation


def _take_seat(invitation: Invitation, user) -> Player:
    """Accept a seat invitation (locked): ``user`` holds the seat from now on. Accepting
    again changes nothing; the invitation is void once the seat passed to someone else."""
    seat = invitation.seat
    if seat.user_id == user.pk:
        return seat
    if Player.objects.filter(campaign=invitation.campaign, user=user).exists():
        raise Conflict(_("You already play in this campaign; one seat per person."),
                       code="already_player")
    check_usable(invitation)
    if SeatHolder.objects.filter(player=seat, until=None,
                                 since__gt=invitation.created_at).exists():
        raise InvitationUnusable(_("This seat was handed to someone else after the "
                                   "invitation was sent."), code="seat_transferred")
    player = seat_transfer(player=seat, user=user, actor=invitation.created_by,
                           accepted=invitation)
    InvitationUse.objects.create(invitation=invitation, user=user, player=player)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    _tell_admins(invitation.campaign, player, user, seat=True)
    return player


# --- join requests ---------------------------------------------------------------------------

@transaction.atomic
def join_request_create(*, campaign: Campaign, user, message: str = "") -> JoinRequest:
    """``user`` asks to join; the admins get mail. Asking again while a request is pending
    returns that request."""
    if not isinstance(message, str):
        raise RuleViolation(_("A message is text."), field="message")
    message = message.strip()
    if len(message) > MESSAGE_MAX:
        raise RuleViolation(_("At most %(n)s characters.") % {"n": MESSAGE_MAX}, field="message")
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    campaign.refresh_from_db()
    if not can_request_to_join(campaign):
        raise Conflict(_("This campaign does not take join requests."),
                       code="join_requests_closed")
    if Player.objects.filter(campaign=campaign, user=user).exists():
        raise Conflict(_("You already play in this campaign."), code="already_player")
    pending = JoinRequest.objects.filter(campaign=campaign, user=user,
                                         status=JoinRequest.Status.PENDING).first()
    if pending is not None:
        return pending
    request = JoinRequest.objects.create(campaign=campaign, user=user, message=message)
    admins = campaign.admins.exclude(email="")
    mail_users_after_commit(users=admins, name="join_request", context={
        "campaign": campaign, "applicant": name_of(user), "message": message,
        "link": absolute(reverse("campaigns:manage-members", args=[campaign.pk]))})
    return request


def _pending(join_request: JoinRequest) -> JoinRequest:
    locked = JoinRequest.objects.select_for_update().select_related("campaign", "user").get(
        pk=join_request.pk)
    if locked.status != JoinRequest.Status.PENDING:
        raise Conflict(_("This request was decided already."), code="join_request_decided")
    return locked


@transaction.atomic
def join_request_accept(*, join_request: JoinRequest, by, faction, colour="#888888") -> Player:
    """The admin accepts: the user is a player (``player_add``) and hears so by mail."""
    join_request = _pending(join_request)
    campaign = join_request.campaign
    _open_campaign(campaign)
    player = player_add(campaign=campaign, user=join_request.user, faction=faction,
                        colour=colour or "#888888", actor=by)
    join_request.status = JoinRequest.Status.ACCEPTED
    join_request.player, join_request.decided_by = player, by
    join_request.decided_at = timezone.now()
    join_request.save()
    mail_users_after_commit(users=[join_request.user], name="join_accepted", context={
        "campaign": campaign, "faction": player.faction,
        "link": absolute(reverse("campaigns:detail", args=[campaign.pk]))})
    return player


@transaction.atomic
def join_request_decline(*, join_request: JoinRequest, by) -> JoinRequest:
    """The admin declines; the user hears so by mail."""
    join_request = _pending(join_request)
    join_request.status = JoinRequest.Status.DECLINED
    join_request.decided_by, join_request.decided_at = by, timezone.now()
    join_request.save()
    mail_users_after_commit(users=[join_request.user], name="join_declined", context={
        "campaign": join_request.campaign,
        "link": absolute(reverse("campaigns:index"))})
    return join_request
