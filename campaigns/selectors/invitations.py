"""Reads of invitations and join requests for the API and the pages."""

import hashlib
from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from campaigns.models import Campaign, Invitation, JoinRequest

ACTIVE, REVOKED, EXPIRED, USED_UP = "active", "revoked", "expired", "used_up"
STATES = (ACTIVE, REVOKED, EXPIRED, USED_UP)
TOKEN_MAX = 100  # tokens are 43 characters (secrets.token_urlsafe(32)); longer is unknown


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_state(invitation: Invitation, now: datetime | None = None) -> str:
    """``active``, or why the invitation can no longer be accepted."""
    now = now or timezone.now()
    if invitation.revoked_at is not None:
        return REVOKED
    if invitation.expires_at is not None and invitation.expires_at <= now:
        return EXPIRED
    if invitation.max_uses is not None and invitation.uses >= invitation.max_uses:
        return USED_UP
    return ACTIVE


def invitation_by_token(token) -> Invitation | None:
    """The invitation a token opens, looked up by the token's hash; None for an unknown one."""
    if not isinstance(token, str) or not token or len(token) > TOKEN_MAX:
        return None
    return (Invitation.objects.select_related("campaign")
            .filter(token_hash=token_hash(token)).first())


def campaign_invitations(campaign: Campaign) -> QuerySet:
    """The campaign's invitations, newest first (the admin's list)."""
    return Invitation.objects.filter(campaign=campaign).order_by("-created_at", "-id")


def invitations_of_user(user) -> QuerySet:
    """Invitations addressed to ``user``'s e-mail address (a player sees only their own);
    none for a user without an address."""
    if not (user and user.is_authenticated and user.email):
        return Invitation.objects.none()
    return (Invitation.objects.select_related("campaign")
            .filter(kind=Invitation.Kind.EMAIL, email__iexact=user.email)
            .order_by("-created_at", "-id"))


def campaign_join_requests(campaign: Campaign, status: str | None = None) -> QuerySet:
    qs = JoinRequest.objects.filter(campaign=campaign).select_related("user")
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-created_at", "-id")


def pending_join_request(campaign: Campaign, user) -> JoinRequest | None:
    if not (user and user.is_authenticated):
        return None
    return JoinRequest.objects.filter(campaign=campaign, user=user,
                                      status=JoinRequest.Status.PENDING).first()


def can_request_to_join(campaign: Campaign) -> bool:
    return (campaign.visibility == Campaign.Visibility.PUBLIC and campaign.join_requests_open
            and campaign.status != Campaign.Status.FINISHED)
